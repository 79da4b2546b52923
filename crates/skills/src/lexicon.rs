//! Lexicon files: the words the assistant's understanding uses, as data beside the skills.
//!
//! `skills/lexicon/<lang>.yaml` holds one language's words (the file header of `en.yaml` says
//! why one file per language). Each top-level key is a [`WordClass`]; its value is a list of
//! words, or for a valued class (ordinals, units, numerals) a list of `word: number`. This module only reads and
//! checks the files — every problem a [`Diagnostic`] at `file:line:col`, all of them at once,
//! like a skill file's — and hands the words, lower-cased and in file order, to the assistant,
//! which folds them into its one `Lexicon`. What a class means to the understanding is the
//! assistant's business; the class names are here so a typo in a file is caught by the lint.

use std::collections::BTreeMap;

use yaml_serde::Value;

use crate::error::{Diagnostic, DiagnosticKind, LoadError};
use crate::locate::YamlIndex;

/// The classes of words the understanding reads. One per job a word does in a message;
/// a word may be in several classes ("继续" confirms and resumes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WordClass {
    Confirm,
    Deny,
    Cancel,
    CancelAll,
    Reference,
    Ordinal,
    Resume,
    Defaults,
    OffPhrase,
    ErrorReport,
    Question,
    Negation,
    See,
    SecretNoun,
    RequestJoin,
    AndJoin,
    KeepAsIs,
    ToResource,
    FromResource,
    Except,
    ExceptEnd,
    ListSeparator,
    All,
    /// Takes back the request said before it ("actually no", "算了").
    Retraction,
    /// Asks for the change just made to be reversed ("change it back", "改回去"): with a change
    /// completed on the turn before, its inverse is offered for a yes.
    UndoRequest,
    /// Puts the request under a condition or later ("if …", "remind me", "明天").
    Condition,
    /// Reports someone else's request ("I was told to …").
    Reported,
    /// Complains that something fails ("keeps failing", "启动不了").
    Complaint,
    /// Takes up a fix the assistant just offered, as a yes would ("fix it", "帮我改一下"); only
    /// while an offer waits, and what it runs is confirmed as usual.
    AcceptOffer,
    /// Weighs a change rather than asks for it ("maybe I should …", "I think … should",
    /// "… needs to stop losing money", "我觉得 … 应该"): an opinion, not an order.
    Deliberation,
    /// Says to make a new one of whatever kind is named ("make me a", "spin up", "建个"):
    /// every create action's verbs, beside the ones its skill lists.
    CreateVerb,
    /// Right after a verb, joins it to a noun it describes ("删掉的交易员", the deleted trader):
    /// the verb says which one, not what to do.
    Attributive,
    /// Right before a value, says it is not the value meant ("不是币安", "instead of binance").
    NotValue,
    /// Right before a boolean's phrase, turns it off ("don't use", "不要", "disable").
    TurnOff,
    /// The turn-off words that reach over a name to the phrase ("禁用 main 的测试网").
    TurnOffVerb,
    /// Turns on the boolean phrase after it ("enable testnet on main", "开启").
    TurnOn,
    /// Right after a boolean's phrase, sets it false ("testnet false", "测试网 关").
    SetFalse,
    /// A few words after a boolean's phrase, sets it false ("testnet of main to false").
    SetFalseLater,
    /// Joins settings switched together ("disable RSI and MACD", "RSI、MACD").
    SettingJoin,
    /// Names a setting no slot holds ("stop loss", "止损"): a number after it is its own.
    OtherSetting,
    /// Before the value being replaced ("from 10x to 3x", "从 78").
    FromValue,
    /// Between the old value and the new ("from 10x to 3x", "从 78 调到 60").
    ToValue,
    /// After a yes, turns what follows into a change of what waits ("yes but 20", "可以，不过改成 20").
    Contrast,
    /// Asks which one, what or how much ("which", "多少"): with a name, a question about it, not a request.
    AsksWhich,
    /// Opens a question about how something stands or how it is done ("did alpha stop", "how do I start it").
    StatusOpener,
    /// Marks a question about how something stands, anywhere in the message ("启动了吗", "要不要停").
    StatusMarker,
    /// Puts a request as a question ("can you stop alpha?"): still a request.
    PoliteRequest,
    /// Opens a question about which resources exist ("what exchanges do I have").
    ExistsOpener,
    /// Asks which resources exist, anywhere in the message ("do I have", "我有哪些").
    ExistsMarker,
    /// Stands between a verb and its noun, or before a name, without changing what is meant
    /// ("create a trader", "rename my bot", "建一个交易员").
    Article,
    /// Sits next to a verb or a noun without naming anything ("stop the …", "激活我的策略").
    NotAName,
    /// Opens a question about how an action is done, right before its verb ("how do I add
    /// an exchange", "怎么创建策略"): answered with what it needs, never done.
    HowTo,
    /// Puts a resource as what another one uses, not what is acted on ("… on paper with
    /// builtin", "在 paper 上用 builtin"): a create said so makes the one that binds them.
    BindingLead,
    /// Picks a resource by comparing its data ("the worst bot", "亏得最多的"): the rules match names, they do not rank, so a model is asked.
    Ranking,
    /// Ends a message as a question ("…吗").
    QuestionParticle,
    /// Opens a question that asks for judgement or an explanation ("should I …", "为什么"): answered over the user's facts.
    OpenQuestionOpener,
    /// Asks for the cause of what happened ("why", "how come", "为什么"): asked of a change
    /// ("why did alpha stop?"), it is answered by the resource's diagnosis.
    CauseQuestion,
    /// Puts one resource in place of another's ("use ds for alpha", "move alpha to main", "alpha 改用 ds").
    RebindVerb,
    /// Opens a new value for the task in progress ("make it 4", "actually, 5x", "还是 4 吧"): what follows answers it.
    CorrectionLead,
    /// Beside a resource's noun, says which one rather than naming it ("the active strategy", "the same account").
    Descriptor,
    /// Ends a phrase only to soften it ("就叫 alpha 吧"): not part of the value before it.
    Softener,
    /// Ends a message that puts a new value for the task in progress ("4 instead").
    InsteadEnd,
    /// Stands between a setting's phrase and its value ("set to X", "name it X", "叫做 X"): the value comes after it.
    ValueLead,
    /// Between an old name and the new one ("rename a to b", "a 改成 b").
    RenameTo,
    /// Ends a name it follows ("alpha的日志"): the name stops before it.
    Possessive,
    /// A character that makes a Chinese word part of a sentence, not a name (pronouns, request verbs: "我想要", "帮我").
    SentenceChar,
    /// Names a coin list as a thing, not an action on coins ("the exclusions", "黑名单"): it picks the list wherever it stands in the clause.
    ListNoun,
    /// Right before a list's phrase, adds its coins to the list ("also exclude SHIB", "再排除 SHIB").
    ListAddBefore,
    /// Right after the coins, adds them to the list ("exclude SHIB too").
    ListAddAfter,
    /// Right before coins, adds them to the coins traded or to the list named after them ("add SOL to default", "把 SHIB 加入黑名单").
    ListAddVerb,
    /// Takes coins out of a list ("remove ETH", "stop excluding DOGE", "不再排除").
    ListRemove,
    /// Right before a list's phrase, makes the coins the whole list ("only exclude DOGE", "只排除 DOGE").
    ListOnly,
    /// Between a list's phrase and its new value, a few words on ("the coins of default to BTC", "币种改成 BTC").
    ListSetTo,
    /// Before a coin lead, says the coins after it are not traded ("don't trade DOGE", "不要交易 DOGE").
    NotTraded,
    /// Leads into the coins traded without naming the list ("trade BTC and SOL", "只做 BTC").
    CoinLead,
    /// Joins coins in a list ("BTC and SOL", "BTC 和 SOL").
    CoinJoin,
    /// After coins, ends their list ("BTC and SOL on 5m candles").
    CoinListEnd,
    /// Puts the thing acted on before the verb ("把 ETH 删掉"): what follows it is the object.
    ObjectMarker,
    /// Opens a bare answer without being part of it ("用 binance", "就叫 alpha").
    AnswerLead,
    /// Right before a verb, says what something is doing, not what to do ("在运行", "正在启动").
    Progressive,
    /// Ends like a progressive marker and is none ("现在启动" is a request: start it now).
    NotProgressive,
    /// A unit of time after a number, with how many minutes one is ("15 minutes", "1h", "两个小时").
    UnitMinutes,
    /// A multiple after a number: leverage ("10x", "10倍").
    UnitTimes,
    /// An amount of USDT after a number ("100u", "1000 USDT", "50刀").
    UnitUsdt,
    /// A percentage after a number ("90%", "50 percent").
    UnitPercent,
    /// A count after a number ("3个").
    UnitCount,
    /// Right after a figure, multiplies it ("10k", "1.5万"), with by how much.
    Multiplier,
    /// A digit said in words, with its value (one character each).
    NumeralDigit,
    /// A place word of a numeral in words, with its value ("十五", "三百"); the least may open a numeral ("十五"), a higher one may not.
    NumeralPlace,
    /// A group word of a numeral in words, with its value ("一百万", "三亿").
    NumeralGroup,
    /// A half, said as a numeral ("半小时").
    NumeralHalf,
    /// A unit that may follow a numeral said in words ("五分钟", "两倍"); each is a word of a unit class too. 分 alone is not one: 十分 means "very".
    NumeralUnit,
    /// Right before a number, makes it negative ("负100").
    Minus,
    /// A closed-class word that adds nothing to a request ("please", "now", "me", "先", "一下"):
    /// it is explained wherever it stands, so it never makes a reading unsure (see the
    /// assistant's coverage). A word that can change what is meant ("should", "if", "maybe",
    /// "not") belongs to its own class, never here.
    Filler,
    /// Says a message is the last request again on something else ("what about eth?", "以太坊
    /// 呢", "alpha too"): with only a name or a coin beside it, it re-runs that request.
    FollowUp,
    /// Of the follow-up words, the ones that add to a change rather than ask about it ("too",
    /// "also", "也"): a change is re-run on a new name only when one of these says so.
    FollowUpAdds,
    /// An ending that makes another form of a known word ("scanning" of "scan", "stopped" of
    /// "stop"): such a form is a known word too, for the coverage of a message.
    Inflection,
    /// Asks what a change would do or whether to make it, rather than asking for it ("what
    /// happens if", "should I", "会不会", "该不该"): answered from the action's effects, never
    /// done.
    Hypothetical,
    /// An exchange nofxi cannot trade on (Kraken, Coinbase, 火币): a request about one is
    /// answered with what nofxi can trade on, never read as another request.
    OtherVenue,
    /// A word between an amount's whole part and its tenths ("14块5" is 14.5 yuan).
    DecimalPoint,
    /// Asks for a symbol's order book rather than its price ("eth order book", "盘口",
    /// "买卖压力比"): the market-data skill's `get_order_book`.
    OrderBookWord,
    /// Asks for a symbol's candles rather than its price ("btc k线", "eth candles"): the
    /// market-data skill's `get_kline`.
    CandleWord,
    /// A candle interval said in one word, with how many minutes it is ("daily", "日线", "周线");
    /// an interval said as a number and a unit ("4小时", "1h") is read as a number.
    CandleInterval,
    /// A trader picked by its state, one of them: "the running one", "跑着的那个".
    RunningOne,
    /// Every running trader: "the running ones", "在跑的那些".
    RunningAll,
    /// "the stopped one", "停着的那个".
    StoppedOne,
    /// "the stopped ones", "停着的那些".
    StoppedAll,
}

