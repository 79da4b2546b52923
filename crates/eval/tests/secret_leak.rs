//! A secret typed in a message appears nowhere afterwards: not in any reply, event or task view,
//! not in the stored conversation or traces, not in the logs, and not in the database file or
//! its WAL outside the vault (which holds it encrypted). The test first proves the secrets were
//! really stored, so it cannot pass by the engine simply ignoring them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::sync::{Arc, Mutex};

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::CredentialField;
use nofxi_eval::{EVAL_USER, FreshHome};
use nofxi_protocol::{Channel, TurnRequest};
use nofxi_skills::Library;

const API_KEY: &str = "AKIAZ7QLEAKTEST4821";
const SECRET_KEY: &str = "SKsecretLEAK93kd02mfq7";
const MODEL_KEY: &str = "sk-leakmodel-5566778899";

/// Every log line the test binary writes, at every level.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The parts of each secret that must never show: the whole, and its middle (masks keep only
/// a few characters at the ends).
fn needles() -> Vec<String> {
    [API_KEY, SECRET_KEY, MODEL_KEY]
        .iter()
        .flat_map(|s| [s.to_string(), s[4..s.len() - 4].to_string()])
        .collect()
}

fn assert_clean(what: &str, text: &str) {
    for needle in needles() {
        assert!(!text.contains(&needle), "{what} holds {needle:?}:\n{text}");
    }
}

/// The log capture of this test binary, installed once for all its tests.
fn logs() -> Captured {
    static LOGS: std::sync::OnceLock<Captured> = std::sync::OnceLock::new();
    LOGS.get_or_init(|| {
        let logs = Captured::default();
        let writer = logs.clone();
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .init();
        logs
    })
    .clone()
}

