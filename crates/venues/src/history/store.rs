//! The files of downloaded history: where a series lives, its manifest, its month files, and
//! reading a series back whole.

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use nofxi_domain::Interval;
use nofxi_domain::market::{Candle, Symbol};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::ranges::{self, Span};
use crate::VenueError;

const MANIFEST: &str = "series.json";
const HEADER: &str = "timestamp_ms,open,high,low,close,volume";
/// zstd's own default level: most of the ratio at a fraction of the time of the high levels.
const ZSTD_LEVEL: i32 = 3;

#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}, line {line}: {detail}: delete the file and download that month again", path.display())]
    Corrupt {
        path: PathBuf,
        line: usize,
        detail: String,
    },
    #[error(
        "{} is being downloaded by another nofxi process: wait for it to finish, or stop it",
        dir.display()
    )]
    Busy { dir: PathBuf },
    #[error(transparent)]
    Venue(#[from] VenueError),
}

fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> HistoryError {
    let path = path.to_path_buf();
    move |source| HistoryError::Io {
        action,
        path,
        source,
    }
}

/// Which series: a venue's name as nofxi calls it (`binance`), a symbol, an interval.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SeriesKey {
    pub exchange: String,
    pub symbol: Symbol,
    pub interval: Interval,
}

/// A run of missing candles inside covered time: open times `from_ms..to_ms`, `missing` of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hole {
    pub from_ms: i64,
    pub to_ms: i64,
    pub missing: i64,
}

/// What `series.json` says of a series: the time the venue was asked about and answered for,
/// the candles kept, and the holes inside that time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub exchange: String,
    pub symbol: String,
    pub interval: Interval,
    pub covered: Vec<Span>,
    pub candles: u64,
    pub holes: Vec<Hole>,
}

impl Manifest {
    fn empty(key: &SeriesKey) -> Manifest {
        Manifest {
            exchange: key.exchange.clone(),
            symbol: key.symbol.to_string(),
            interval: key.interval,
            covered: Vec::new(),
            candles: 0,
            holes: Vec::new(),
        }
    }

    /// Missing candles over all holes.
    pub fn missing(&self) -> i64 {
        self.holes.iter().map(|h| h.missing).sum()
    }

    /// Whether `span` lies inside one covered span.
    pub fn covers(&self, span: Span) -> bool {
        ranges::uncovered(&self.covered, span).is_empty()
    }
}

/// The history directory (`<data dir>/history`).
#[derive(Debug, Clone)]
pub struct HistoryStore {
    root: PathBuf,
}

impl HistoryStore {
    pub fn new(root: impl Into<PathBuf>) -> HistoryStore {
        HistoryStore { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn dir(&self, key: &SeriesKey) -> PathBuf {
        self.root
            .join(&key.exchange)
            .join(key.symbol.as_str())
            .join(key.interval.to_string())
    }

    /// The series' manifest; an empty one when nothing was downloaded yet.
    pub fn manifest(&self, key: &SeriesKey) -> Result<Manifest, HistoryError> {
        let path = self.dir(key).join(MANIFEST);
        match fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| HistoryError::Corrupt {
                path,
                line: e.line(),
                detail: e.to_string(),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Manifest::empty(key)),
            Err(e) => Err(io("read", &path)(e)),
        }
    }

    /// Write the manifest whole, through a temporary file renamed over the old one, so a kill
    /// leaves either the old or the new one.
    pub(crate) fn save_manifest(&self, key: &SeriesKey, m: &Manifest) -> Result<(), HistoryError> {
        let dir = self.dir(key);
        fs::create_dir_all(&dir).map_err(io("create", &dir))?;
        let path = dir.join(MANIFEST);
        let tmp = dir.join(format!("{MANIFEST}.tmp"));
        let text = serde_json::to_vec_pretty(m).map_err(|e| HistoryError::Corrupt {
            path: path.clone(),
            line: 0,
            detail: e.to_string(),
        })?;
        write_synced(&tmp, &text)?;
        fs::rename(&tmp, &path).map_err(io("replace", &path))
    }

    /// Hold the series for one writer: an OS lock on `.lock` in its directory, released when
    /// the returned file is dropped or the process dies (a killed run leaves nothing to clean).
    pub(crate) fn lock(&self, key: &SeriesKey) -> Result<fs::File, HistoryError> {
        let dir = self.dir(key);
        fs::create_dir_all(&dir).map_err(io("create", &dir))?;
        let path = dir.join(".lock");
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io("open", &path))?;
        match file.try_lock() {
            Ok(()) => Ok(file),
            Err(fs::TryLockError::WouldBlock) => Err(HistoryError::Busy { dir }),
            Err(fs::TryLockError::Error(e)) => Err(io("lock", &path)(e)),
        }
    }