impl WordClass {
    pub const ALL: [WordClass; 107] = [
        WordClass::Confirm,
        WordClass::Deny,
        WordClass::Cancel,
        WordClass::CancelAll,
        WordClass::Reference,
        WordClass::Ordinal,
        WordClass::Resume,
        WordClass::Defaults,
        WordClass::OffPhrase,
        WordClass::ErrorReport,
        WordClass::Question,
        WordClass::Negation,
        WordClass::See,
        WordClass::SecretNoun,
        WordClass::RequestJoin,
        WordClass::AndJoin,
        WordClass::KeepAsIs,
        WordClass::ToResource,
        WordClass::FromResource,
        WordClass::Except,
        WordClass::ExceptEnd,
        WordClass::ListSeparator,
        WordClass::All,
        WordClass::Retraction,
        WordClass::UndoRequest,
        WordClass::Condition,
        WordClass::Reported,
        WordClass::Complaint,
        WordClass::Deliberation,
        WordClass::AcceptOffer,
        WordClass::CreateVerb,
        WordClass::Attributive,
        WordClass::NotValue,
        WordClass::TurnOff,
        WordClass::TurnOffVerb,
        WordClass::TurnOn,
        WordClass::SetFalse,
        WordClass::SetFalseLater,
        WordClass::SettingJoin,
        WordClass::OtherSetting,
        WordClass::FromValue,
        WordClass::ToValue,
        WordClass::Contrast,
        WordClass::AsksWhich,
        WordClass::StatusOpener,
        WordClass::StatusMarker,
        WordClass::PoliteRequest,
        WordClass::ExistsOpener,
        WordClass::ExistsMarker,
        WordClass::Article,
        WordClass::NotAName,
        WordClass::BindingLead,
        WordClass::HowTo,
        WordClass::Ranking,
        WordClass::QuestionParticle,
        WordClass::OpenQuestionOpener,
        WordClass::CauseQuestion,
        WordClass::RebindVerb,
        WordClass::CorrectionLead,
        WordClass::Descriptor,
        WordClass::Softener,
        WordClass::InsteadEnd,
        WordClass::ValueLead,
        WordClass::RenameTo,
        WordClass::Possessive,
        WordClass::SentenceChar,
        WordClass::ListNoun,
        WordClass::ListAddBefore,
        WordClass::ListAddAfter,
        WordClass::ListAddVerb,
        WordClass::ListRemove,
        WordClass::ListOnly,
        WordClass::ListSetTo,
        WordClass::NotTraded,
        WordClass::CoinLead,
        WordClass::CoinJoin,
        WordClass::CoinListEnd,
        WordClass::ObjectMarker,
        WordClass::AnswerLead,
        WordClass::Progressive,
        WordClass::NotProgressive,
        WordClass::UnitMinutes,
        WordClass::UnitTimes,
        WordClass::UnitUsdt,
        WordClass::UnitPercent,
        WordClass::UnitCount,
        WordClass::Multiplier,
        WordClass::NumeralDigit,
        WordClass::NumeralPlace,
        WordClass::NumeralGroup,
        WordClass::NumeralHalf,
        WordClass::NumeralUnit,
        WordClass::Minus,
        WordClass::Filler,
        WordClass::FollowUp,
        WordClass::FollowUpAdds,
        WordClass::Inflection,
        WordClass::Hypothetical,
        WordClass::OtherVenue,
        WordClass::DecimalPoint,
        WordClass::OrderBookWord,
        WordClass::CandleWord,
        WordClass::CandleInterval,
        WordClass::RunningOne,
        WordClass::RunningAll,
        WordClass::StoppedOne,
        WordClass::StoppedAll,
    ];

