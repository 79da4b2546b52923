//! The YAML format of conversation test files, and its loader.
//!
//! A file holds a `setup` (resources created before every case) and `cases`, each a list of
//! `steps`: one user message and the assertions on the turn it produces. Every struct denies
//! unknown fields, and the loader reads each case and each step on its own, so a misspelt
//! assertion is an error that names the file, the case and the step — never a silently
//! skipped check.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::EvalError;

/// One file of cases.
#[derive(Debug, Clone)]
pub struct SuiteFile {
    pub path: PathBuf,
    pub setup: Vec<SetupItem>,
    pub cases: Vec<Case>,
}

#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    /// Added after the file's setup.
    pub setup: Vec<SetupItem>,
    pub steps: Vec<Step>,
}

/// One user turn and what must hold after it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub user: String,
    /// Reopen the engine on the same store before this message, as after a process restart.
    #[serde(default)]
    pub restart: bool,
    #[serde(default)]
    pub expect: Expect,
}

/// The assertions of one step; every field is optional and each one given is checked.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// `skill.action` of a task started in this turn.
    pub task_started: Option<String>,
    pub task_completed: Option<TaskMatch>,
    pub task_cancelled: Option<TaskMatch>,
    pub task_interrupted: Option<TaskMatch>,
    pub task_resumed: Option<TaskMatch>,
    pub task_failed: Option<TaskMatch>,
    /// Slots that must be among those asked in this turn.
    pub asked: Option<Vec<String>>,
    /// Slots that must not be asked in this turn.
    pub not_asked: Option<Vec<String>>,
    /// Slot values set in this turn (`slot_set` events).
    pub slot_set: Option<BTreeMap<String, serde_json::Value>>,
    /// Whether a confirmation was requested in this turn.
    pub confirmation_requested: Option<bool>,
    /// Tools that ran successfully in this turn.
    pub executed: Option<Vec<String>>,
    /// Tools that did not run at all in this turn (neither successfully nor failing).
    pub not_executed: Option<Vec<String>>,
    /// Options a clarification in this turn must include (each a substring of one option).
    pub clarification: Option<Vec<String>>,
    pub answered: Option<String>,
    pub reply_contains: Option<OneOrMany>,
    pub reply_not_contains: Option<OneOrMany>,
    /// `skill.action` of the active task after the turn, or `empty`.
    pub stack_top: Option<String>,
    pub llm_calls_max: Option<u32>,
    /// Checks on stored resources after the turn.
    pub state: Option<Vec<StateCheck>>,
}

/// `true`/`false` (any task / none), or the `skill.action` of the task it must be about.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum TaskMatch {
    Any(bool),
    Task(String),
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    pub fn items(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(s) => vec![s.as_str()],
            OneOrMany::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// A check on one stored resource, named by its kind key: `{trader: btc-bot, is_running: true}`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateCheck {
    pub trader: Option<String>,
    pub exchange: Option<String>,
    pub model: Option<String>,
    pub strategy: Option<String>,
    /// Live (not in the trash).
    pub exists: Option<bool>,
    /// In the trash.
    pub deleted: Option<bool>,
    pub enabled: Option<bool>,
    pub is_running: Option<bool>,
    /// A strategy is the active one.
    pub active: Option<bool>,
    /// Field values: a top-level field of the resource, a dotted path, or a key found once
    /// anywhere inside it (`btc_eth_max_leverage`). For traders, `exchange`, `model` and
    /// `strategy` are the names of the bound resources.
    #[serde(default)]
    pub fields: BTreeMap<String, serde_json::Value>,
}

/// A resource created through the store before a case runs.
#[derive(Debug, Clone)]
pub enum SetupItem {
    Exchange(ExchangeSetup),
    Model(ModelSetup),
    Strategy(StrategySetup),
    Trader(TraderSetup),
    Portfolio(PortfolioSetup),
    Journal(JournalSetup),
}

/// A setup item as written: a one-key map (`exchange: {...}`). yaml_serde reads externally
/// tagged enums only from YAML tags, so the key is read as one of four optional fields.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSetupItem {
    exchange: Option<ExchangeSetup>,
    model: Option<ModelSetup>,
    strategy: Option<StrategySetup>,
    trader: Option<TraderSetup>,
    portfolio: Option<PortfolioSetup>,
    journal: Option<JournalSetup>,
}