    /// Every manifest under the store, sorted by exchange, symbol and interval.
    pub fn manifests(&self) -> Result<Vec<Manifest>, HistoryError> {
        let mut out = Vec::new();
        for exchange in subdirs(&self.root)? {
            for symbol in subdirs(&exchange)? {
                for interval in subdirs(&symbol)? {
                    let path = interval.join(MANIFEST);
                    if path.is_file() {
                        let bytes = fs::read(&path).map_err(io("read", &path))?;
                        let m: Manifest =
                            serde_json::from_slice(&bytes).map_err(|e| HistoryError::Corrupt {
                                path: path.clone(),
                                line: e.line(),
                                detail: e.to_string(),
                            })?;
                        out.push(m);
                    }
                }
            }
        }
        out.sort_by(|a, b| {
            (&a.exchange, &a.symbol, a.interval.millis()).cmp(&(
                &b.exchange,
                &b.symbol,
                b.interval.millis(),
            ))
        });
        Ok(out)
    }

    /// Append candles to their months' `.part` files and make them durable.
    pub(crate) fn append(&self, key: &SeriesKey, candles: &[Candle]) -> Result<(), HistoryError> {
        let dir = self.dir(key);
        fs::create_dir_all(&dir).map_err(io("create", &dir))?;
        let mut by_month: BTreeMap<String, String> = BTreeMap::new();
        for c in candles {
            let text = by_month.entry(month_of(c.open_time_ms)).or_default();
            text.push_str(&row(c));
        }
        for (month, text) in by_month {
            let path = dir.join(format!("{month}.csv.part"));
            let mut file = fs::OpenOptions::new()
                .create(true)
                .read(true)
                .append(true)
                .open(&path)
                .map_err(io("open", &path))?;
            let empty = drop_torn_line(&mut file).map_err(io("repair", &path))?;
            let head = if empty {
                format!("{HEADER}\n")
            } else {
                String::new()
            };
            file.write_all(format!("{head}{text}").as_bytes())
                .and_then(|()| file.sync_data())
                .map_err(io("write", &path))?;
        }
        Ok(())
    }

    /// Fold every `.part` file into its month's `.zst`: both read, merged, written compressed
    /// to a temporary file renamed over the old one, then the part removed.
    pub(crate) fn compress_parts(&self, key: &SeriesKey) -> Result<(), HistoryError> {
        let dir = self.dir(key);
        for (month, files) in month_files(&dir)? {
            let Some(part) = files.part else { continue };
            let mut candles = read_plain(&part, fs::File::open(&part).map_err(io("open", &part))?)?;
            if let Some(zst) = &files.zst {
                candles.extend(read_zst(zst)?);
            }
            sort_unique(&mut candles);
            let zst = dir.join(format!("{month}.csv.zst"));
            let tmp = dir.join(format!("{month}.csv.zst.tmp"));
            let mut text = String::with_capacity(candles.len() * 64);
            text.push_str(HEADER);
            text.push('\n');
            for c in &candles {
                text.push_str(&row(c));
            }
            let packed =
                zstd::encode_all(text.as_bytes(), ZSTD_LEVEL).map_err(io("compress", &tmp))?;
            write_synced(&tmp, &packed)?;
            fs::rename(&tmp, &zst).map_err(io("replace", &zst))?;
            fs::remove_file(&part).map_err(io("remove", &part))?;
        }
        Ok(())
    }

    /// The whole series, oldest first, one candle per open time: the months' compressed files
    /// and any part not yet compressed.
    pub fn candles(&self, key: &SeriesKey) -> Result<Vec<Candle>, HistoryError> {
        let dir = self.dir(key);
        let mut candles = Vec::new();
        for (_, files) in month_files(&dir)? {
            if let Some(zst) = &files.zst {
                candles.extend(read_zst(zst)?);
            }
            if let Some(part) = &files.part {
                candles.extend(read_plain(
                    part,
                    fs::File::open(part).map_err(io("open", part))?,
                )?);
            }
        }
        sort_unique(&mut candles);
        Ok(candles)
    }