    /// The class's key in a lexicon file.
    pub fn name(self) -> &'static str {
        match self {
            WordClass::Confirm => "confirm",
            WordClass::Deny => "deny",
            WordClass::Cancel => "cancel",
            WordClass::CancelAll => "cancel_all",
            WordClass::Reference => "reference",
            WordClass::Ordinal => "ordinal",
            WordClass::Resume => "resume",
            WordClass::Defaults => "defaults",
            WordClass::OffPhrase => "off_phrase",
            WordClass::ErrorReport => "error_report",
            WordClass::Question => "question",
            WordClass::Negation => "negation",
            WordClass::See => "see",
            WordClass::SecretNoun => "secret_noun",
            WordClass::RequestJoin => "request_join",
            WordClass::AndJoin => "and_join",
            WordClass::KeepAsIs => "keep_as_is",
            WordClass::ToResource => "to_resource",
            WordClass::FromResource => "from_resource",
            WordClass::Except => "except",
            WordClass::ExceptEnd => "except_end",
            WordClass::ListSeparator => "list_separator",
            WordClass::All => "all",
            WordClass::Retraction => "retraction",
            WordClass::UndoRequest => "undo_request",
            WordClass::Condition => "condition",
            WordClass::Reported => "reported",
            WordClass::Complaint => "complaint",
            WordClass::Deliberation => "deliberation",
            WordClass::AcceptOffer => "accept_offer",
            WordClass::CreateVerb => "create_verb",
            WordClass::Attributive => "attributive",
            WordClass::NotValue => "not_value",
            WordClass::TurnOff => "turn_off",
            WordClass::TurnOffVerb => "turn_off_verb",
            WordClass::TurnOn => "turn_on",
            WordClass::SetFalse => "set_false",
            WordClass::SetFalseLater => "set_false_later",
            WordClass::SettingJoin => "setting_join",
            WordClass::OtherSetting => "other_setting",
            WordClass::FromValue => "from_value",
            WordClass::ToValue => "to_value",
            WordClass::Contrast => "contrast",
            WordClass::AsksWhich => "asks_which",
            WordClass::StatusOpener => "status_opener",
            WordClass::StatusMarker => "status_marker",
            WordClass::PoliteRequest => "polite_request",
            WordClass::ExistsOpener => "exists_opener",
            WordClass::ExistsMarker => "exists_marker",
            WordClass::Article => "article",
            WordClass::NotAName => "not_a_name",
            WordClass::BindingLead => "binding_lead",
            WordClass::HowTo => "how_to",
            WordClass::Ranking => "ranking",
            WordClass::QuestionParticle => "question_particle",
            WordClass::OpenQuestionOpener => "open_question_opener",
            WordClass::CauseQuestion => "cause_question",
            WordClass::RebindVerb => "rebind_verb",
            WordClass::CorrectionLead => "correction_lead",
            WordClass::Descriptor => "descriptor",
            WordClass::Softener => "softener",
            WordClass::InsteadEnd => "instead_end",
            WordClass::ValueLead => "value_lead",
            WordClass::RenameTo => "rename_to",
            WordClass::Possessive => "possessive",
            WordClass::SentenceChar => "sentence_char",
            WordClass::ListNoun => "list_noun",
            WordClass::ListAddBefore => "list_add_before",
            WordClass::ListAddAfter => "list_add_after",
            WordClass::ListAddVerb => "list_add_verb",
            WordClass::ListRemove => "list_remove",
            WordClass::ListOnly => "list_only",
            WordClass::ListSetTo => "list_set_to",
            WordClass::NotTraded => "not_traded",
            WordClass::CoinLead => "coin_lead",
            WordClass::CoinJoin => "coin_join",
            WordClass::CoinListEnd => "coin_list_end",
            WordClass::ObjectMarker => "object_marker",
            WordClass::AnswerLead => "answer_lead",
            WordClass::Progressive => "progressive",
            WordClass::NotProgressive => "not_progressive",
            WordClass::UnitMinutes => "unit_minutes",
            WordClass::UnitTimes => "unit_times",
            WordClass::UnitUsdt => "unit_usdt",
            WordClass::UnitPercent => "unit_percent",
            WordClass::UnitCount => "unit_count",
            WordClass::Multiplier => "multiplier",
            WordClass::NumeralDigit => "numeral_digit",
            WordClass::NumeralPlace => "numeral_place",
            WordClass::NumeralGroup => "numeral_group",
            WordClass::NumeralHalf => "numeral_half",
            WordClass::NumeralUnit => "numeral_unit",
            WordClass::Minus => "minus",
            WordClass::Filler => "filler",
            WordClass::FollowUp => "follow_up",
            WordClass::FollowUpAdds => "follow_up_adds",
            WordClass::Inflection => "inflection",
            WordClass::Hypothetical => "hypothetical",
            WordClass::OtherVenue => "other_venue",
            WordClass::DecimalPoint => "decimal_point",
            WordClass::OrderBookWord => "order_book_word",
            WordClass::CandleWord => "candle_word",
            WordClass::CandleInterval => "candle_interval",
            WordClass::RunningOne => "running_one",
            WordClass::RunningAll => "running_all",
            WordClass::StoppedOne => "stopped_one",
            WordClass::StoppedAll => "stopped_all",
        }
    }

    pub fn parse(name: &str) -> Option<WordClass> {
        WordClass::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Whether the class's items carry a number (`word: 2`) rather than being bare words:
    /// an ordinal's position, how many minutes a time unit is, a numeral's value.
    fn valued(self) -> bool {
        matches!(
            self,
            WordClass::Ordinal
                | WordClass::UnitMinutes
                | WordClass::Multiplier
                | WordClass::NumeralDigit
                | WordClass::NumeralPlace
                | WordClass::NumeralGroup
                | WordClass::CandleInterval
        )
    }

    /// The smallest number an item of the class may carry: positions count from 1, a
    /// numeral digit may be 0.
    fn least_value(self) -> u64 {
        u64::from(self != WordClass::NumeralDigit)
    }
}