/// A fresh home and the assistant on it.
async fn fresh() -> (FreshHome, Assistant) {
    let home = FreshHome::create().await.unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(home.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    (home, assistant)
}

/// A client of one conversation: its id and the confirmation it was shown last.
#[derive(Default)]
struct Client {
    conversation: Option<String>,
    seen: Option<String>,
}

/// One turn of the client's conversation (started by the first).
async fn say(
    assistant: &Assistant,
    client: &mut Client,
    message: String,
) -> nofxi_protocol::TurnResponse {
    let response = assistant
        .turn(TurnRequest {
            conversation_id: client.conversation.clone(),
            user: EVAL_USER.into(),
            message,
            channel: Channel::Chat,
            seen_confirmation: client.seen.clone(),
            received_bytes: None,
        })
        .await
        .unwrap();
    client.conversation = Some(response.conversation_id.clone());
    if let Some(b) = response.confirmation_binding() {
        client.seen = Some(b.to_string());
    }
    response
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_secret_appears_nowhere_afterwards() {
    let logs = logs();

    let (home, assistant) = fresh().await;
    let messages = [
        format!(
            "帮我添加一个币安账户，名字叫 泄漏测试，api key 是 {API_KEY}，secret 是 {SECRET_KEY}"
        ),
        "我配置了哪些交易所？".to_string(),
        "泄漏测试的配置是什么样的".to_string(),
        format!("帮我配一个 DeepSeek 模型，名字叫 ds-leak，key 是 {MODEL_KEY}"),
        "list my models".to_string(),
        format!("why does binance say invalid signature for {SECRET_KEY}"),
    ];
    let mut client = Client::default();
    let mut seen = String::new();
    for message in messages {
        let response = say(&assistant, &mut client, message).await;
        println!("> {}", response.reply);
        assert_clean("a reply", &response.reply);
        let wire = serde_json::to_string(&response).unwrap();
        assert_clean("a turn response (events, stack)", &wire);
        seen.push_str(&wire);
    }

    // The secrets were stored (in the vault), so the checks above were not vacuous.
    let (_, credentials) = home
        .store
        .credentials_for_signing(EVAL_USER, "泄漏测试")
        .await
        .expect("the exchange account was created from the message");
    assert_eq!(
        credentials.get(CredentialField::ApiKey).map(|s| s.expose()),
        Some(API_KEY)
    );
    assert_eq!(
        credentials
            .get(CredentialField::SecretKey)
            .map(|s| s.expose()),
        Some(SECRET_KEY)
    );
    let model = home.store.get_model(EVAL_USER, "ds-leak").await.unwrap();
    let key = home
        .store
        .model_api_key(EVAL_USER, &model.id)
        .await
        .unwrap();
    assert_eq!(key.as_ref().map(|k| k.expose()), Some(MODEL_KEY));

    // Stored conversation and traces.
    let id = client.conversation.unwrap();
    let conversation = home
        .store
        .get_conversation(EVAL_USER, &id)
        .await
        .unwrap()
        .unwrap();
    assert_clean("the stored conversation", &conversation.state.to_string());
    let traces = home
        .store
        .list_traces(EVAL_USER, Some(&id), 100)
        .await
        .unwrap();
    assert_eq!(traces.len(), 6, "one trace per turn");
    for trace in &traces {
        assert_clean("a trace message", &trace.message);
        assert_clean("a trace record", &trace.record.to_string());
    }

    // Logs.
    let logged = String::from_utf8_lossy(&logs.0.lock().unwrap()).into_owned();
    assert_clean("the logs", &logged);

    // The raw bytes of the database and its WAL: the vault's ciphertext is all there is.
    home.store.close().await;
    for file in [
        home.database_file.clone(),
        home.database_file.with_extension("db-wal"),
    ] {
        if let Ok(bytes) = std::fs::read(&file) {
            for needle in needles() {
                let hit = bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
                assert!(!hit, "{} holds {needle:?} in clear", file.display());
            }
        }
    }
}

/// The brief's own phrasing ("加一个" is not an exchange verb in the skill file): whether or not
/// the engine understands the request, the key and secret it carries must not be echoed,
/// stored in the conversation or traces, or written to the database in clear.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_in_a_message_the_rules_misroute_still_leaks_nowhere() {
    let logs = logs();
    let (home, assistant) = fresh().await;
    let response = assistant
        .turn(TurnRequest {
            conversation_id: None,
            user: EVAL_USER.into(),
            message: format!("帮我加一个币安账户 api key {API_KEY} secret {SECRET_KEY}"),
            channel: Channel::Chat,
            seen_confirmation: None,
            received_bytes: None,
        })
        .await
        .unwrap();
    assert_clean("the reply", &response.reply);
    assert_clean("the turn", &serde_json::to_string(&response).unwrap());
    let id = response.conversation_id;
    if let Some(conversation) = home.store.get_conversation(EVAL_USER, &id).await.unwrap() {
        assert_clean("the stored conversation", &conversation.state.to_string());
    }
    for trace in home
        .store
        .list_traces(EVAL_USER, Some(&id), 10)
        .await
        .unwrap()
    {
        assert_clean("a trace message", &trace.message);
        assert_clean("a trace record", &trace.record.to_string());
    }
    let logged = String::from_utf8_lossy(&logs.0.lock().unwrap()).into_owned();
    assert_clean("the logs", &logged);
    home.store.close().await;
    let bytes = std::fs::read(&home.database_file).unwrap_or_default();
    let wal = std::fs::read(home.database_file.with_extension("db-wal")).unwrap_or_default();
    for needle in needles() {
        for data in [&bytes, &wal] {
            let hit = data.windows(needle.len()).any(|w| w == needle.as_bytes());
            assert!(!hit, "the database holds {needle:?} in clear");
        }
    }
}

/// A passphrase changed in Chinese (密码短语) and a secret key's tail: the field is read as a
/// credential (so the value is masked in the trace, not kept as typed), and signing material
/// shows only that it is set, never its last characters.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_passphrase_and_a_secret_keys_tail_leak_nowhere() {
    const PASSPHRASE: &str = "Xyz98765";
    const OKX_SECRET: &str = "OKSEC_ABCDEFGHIJ";
    let (home, assistant) = fresh().await;
    let messages = [
        format!(
            "add an okx account called okm, api key OKKEY_1234567890, secret key {OKX_SECRET}, passphrase OKPASS_ONE1"
        ),
        format!("把 okm 的密码短语改成 {PASSPHRASE}"),
        "是".to_string(),
    ];
    let mut client = Client::default();
    for message in messages {
        let response = say(&assistant, &mut client, message).await;
        let wire = serde_json::to_string(&response).unwrap();
        for needle in [PASSPHRASE, "GHIJ", "ONE1"] {
            assert!(!wire.contains(needle), "a turn holds {needle:?}:\n{wire}");
        }
    }
    let (_, credentials) = home
        .store
        .credentials_for_signing(EVAL_USER, "okm")
        .await
        .unwrap();
    assert_eq!(
        credentials
            .get(CredentialField::Passphrase)
            .map(|s| s.expose()),
        Some(PASSPHRASE),
        "the passphrase was changed, so the checks are not vacuous"
    );
    let id = client.conversation.unwrap();
    for trace in home
        .store
        .list_traces(EVAL_USER, Some(&id), 10)
        .await
        .unwrap()
    {
        assert!(!trace.message.contains(PASSPHRASE), "{}", trace.message);
        assert!(!trace.record.to_string().contains(PASSPHRASE));
    }
}

