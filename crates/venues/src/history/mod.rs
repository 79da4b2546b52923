//! Candle history downloaded from a venue's public klines, kept in the data directory.
//!
//! [`download`] pages through a [`crate::MarketData`]'s klines, one request per
//! [`PAGE`] candles, under whatever rate limits and retries that venue's client already keeps
//! (Binance's request weight and `Retry-After`, OKX's and Bybit's limits): nothing here sends a
//! request of its own. What was asked and answered is recorded page by page, so a run that is
//! interrupted, killed or refused half-way is resumed by running it again: only the time not yet
//! covered is asked for.
//!
//! A hole, candles the venue does not have inside time it was asked about (a halt, an outage,
//! the time before a listing), is reported with where it is and how many candles it misses.
//! It is never filled: a backtest over it is told, as it is told of a hole in a CSV file.
//!
//! # Storage: CSV compressed with zstd, one file per month
//!
//! `history/<exchange>/<SYMBOL>/<interval>/2025-01.csv.zst` holds the month's candles in the
//! format `nofxi backtest --csv` reads (`timestamp_ms,open,high,low,close,volume`, the
//! venue's own decimal text, never rounded through a float), and `series.json` beside it says
//! what time was covered, how many candles there are and where the holes are. CSV + zstd rather
//! than Parquet because:
//! - the files stay readable by anything (`zstd -dc 2025-01.csv.zst` is a valid `--csv` input,
//!   and a spreadsheet or pandas opens it), and the prices stay the exact text the venue sent;
//! - a page is appended to the month being written (`2025-01.csv.part`, plain CSV) as it
//!   arrives, which is what makes resuming after a kill cheap; Parquet files are written whole;
//! - zstd brings CSV of candles to about a fifth of its size, while `arrow` + `parquet` would
//!   add a build many times the size of this crate for a columnar reader nofxi does not need
//!   (a backtest reads a few series whole, it never scans columns across thousands).
//!
//! A month is compressed once a run has gone past it or ends; until then its `.part` file is
//! read together with its `.zst`, so a series is readable at every moment, even after a kill.

mod download;
mod ranges;
mod store;

pub use download::{DownloadPlan, DownloadReport, PAGE, PageDone, download, plan};
pub use ranges::Span;
pub use store::{HistoryError, HistoryStore, Hole, Manifest, SeriesKey, holes};