impl RawSetupItem {
    fn into_item(self) -> Result<SetupItem, String> {
        let mut items = Vec::new();
        items.extend(self.exchange.map(SetupItem::Exchange));
        items.extend(self.model.map(SetupItem::Model));
        items.extend(self.strategy.map(SetupItem::Strategy));
        items.extend(self.trader.map(SetupItem::Trader));
        items.extend(self.portfolio.map(SetupItem::Portfolio));
        items.extend(self.journal.map(SetupItem::Journal));
        match (items.pop(), items.is_empty()) {
            (Some(item), true) => Ok(item),
            _ => Err(
                "a setup item is exactly one of exchange, model, strategy, trader, portfolio, journal"
                    .into(),
            ),
        }
    }
}

/// Cycles in a trader's journal, as an engine that ran it would have saved them: `cycles`
/// of them, one per scan interval, the newest starting now, each the engine's record shape
/// with `cycle` merged over it (`{refused: [...]}`, `{error: "..."}`). An engine beat is
/// recorded too (unless `engine: false`): the engine that wrote the journal is running.
/// `stop` is the stop that engine recorded for a trader it stopped.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalSetup {
    pub trader: String,
    #[serde(default = "ten")]
    pub cycles: u64,
    #[serde(default)]
    pub cycle: Option<serde_json::Value>,
    /// Merged over one cycle after `cycle`, by its number (`{3: {positions_after: []}}`).
    #[serde(default)]
    pub at: BTreeMap<u64, serde_json::Value>,
    #[serde(default = "yes")]
    pub engine: bool,
    #[serde(default)]
    pub stop: Option<StopSetup>,
}

/// Why the engine stopped a trader, as its status document says (`{reason: error, detail: …}`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopSetup {
    pub reason: nofxi_trader::runtime::status::StopReason,
    #[serde(default)]
    pub detail: Option<String>,
}

fn ten() -> u64 {
    10
}

/// A personal portfolio with accounts in its base currency, and its records as the text of
/// a broker CSV, imported the way `nofxi portfolio import` does it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortfolioSetup {
    pub name: String,
    #[serde(default = "cny")]
    pub base: String,
    #[serde(default = "fifo")]
    pub method: String,
    /// `NAME` (in the base currency) or `NAME:CURRENCY`.
    #[serde(default = "main_account")]
    pub accounts: Vec<String>,
    #[serde(default)]
    pub csv: String,
}