/// A credential the rules cannot read ("passphrase my secret pass phrase", "密码短语是
/// 我的口令abc", "secret p@ss w0rd") is still a credential: from the word that names it on,
/// the message is stored masked, and an answer to a question for a secret is masked whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_credential_the_rules_cannot_read_is_stored_masked() {
    let (home, assistant) = fresh().await;
    let conversations: [&[&str]; 4] = [
        &[
            "add an okx account called okp",
            "passphrase my secret pass phrase",
        ],
        &["添加一个 okx 账户，名字叫 okz", "密码短语是 我的口令abc"],
        &["add a binance account called b7", "secret p@ss w0rd"],
        // A bare answer to "give the API key": nothing in it names a credential.
        &["add a binance account called b8", "my own pass phrase"],
    ];
    let needles = [
        "secret pass phrase",
        "own pass phrase",
        "我的口令abc",
        "口令abc",
        "p@ss",
        "w0rd",
    ];
    let mut ids = Vec::new();
    for messages in conversations {
        let mut client = Client::default();
        for message in messages {
            say(&assistant, &mut client, message.to_string()).await;
        }
        ids.push(client.conversation.unwrap());
    }
    let mut traces = 0;
    for id in &ids {
        let conversation = home
            .store
            .get_conversation(EVAL_USER, id)
            .await
            .unwrap()
            .unwrap();
        let state = conversation.state.to_string();
        for trace in home
            .store
            .list_traces(EVAL_USER, Some(id), 10)
            .await
            .unwrap()
        {
            traces += 1;
            let record = trace.record.to_string();
            for needle in needles {
                assert!(
                    !trace.message.contains(needle),
                    "a trace message holds {needle:?}: {}",
                    trace.message
                );
                assert!(!record.contains(needle), "a trace record holds {needle:?}");
            }
        }
        for needle in needles {
            assert!(
                !state.contains(needle),
                "a conversation holds {needle:?}: {state}"
            );
        }
    }
    assert_eq!(traces, 8, "one trace per turn");
    home.store.close().await;
    for file in [
        home.database_file.clone(),
        home.database_file.with_extension("db-wal"),
    ] {
        let bytes = std::fs::read(&file).unwrap_or_default();
        for needle in needles {
            let hit = bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
            assert!(!hit, "{} holds {needle:?} in clear", file.display());
        }
    }
}

/// A base URL that carries credentials (`user:password@`, `?token=…`) is refused in the chat
/// as on the CLI, and the credentials it carried show nowhere: the refusal, the `slot_set`
/// event and the task view used to repeat the URL, and the trace kept it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credentials_in_a_base_url_are_refused_and_leak_nowhere() {
    let (home, assistant) = fresh().await;
    let needles = ["hunter22pw", "tok9secret77"];
    let mut client = Client::default();
    let mut turns = Vec::new();
    for message in [
        "add a model called m1 provider openai base url https://bob:hunter22pw@gw.example.com/v1",
        "base url https://gw.example.com/v1?token=tok9secret77",
    ] {
        turns.push(say(&assistant, &mut client, message.to_string()).await);
    }
    let first = &turns[0];
    assert!(
        first.reply.contains("credentials") && first.reply.contains("base_url"),
        "the refusal names the field and why: {}",
        first.reply
    );
    let task = first.stack.first().expect("the create goes on");
    assert!(
        !task.slots.contains_key("base_url"),
        "a refused URL is not kept: {:?}",
        task.slots
    );
    let id = client.conversation.unwrap();
    let conversation = home.store.get_conversation(EVAL_USER, &id).await.unwrap();
    let mut seen: Vec<String> = turns
        .iter()
        .map(|t| serde_json::to_string(t).unwrap())
        .collect();
    seen.extend(conversation.map(|c| c.state.to_string()));
    for trace in home
        .store
        .list_traces(EVAL_USER, Some(&id), 10)
        .await
        .unwrap()
    {
        seen.push(trace.message);
        seen.push(trace.record.to_string());
    }
    for text in &seen {
        for needle in needles {
            assert!(!text.contains(needle), "{needle:?} shown or stored: {text}");
        }
    }
}