/// One word of a class: its text, lower-cased, and for a valued class its number (an
/// ordinal's 1-based position, a time unit's minutes, a numeral's value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub value: Option<u64>,
}

/// The words of one or more lexicon files, by class, each class in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Words {
    classes: BTreeMap<WordClass, Vec<Word>>,
}

impl Words {
    /// The words of `class`, in the order the files list them.
    pub fn of(&self, class: WordClass) -> &[Word] {
        self.classes.get(&class).map_or(&[], Vec::as_slice)
    }

    /// `other`'s words after this one's; a word already in a class is not added again.
    pub fn extend(&mut self, other: Words) {
        for (class, words) in other.classes {
            let mine = self.classes.entry(class).or_default();
            for w in words {
                if !mine.iter().any(|m| m.text == w.text) {
                    mine.push(w);
                }
            }
        }
    }

    /// How many words in all classes.
    pub fn len(&self) -> usize {
        self.classes.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Parse one lexicon file; `file` is the path diagnostics name.
pub fn parse_lexicon(source: &str, file: &str) -> Result<Words, LoadError> {
    let index = YamlIndex::build(source);
    let at = |path: &str| index.locate(path).unwrap_or((1, 1));
    let diag = |path: &str, kind: DiagnosticKind, message: String| {
        let (line, column) = at(path);
        Diagnostic {
            file: file.to_string(),
            line,
            column,
            kind,
            message,
        }
    };
    let root: Value = match yaml_serde::from_str(source) {
        Ok(v) => v,
        Err(e) => {
            let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
            return Err(LoadError {
                diagnostics: vec![Diagnostic {
                    file: file.to_string(),
                    line,
                    column,
                    kind: DiagnosticKind::YamlSyntax,
                    message: e.to_string(),
                }],
            });
        }
    };
    let mut words = Words::default();
    let mut diagnostics = Vec::new();
    let Value::Mapping(map) = root else {
        // An empty file is an empty lexicon; anything else but a map is a mistake.
        if root.is_null() {
            return Ok(words);
        }
        return Err(LoadError {
            diagnostics: vec![diag(
                "",
                DiagnosticKind::WrongType,
                "a lexicon file is a map of word classes to lists of words".into(),
            )],
        });
    };
    for (key, value) in map {
        let Some(name) = key.as_str() else {
            diagnostics.push(diag(
                "",
                DiagnosticKind::WrongType,
                "a word class is named by a string".into(),
            ));
            continue;
        };
        let Some(class) = WordClass::parse(name) else {
            diagnostics.push(diag(
                name,
                DiagnosticKind::UnknownClass,
                unknown_class(name),
            ));
            continue;
        };
        let Value::Sequence(items) = value else {
            diagnostics.push(diag(
                name,
                DiagnosticKind::WrongType,
                format!("`{name}` must be a list of words"),
            ));
            continue;
        };
        let list = words.classes.entry(class).or_default();
        for (i, item) in items.iter().enumerate() {
            let path = format!("{name}[{i}]");
            match read_word(class, item) {
                Err(problem) => diagnostics.push(diag(&path, problem.0, problem.1)),
                Ok(word) if list.iter().any(|w| w.text == word.text) => diagnostics.push(diag(
                    &path,
                    DiagnosticKind::Duplicate,
                    format!("`{}` is already a word of `{name}`; remove one", word.text),
                )),
                Ok(word) => list.push(word),
            }
        }
    }
    if diagnostics.is_empty() {
        Ok(words)
    } else {
        Err(LoadError { diagnostics })
    }
}

fn unknown_class(name: &str) -> String {
    let known: Vec<&str> = WordClass::ALL.iter().map(|c| c.name()).collect();
    format!(
        "unknown word class `{name}`; expected one of: {}",
        known.join(", ")
    )
}

/// One list item as a word of `class`, or what is wrong with it.
fn read_word(class: WordClass, item: &Value) -> Result<Word, (DiagnosticKind, String)> {
    let name = class.name();
    let (text, value) = match (class.valued(), item) {
        (false, Value::String(s)) => (s.as_str(), None),
        (false, _) => {
            return Err((
                DiagnosticKind::WrongType,
                format!("a word of `{name}` is a string; quote it (\"no\", \"?\")"),
            ));
        }
        (true, Value::Mapping(m)) if m.len() == 1 => {
            let shape = || valued_shape(class);
            let (k, v) = m.iter().next().ok_or_else(shape)?;
            let text = k.as_str().ok_or_else(shape)?;
            let value = v
                .as_u64()
                .filter(|p| *p >= class.least_value())
                .ok_or_else(shape)?;
            (text, Some(value))
        }
        (true, _) => return Err(valued_shape(class)),
    };
    if text.trim().is_empty() {
        return Err((
            DiagnosticKind::EmptyWord,
            format!("an empty word in `{name}` would match every message; remove it"),
        ));
    }
    Ok(Word {
        text: text.to_lowercase(),
        value,
    })
}

fn valued_shape(class: WordClass) -> (DiagnosticKind, String) {
    let name = class.name();
    let least = class.least_value();
    (
        DiagnosticKind::WrongType,
        format!(
            "an item of `{name}` is `word: number`, a whole number from {least} (`the second: 2`)"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(source: &str) -> Vec<String> {
        match parse_lexicon(source, "lexicon/en.yaml") {
            Ok(_) => Vec::new(),
            Err(e) => e.diagnostics.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn words_are_read_by_class_lower_cased_in_order() {
        let words = parse_lexicon(
            "confirm:\n  - Yes\n  - go ahead\nordinal:\n  - the second: 2\n",
            "en.yaml",
        )
        .unwrap();
        let texts: Vec<&str> = words
            .of(WordClass::Confirm)
            .iter()
            .map(|w| w.text.as_str())
            .collect();
        assert_eq!(texts, ["yes", "go ahead"]);
        assert_eq!(
            words.of(WordClass::Ordinal),
            [Word {
                text: "the second".into(),
                value: Some(2)
            }]
        );
        assert!(words.of(WordClass::Deny).is_empty());
    }

    #[test]
    fn an_unknown_class_is_named_at_its_line() {
        let found = problems("confirm:\n  - yes\nconfirmm:\n  - ok\n");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with(
                "lexicon/en.yaml:3:1: unknown_class: unknown word class `confirmm`; expected one of: confirm, deny,"
            ),
            "{found:?}"
        );
        // Every class is offered, so the message never goes stale as classes are added.
        for class in WordClass::ALL {
            assert!(found[0].contains(class.name()), "{found:?}");
        }
    }

    #[test]
    fn a_duplicate_word_is_found_after_lower_casing() {
        assert_eq!(
            problems("deny:\n  - no\n  - nope\n  - NO\n"),
            ["lexicon/en.yaml:4:3: duplicate: `no` is already a word of `deny`; remove one"]
        );
    }

    #[test]
    fn an_empty_word_and_a_bad_ordinal_are_each_reported() {
        assert_eq!(
            problems("cancel:\n  - \"  \"\nordinal:\n  - first\n  - the second: 0\n"),
            [
                "lexicon/en.yaml:2:3: empty_word: an empty word in `cancel` would match every message; remove it",
                "lexicon/en.yaml:4:3: wrong_type: an item of `ordinal` is `word: number`, a whole number from 1 (`the second: 2`)",
                "lexicon/en.yaml:5:3: wrong_type: an item of `ordinal` is `word: number`, a whole number from 1 (`the second: 2`)",
            ]
        );
    }

    #[test]
    fn a_class_that_is_no_list_and_a_word_that_is_no_string() {
        assert_eq!(
            problems("question: what\nnegation:\n  - [not]\n"),
            [
                "lexicon/en.yaml:1:1: wrong_type: `question` must be a list of words",
                "lexicon/en.yaml:3:3: wrong_type: a word of `negation` is a string; quote it (\"no\", \"?\")",
            ]
        );
    }

    #[test]
    fn yaml_syntax_errors_carry_their_position() {
        let found = problems("confirm:\n  - yes\n - no\n");
        assert_eq!(found.len(), 1);
        assert!(found[0].starts_with("lexicon/en.yaml:3:"), "{found:?}");
        assert!(found[0].contains("yaml_syntax"), "{found:?}");
    }

    #[test]
    fn extending_keeps_order_and_skips_words_already_there() {
        let mut a = parse_lexicon("confirm: [ok, sure]\n", "en.yaml").unwrap();
        let b = parse_lexicon("confirm: [好, ok]\n", "zh.yaml").unwrap();
        a.extend(b);
        let texts: Vec<&str> = a
            .of(WordClass::Confirm)
            .iter()
            .map(|w| w.text.as_str())
            .collect();
        assert_eq!(texts, ["ok", "sure", "好"]);
        assert_eq!(a.len(), 3);
    }
}
