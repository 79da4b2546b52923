//! Parse time of the SKILL.md parser for growing files (10 KB to 1 MB): a real skill padded
//! with more actions, one huge line, and deep nesting, to show it is linear (µs/KB flat).
//!
//! `cargo run --release -p nofxi-skills --example skill_parse_scaling`

use std::time::Instant;

use nofxi_skills::parse_skill;

const HEAD: &str = "---\nname: big\ndescription: a skill grown to size\n---\n\n```yaml\nskill:\n  kind: management\n  domain: traders\n  version: 1\n  title: {zh: 大, en: Big}\n```\n\n";

/// A file of `bytes` bytes whose yaml block lists many (invalid) actions.
fn many_actions(bytes: usize) -> String {
    let mut text = format!("{HEAD}```yaml\nactions:\n");
    let mut i = 0;
    while text.len() < bytes {
        text.push_str(&format!(
            "  - name: a{i}\n    risk: read\n    intents: [\"show thing {i}\", \"列出 {i}\"]\n"
        ));
        i += 1;
    }
    text.push_str("```\n");
    text
}

fn long_line(bytes: usize) -> String {
    format!("{HEAD}{}\n", "x".repeat(bytes))
}

fn deep(bytes: usize) -> String {
    let depth = bytes / 2;
    format!(
        "{HEAD}```yaml\nactions: {}{}\n```\n",
        "[".repeat(depth),
        "]".repeat(depth)
    )
}

fn time(label: &str, text: &str) {
    let best = (0..3)
        .map(|_| {
            let start = Instant::now();
            let _ = std::hint::black_box(parse_skill(text, "big/SKILL.md", "big", false));
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    let kb = text.len() as f64 / 1024.0;
    println!(
        "{label:<22} {kb:>7.0} KB  {:>9.2} ms  {:>7.2} µs/KB",
        best * 1e3,
        best * 1e6 / kb
    );
}

fn main() {
    for kb in [10, 100, 1000] {
        time(&format!("{kb} KB of actions"), &many_actions(kb << 10));
    }
    for kb in [10, 100, 1000] {
        time(&format!("{kb} KB line"), &long_line(kb << 10));
    }
    for kb in [10, 100, 1000] {
        time(&format!("{kb} KB nesting"), &deep(kb << 10));
    }
}
