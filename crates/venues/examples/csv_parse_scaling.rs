//! Parse time of the CSV candle reader for growing files (1, 4, 16 MB of valid rows, and
//! one huge line), to show it is linear: the MB/s column stays flat as the size grows.
//!
//! `cargo run --release -p nofxi-venues --example csv_parse_scaling`

use std::time::Instant;

use nofxi_venues::csv_source::parse_candles;

fn rows(bytes: usize) -> String {
    let mut text = String::from("timestamp_ms,open,high,low,close,volume\n");
    let mut t = 1_600_000_000_000i64;
    let mut i = 0u64;
    while text.len() < bytes {
        let base = 30_000 + (i % 500);
        text.push_str(&format!(
            "{t},{base}.25,{}.5,{}.125,{base}.75,{}.5\n",
            base + 3,
            base - 2,
            i % 97
        ));
        t += 60_000;
        i += 1;
    }
    text
}

fn time(label: &str, text: &str) {
    let best = (0..3)
        .map(|_| {
            let start = Instant::now();
            let _ = std::hint::black_box(parse_candles(text.as_bytes()));
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    let mb = text.len() as f64 / (1 << 20) as f64;
    println!(
        "{label:<28} {mb:>6.1} MB  {:>8.1} ms  {:>7.1} MB/s",
        best * 1e3,
        mb / best
    );
}

fn main() {
    for mb in [1, 4, 16] {
        time(&format!("{mb} MB of candles"), &rows(mb << 20));
    }
    for mb in [1, 4, 16] {
        let line = format!(
            "timestamp_ms,open,high,low,close,volume\n{},1,1,1,1,1\n",
            "9".repeat(mb << 20)
        );
        time(&format!("one {mb} MB line"), &line);
    }
}