fn cny() -> String {
    "CNY".into()
}
fn fifo() -> String {
    "fifo".into()
}
fn main_account() -> Vec<String> {
    vec!["main".into()]
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExchangeSetup {
    #[serde(rename = "type")]
    pub exchange_type: String,
    pub name: String,
    #[serde(default = "yes")]
    pub enabled: bool,
    #[serde(default)]
    pub testnet: bool,
    #[serde(default)]
    pub deleted: bool,
    pub api_key: Option<String>,
    pub secret_key: Option<String>,
    pub passphrase: Option<String>,
    pub wallet_addr: Option<String>,
    pub user: Option<String>,
    pub signer: Option<String>,
    pub private_key: Option<String>,
    pub api_key_private_key: Option<String>,
    pub api_key_index: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelSetup {
    pub provider: String,
    pub name: String,
    pub api_key: Option<String>,
    pub base_url: Option<String>,
    pub model_name: Option<String>,
    #[serde(default = "yes")]
    pub enabled: bool,
    #[serde(default)]
    pub deleted: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategySetup {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub active: bool,
    #[serde(default)]
    pub deleted: bool,
    /// Merged over the default config (`{risk_control: {btc_eth_max_leverage: 5}}`).
    pub config: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraderSetup {
    pub name: String,
    pub exchange: String,
    pub model: String,
    pub strategy: String,
    #[serde(default = "thousand")]
    pub initial_balance: rust_decimal::Decimal,
    #[serde(default = "five")]
    pub scan_interval_minutes: i64,
    #[serde(default = "yes")]
    pub is_cross_margin: bool,
    #[serde(default)]
    pub running: bool,
    #[serde(default)]
    pub deleted: bool,
}

fn yes() -> bool {
    true
}
fn five() -> i64 {
    5
}
fn thousand() -> rust_decimal::Decimal {
    rust_decimal::Decimal::from(1000)
}

/// The file as first read: cases and steps stay raw so each is decoded with its own context.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    setup: Vec<yaml_serde::Value>,
    #[serde(default)]
    cases: Vec<RawCase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    name: String,
    #[serde(default)]
    setup: Vec<yaml_serde::Value>,
    #[serde(default)]
    steps: Vec<yaml_serde::Value>,
}

/// Reads and decodes one file; every problem names the file, and the case and step it is in.
pub fn load_file(path: &Path) -> Result<SuiteFile, EvalError> {
    let text = std::fs::read_to_string(path).map_err(|source| EvalError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse_file(path, &text)
}

pub fn parse_file(path: &Path, text: &str) -> Result<SuiteFile, EvalError> {
    let format = |place: String, message: String| EvalError::Format {
        path: path.to_path_buf(),
        place,
        message,
    };
    let raw: RawFile =
        yaml_serde::from_str(text).map_err(|e| format("file".into(), e.to_string()))?;
    let setup = decode_setup(&raw.setup, "setup").map_err(|(p, m)| format(p, m))?;
    let mut cases = Vec::with_capacity(raw.cases.len());
    for (i, case) in raw.cases.into_iter().enumerate() {
        let place = format!("case {} \"{}\"", i + 1, case.name);
        if case.steps.is_empty() {
            return Err(format(place, "a case needs at least one step".into()));
        }
        let setup =
            decode_setup(&case.setup, &format!("{place} setup")).map_err(|(p, m)| format(p, m))?;
        let mut steps = Vec::with_capacity(case.steps.len());
        for (j, step) in case.steps.into_iter().enumerate() {
            let step: Step = yaml_serde::from_value(step)
                .map_err(|e| format(format!("{place} step {}", j + 1), e.to_string()))?;
            steps.push(step);
        }
        cases.push(Case {
            name: case.name,
            setup,
            steps,
        });
    }
    Ok(SuiteFile {
        path: path.to_path_buf(),
        setup,
        cases,
    })
}

fn decode_setup(
    items: &[yaml_serde::Value],
    place: &str,
) -> Result<Vec<SetupItem>, (String, String)> {
    items
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let at = || format!("{place} item {}", k + 1);
            yaml_serde::from_value::<RawSetupItem>(v.clone())
                .map_err(|e| (at(), e.to_string()))?
                .into_item()
                .map_err(|e| (at(), e))
        })
        .collect()
}

/// The `.yaml`/`.yml` files a path names: the file itself, or the files directly inside a
/// directory (not its subdirectories, so `pending/` beside the suite is never run with it).
pub fn collect_files(path: &Path) -> Result<Vec<PathBuf>, EvalError> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries = std::fs::read_dir(path).map_err(|source| EvalError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| EvalError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let p = entry.path();
        let yaml = matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
        if p.is_file() && yaml {
            files.push(p);
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn unknown_assertion_names_file_case_and_step() {
        let text = "cases:\n  - name: one\n    steps:\n      - user: hi\n      - user: hello\n        expect: {asked_for: [model]}\n";
        let err = parse_file(Path::new("x.yaml"), text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("x.yaml"), "{err}");
        assert!(err.contains("case 1 \"one\""), "{err}");
        assert!(err.contains("step 2"), "{err}");
        assert!(err.contains("asked_for"), "{err}");
    }

    #[test]
    fn unknown_setup_key_is_an_error() {
        let text = "setup:\n  - exchange: {type: paper, name: p, colour: red}\ncases: []\n";
        let err = parse_file(Path::new("x.yaml"), text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("setup item 1"), "{err}");
        assert!(err.contains("colour"), "{err}");
    }

    #[test]
    fn the_issue_example_parses() {
        let text = r#"
setup:
  - exchange: {type: binance, name: 主账户, api_key: "ak-123456789", secret_key: "sk-abcdefgh"}
cases:
  - name: create trader asks only what is missing
    steps:
      - user: 帮我创建一个 BTC 交易员
        expect:
          task_started: trader_management.create
          asked: [model]
          not_executed: [trader.create]
      - user: 用 DeepSeek
        expect: {slot_set: {model: DeepSeek}, confirmation_requested: false}
"#;
        let file = parse_file(Path::new("x.yaml"), text).unwrap();
        assert_eq!(file.setup.len(), 1);
        assert_eq!(file.cases[0].steps.len(), 2);
        assert_eq!(
            file.cases[0].steps[1].expect.confirmation_requested,
            Some(false)
        );
    }

    #[test]
    fn a_case_without_steps_is_refused() {
        let text = "cases:\n  - name: empty\n    steps: []\n";
        assert!(parse_file(Path::new("x.yaml"), text).is_err());
    }
}