    /// Count the candles and find the holes again, from the files, and save the manifest.
    pub(crate) fn recount(
        &self,
        key: &SeriesKey,
        covered: Vec<Span>,
    ) -> Result<Manifest, HistoryError> {
        let candles = self.candles(key)?;
        let m = Manifest {
            holes: holes(&candles, key.interval, &covered),
            covered,
            candles: u64::try_from(candles.len()).unwrap_or(u64::MAX),
            ..Manifest::empty(key)
        };
        self.save_manifest(key, &m)?;
        Ok(m)
    }
}

/// Runs of missing open times inside each covered span, given the series sorted by time.
pub fn holes(candles: &[Candle], interval: Interval, covered: &[Span]) -> Vec<Hole> {
    let step = interval.millis().max(1);
    let mut out = Vec::new();
    let mut i = 0;
    for span in covered {
        let mut expected = crate::align_open_time(interval, span.from_ms + step - 1);
        while i < candles.len() && candles[i].open_time_ms < expected {
            i += 1;
        }
        while i < candles.len() && candles[i].open_time_ms < span.to_ms {
            let t = candles[i].open_time_ms;
            if t > expected {
                out.push(Hole {
                    from_ms: expected,
                    to_ms: t,
                    missing: (t - expected) / step,
                });
            }
            expected = t + step;
            i += 1;
        }
        if expected < span.to_ms {
            out.push(Hole {
                from_ms: expected,
                to_ms: span.to_ms,
                missing: (span.to_ms - expected + step - 1) / step,
            });
        }
    }
    out
}

/// Cut a last line a kill left without its newline, so the next row starts a line of its
/// own. True when the file is empty (it needs its header).
fn drop_torn_line(file: &mut fs::File) -> std::io::Result<bool> {
    use std::io::{Seek, SeekFrom};
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(true);
    }
    let mut last = [0u8; 1];
    file.seek(SeekFrom::Start(len - 1))?;
    file.read_exact(&mut last)?;
    if last[0] == b'\n' {
        return Ok(false);
    }
    let tail = len.min(64 * 1024);
    let mut buf = vec![0u8; usize::try_from(tail).unwrap_or(0)];
    file.seek(SeekFrom::Start(len - tail))?;
    file.read_exact(&mut buf)?;
    let keep = match buf.iter().rposition(|b| *b == b'\n') {
        Some(i) => len - tail + u64::try_from(i).unwrap_or(0) + 1,
        None if tail == len => 0,
        None => return Err(std::io::Error::other("a line longer than 64 KiB")),
    };
    file.set_len(keep)?;
    Ok(keep == 0)
}

fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), HistoryError> {
    let mut f = fs::File::create(path).map_err(io("create", path))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .map_err(io("write", path))
}

fn subdirs(dir: &Path) -> Result<Vec<PathBuf>, HistoryError> {
    match fs::read_dir(dir) {
        Ok(entries) => {
            let mut out: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect();
            out.sort();
            Ok(out)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(io("read", dir)(e)),
    }
}

#[derive(Default)]
struct MonthFiles {
    zst: Option<PathBuf>,
    part: Option<PathBuf>,
}

fn month_files(dir: &Path) -> Result<BTreeMap<String, MonthFiles>, HistoryError> {
    let mut out: BTreeMap<String, MonthFiles> = BTreeMap::new();
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(io("read", dir)(e)),
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if let Some(month) = name.strip_suffix(".csv.zst") {
            out.entry(month.to_string()).or_default().zst = Some(path.clone());
        } else if let Some(month) = name.strip_suffix(".csv.part") {
            out.entry(month.to_string()).or_default().part = Some(path.clone());
        }
    }
    Ok(out)
}

/// `2025-01` for a time in January 2025 (UTC).
fn month_of(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms)
        .map(|t| t.strftime("%Y-%m").to_string())
        .unwrap_or_else(|_| "out-of-range".into())
}

fn row(c: &Candle) -> String {
    format!(
        "{},{},{},{},{},{}\n",
        c.open_time_ms, c.open, c.high, c.low, c.close, c.volume
    )
}

fn read_zst(path: &Path) -> Result<Vec<Candle>, HistoryError> {
    let file = fs::File::open(path).map_err(io("open", path))?;
    let decoder = zstd::Decoder::new(file).map_err(io("decompress", path))?;
    read_plain(path, decoder)
}

/// Rows of a month file. A last line without its newline is what a kill in the middle of a
/// write leaves: it is dropped (its page was not yet recorded as covered, so it is asked for
/// again). Anything else unreadable is an error naming the file and line.
fn read_plain(path: &Path, reader: impl Read) -> Result<Vec<Candle>, HistoryError> {
    let mut out = Vec::new();
    let mut reader = BufReader::new(reader);
    let mut line = String::new();
    let mut number = 0;
    loop {
        line.clear();
        let n = reader.read_line(&mut line).map_err(io("read", path))?;
        if n == 0 || !line.ends_with('\n') {
            break;
        }
        number += 1;
        let text = line.trim_end();
        if number == 1 && text == HEADER || text.is_empty() {
            continue;
        }
        let corrupt = |detail: &str| HistoryError::Corrupt {
            path: path.to_path_buf(),
            line: number,
            detail: detail.to_string(),
        };
        let fields: Vec<&str> = text.split(',').collect();
        let [t, o, h, l, c, v] = fields[..] else {
            return Err(corrupt("expected 6 fields"));
        };
        let dec = |s: &str| Decimal::from_str(s).map_err(|_| corrupt("a price is not a number"));
        out.push(Candle {
            open_time_ms: t.parse().map_err(|_| corrupt("the time is not a number"))?,
            open: dec(o)?,
            high: dec(h)?,
            low: dec(l)?,
            close: dec(c)?,
            volume: dec(v)?,
        });
    }
    Ok(out)
}

fn sort_unique(candles: &mut Vec<Candle>) {
    candles.sort_by_key(|c| c.open_time_ms);
    candles.dedup_by_key(|c| c.open_time_ms);
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: i64 = 60_000;

    fn at(ms: i64) -> Candle {
        let one = Decimal::ONE;
        Candle {
            open_time_ms: ms,
            open: one,
            high: one,
            low: one,
            close: one,
            volume: one,
        }
    }

    #[test]
    fn holes_are_runs_of_missing_open_times_inside_covered_time() {
        let series: Vec<Candle> = [0, 1, 2, 6, 7, 9].iter().map(|i| at(i * M)).collect();
        let found = holes(&series, Interval::M1, &[Span::new(0, 12 * M)]);
        assert_eq!(
            found,
            vec![
                Hole {
                    from_ms: 3 * M,
                    to_ms: 6 * M,
                    missing: 3
                },
                Hole {
                    from_ms: 8 * M,
                    to_ms: 9 * M,
                    missing: 1
                },
                Hole {
                    from_ms: 10 * M,
                    to_ms: 12 * M,
                    missing: 2
                },
            ]
        );
        // Time not covered is no hole: it was never asked for.
        assert!(holes(&series, Interval::M1, &[Span::new(0, 3 * M)]).is_empty());
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_parts_fold_into_months() {
        let dir = tempfile::tempdir().unwrap();
        let store = HistoryStore::new(dir.path());
        let key = SeriesKey {
            exchange: "binance".into(),
            symbol: Symbol::parse("BTCUSDT").unwrap(),
            interval: Interval::M1,
        };
        store.append(&key, &[at(0), at(M)]).unwrap();
        let part = store.dir(&key).join("1970-01.csv.part");
        let mut f = fs::OpenOptions::new().append(true).open(&part).unwrap();
        f.write_all(b"120000,1,1,").unwrap();
        assert_eq!(store.candles(&key).unwrap().len(), 2);
        store.append(&key, &[at(3 * M)]).unwrap();
        assert_eq!(store.candles(&key).unwrap().len(), 3);
        store.compress_parts(&key).unwrap();
        assert!(!part.exists());
        store.append(&key, &[at(M), at(2 * M)]).unwrap();
        let all = store.candles(&key).unwrap();
        let times: Vec<i64> = all.iter().map(|c| c.open_time_ms).collect();
        assert_eq!(times, vec![0, M, 2 * M, 3 * M]);
        store.compress_parts(&key).unwrap();
        assert_eq!(store.candles(&key).unwrap().len(), 4);
    }
}
