//! What the flows stand on: `serve` in this process on a fresh store, and one headless
//! Chromium per test behind its own chromedriver, with the waits and chat helpers the flows use.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use eventsource_stream::Eventsource;
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use futures::StreamExt;
use nofxi_store::test_support::{TestStore, sqlite_store};
use nofxi_trader::runtime::host::HostOptions;
use serde_json::{Value, json};
use tokio::process::{Child, Command};
use tokio::time::Instant;

pub use crate::support::TestResult;
use crate::support::{Running, fast_engine, start_server};

const CHROMIUM: &str = "/usr/bin/chromium";
const INSTALL: &str =
    "DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver fonts-wqy-microhei";
/// Long enough for a debug build on a busy 2-core machine; a passing run waits far less.
pub const PATIENCE: Duration = Duration::from_secs(30);

// ---------------------------------------------------------------------------------------------
// The server under test.

/// `serve` in this process on a fresh SQLite store, engine included, assets embedded.
pub struct App {
    base: String,
    http: reqwest::Client,
    running: Running,
    store: TestStore,
}

impl App {
    /// With `users` (name, password) the server starts in multi-user mode: the page logs in.
    async fn start(users: &[(&str, &str)], engine: HostOptions) -> TestResult<App> {
        let store = sqlite_store().await?;
        for (name, password) in users {
            store
                .store
                .add_user(name, &nofxi_domain::Secret::new(*password))
                .await?;
        }
        let running = start_server(store.store.clone(), Some(engine)).await?;
        Ok(App {
            base: running.base.clone(),
            http: reqwest::Client::new(),
            running,
            store,
        })
    }

    /// The store the server serves, for a flow that sets data up as the CLI would.
    pub fn store(&self) -> &nofxi_store::Store {
        &self.store.store
    }

    /// The latest conversation's id, waiting for one: the page may have sent its turn a
    /// moment before the server has opened the conversation.
    pub async fn latest_conversation(&self) -> TestResult<String> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let latest: Value = self
                .http
                .get(format!("{}/api/chat/latest", self.base))
                .send()
                .await?
                .json()
                .await?;
            if let Some(id) = latest["conversation_id"].as_str() {
                return Ok(id.to_string());
            }
            if Instant::now() >= deadline {
                return Err(format!("no conversation yet: {latest}").into());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The conversation's first finished turn as its event stream replays it: (turn id, reply).
    pub async fn finished_turn(&self, conversation: &str) -> TestResult<(String, String)> {
        let url = format!("{}/api/chat/conversations/{conversation}/events", self.base);
        let mut events = self
            .http
            .get(url)
            .send()
            .await?
            .bytes_stream()
            .eventsource();
        let deadline = Instant::now() + PATIENCE;
        while let Ok(Some(event)) = tokio::time::timeout_at(deadline, events.next()).await {
            let event = event?;
            if event.event == "turn" {
                let data: Value = serde_json::from_str(&event.data)?;
                let turn = data["turn_id"].as_str().unwrap_or_default().to_string();
                let reply = data["response"]["reply"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                return Ok((turn, reply));
            }
        }
        Err(format!("no finished turn in {conversation} within {PATIENCE:?}").into())
    }

    async fn stop(self) -> TestResult {
        self.running.stop().await?;
        self.store.cleanup().await?;
        Ok(())
    }
}

/// Starts the app and a browser, runs `flow`, and always shuts both down; a failing flow leaves
/// a `<name>-failure.png` beside the other screenshots.
pub async fn with_app_and_browser(
    name: &str,
    viewport: Viewport,
    users: &[(&str, &str)],
    flow: impl AsyncFnOnce(&App, &Browser) -> TestResult,
) -> TestResult {
    let engine = fast_engine("browser-test");
    with_engine_app_and_browser(name, viewport, users, engine, flow).await
}

/// [`with_app_and_browser`] with the engine hosted as `engine` says.
pub async fn with_engine_app_and_browser(
    name: &str,
    viewport: Viewport,
    users: &[(&str, &str)],
    engine: HostOptions,
    flow: impl AsyncFnOnce(&App, &Browser) -> TestResult,
) -> TestResult {
    let app = App::start(users, engine).await?;
    let shared = &app;
    let outcome = with_browser(shared, name, viewport, async move |b| flow(shared, b).await).await;
    let stopped = app.stop().await;
    outcome.and(stopped)
}

/// Starts the app (the fast engine) and runs `flow` with it, then shuts it down: for a flow that
/// opens several browsers on the same data with [`with_browser`].
pub async fn with_app(
    users: &[(&str, &str)],
    flow: impl AsyncFnOnce(&App) -> TestResult,
) -> TestResult {
    let app = App::start(users, fast_engine("browser-test")).await?;
    let outcome = flow(&app).await;
    let stopped = app.stop().await;
    outcome.and(stopped)
}

/// Opens a browser on `app`'s page, runs `flow`, and always closes the browser; a failing flow
/// leaves a `<name>-failure.png` beside the other screenshots.
pub async fn with_browser(
    app: &App,
    name: &str,
    viewport: Viewport,
    flow: impl AsyncFnOnce(&Browser) -> TestResult,
) -> TestResult {
    let browser = Browser::launch(name, viewport).await?;
    let outcome = match browser.client.goto(&app.base).await {
        Ok(()) => flow(&browser).await,
        Err(e) => Err(e.into()),
    };
    if outcome.is_err() {
        let _ = browser.screenshot("failure").await;
    }
    let quit = browser.quit().await;
    outcome.and(quit)
}

// ---------------------------------------------------------------------------------------------
// The browser.

#[derive(Clone, Copy)]
pub struct Viewport {
    width: u32,
    height: u32,
    /// Phone emulation: desktop Chromium will not make a window narrower than 500 px.
    phone: bool,
    /// The page sees `prefers-color-scheme: dark`.
    dark: bool,
}

impl Viewport {
    pub const DESKTOP: Viewport = Viewport {
        width: 1280,
        height: 900,
        phone: false,
        dark: false,
    };
    pub const PHONE: Viewport = Viewport {
        width: 375,
        height: 812,
        phone: true,
        dark: false,
    };

    /// The same size with the system in dark mode.
    pub const fn dark(self) -> Viewport {
        Viewport { dark: true, ..self }
    }

    pub const fn is_phone(self) -> bool {
        self.phone
    }
}

/// A chromedriver child process on a free loopback port, killed when dropped.
struct ChromeDriver {
    child: Child,
    port: u16,
}

impl ChromeDriver {
    fn spawn() -> TestResult<ChromeDriver> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| {
                format!(
                    "cannot run chromedriver ({e}); the browser tests need Chromium and its driver: {INSTALL}"
                )
            })?;
        Ok(ChromeDriver { child, port })
    }
}

/// One headless Chromium session, with the helpers the flows need.
pub struct Browser {
    pub client: Client,
    shots: PathBuf,
    name: String,
    driver: ChromeDriver,
}

impl Browser {
    async fn launch(name: &str, viewport: Viewport) -> TestResult<Browser> {
        check!(
            Path::new(CHROMIUM).exists(),
            "{CHROMIUM} is missing; the browser tests need it: {INSTALL}"
        );
        let driver = ChromeDriver::spawn()?;
        let mut options = json!({
            "binary": CHROMIUM,
            "args": [
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                format!("--window-size={},{}", viewport.width.max(800), viewport.height),
                // Tests pick the language themselves; the machine's locale must not.
                "--lang=en-US",
            ],
        });
        if viewport.dark
            && let Some(args) = options["args"].as_array_mut()
        {
            args.push(json!("--force-dark-mode"));
        }
        if viewport.phone {
            options["mobileEmulation"] = json!({"deviceMetrics": {
                "width": viewport.width, "height": viewport.height, "pixelRatio": 2.0, "touch": true,
            }});
        }
        let mut caps = serde_json::Map::new();
        caps.insert("goog:chromeOptions".into(), options);
        let url = format!("http://127.0.0.1:{}", driver.port);
        // chromedriver takes a moment to listen; retry until it answers or the deadline.
        let deadline = Instant::now() + PATIENCE;
        let client = loop {
            let attempt =
                ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                    .capabilities(caps.clone())
                    .connect(&url)
                    .await;
            match attempt {
                Ok(client) => break client,
                Err(e) if Instant::now() > deadline => {
                    return Err(
                        format!("no WebDriver session from chromedriver at {url}: {e}").into(),
                    );
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        };
        Ok(Browser {
            client,
            shots: screenshot_dir()?,
            name: name.to_string(),
            driver,
        })
    }

    /// Ends the session (which closes Chromium), then the driver.
    async fn quit(mut self) -> TestResult {
        let closed = self.client.close().await;
        let _ = self.driver.child.kill().await;
        closed?;
        Ok(())
    }

    /// Follows a hash route the way a link does (a `hashchange`, no reload).
    pub async fn goto(&self, route: &str) -> TestResult {
        self.eval(&format!("location.hash = {}; return true", json!(route)))
            .await?;
        Ok(())
    }

    pub async fn eval(&self, script: &str) -> TestResult<Value> {
        Ok(self.client.execute(script, vec![]).await?)
    }

    pub async fn click(&self, css: &str) -> TestResult {
        self.wait_for(css).await?.click().await?;
        Ok(())
    }

    /// The first element matching `css` once there is one.
    pub async fn wait_for(&self, css: &str) -> TestResult<Element> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            match self.client.find(Locator::Css(css)).await {
                Ok(element) => return Ok(element),
                Err(e) if Instant::now() > deadline => {
                    return Err(format!("no {css} within {PATIENCE:?}: {e}").into());
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    /// Polls `script` (a function body) until it returns something truthy, and returns that.
    pub async fn wait_until(&self, what: &str, script: &str) -> TestResult<Value> {
        self.wait_until_for(what, PATIENCE, script).await
    }

    pub async fn wait_until_for(
        &self,
        what: &str,
        patience: Duration,
        script: &str,
    ) -> TestResult<Value> {
        let deadline = Instant::now() + patience;
        loop {
            let value = self.eval(script).await?;
            let truthy = !matches!(&value, Value::Null | Value::Bool(false))
                && value != json!(0)
                && value != json!("");
            if truthy {
                return Ok(value);
            }
            if Instant::now() > deadline {
                return Err(format!("waited {patience:?} for {what}; last: {value}").into());
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
    }

    /// A row of the resources table naming `name`.
    pub async fn wait_for_row(&self, name: &str) -> TestResult {
        self.wait_until(
            &format!("{name} in the resources list"),
            &format!(
                "return [...document.querySelectorAll('.resource-table tbody tr')]\
                 .some(r => r.textContent.includes({}))",
                json!(name)
            ),
        )
        .await?;
        Ok(())
    }

    /// Types `message` into the chat and sends it; returns the assistant's finished reply.
    pub async fn say(&self, message: &str) -> TestResult<String> {
        let before = self
            .eval("return document.querySelectorAll('#chat-log .msg.user').length")
            .await?;
        self.wait_for("#chat-input")
            .await?
            .send_keys(message)
            .await?;
        self.click("#chat-send").await?;
        let turn = self
            .wait_until(
                &format!("the turn id of {message:?}"),
                &format!(
                    "const m = document.querySelectorAll('#chat-log .msg.user')[{before}];\
                     return m && m.dataset.turn"
                ),
            )
            .await?;
        let turn = turn.as_str().unwrap_or_default().to_string();
        let reply = self
            .wait_until(
                &format!("the reply to {message:?}"),
                &format!(
                    "const m = document.querySelector('#chat-log .msg.assistant[data-turn=\"{turn}\"][data-done]');\
                     return m && m.querySelector('.text').textContent"
                ),
            )
            .await?;
        Ok(reply.as_str().unwrap_or_default().to_string())
    }

    pub async fn confirmation_pending(&self) -> TestResult<bool> {
        let v = self
            .eval("return !!document.querySelector('#task-panel button[data-confirm=yes]:not([disabled])')")
            .await?;
        Ok(v == json!(true))
    }

    /// Presses the pending confirmation's "yes" or "no" button; returns the reply of the turn
    /// the answer starts.
    pub async fn answer_confirmation(&self, answer: &str) -> TestResult<String> {
        let before = self
            .eval("return document.querySelectorAll('#chat-log .msg.assistant').length")
            .await?;
        self.click(&format!(
            "#task-panel button[data-confirm={answer}]:not([disabled])"
        ))
        .await?;
        let reply = self
            .wait_until(
                &format!("the reply to answering {answer:?}"),
                &format!(
                    "const all = document.querySelectorAll('#chat-log .msg.assistant');\
                     const m = all.length > {before} && all[all.length - 1];\
                     return m && m.dataset.done && m.querySelector('.text').textContent"
                ),
            )
            .await?;
        Ok(reply.as_str().unwrap_or_default().to_string())
    }

    /// `target/browser-screenshots/<test>-<state>.png`.
    pub async fn screenshot(&self, state: &str) -> TestResult {
        let png = self.client.screenshot().await?;
        std::fs::write(self.shots.join(format!("{}-{state}.png", self.name)), png)?;
        Ok(())
    }
}

/// `$CARGO_TARGET_DIR/browser-screenshots`, else the workspace's `target/`.
fn screenshot_dir() -> TestResult<PathBuf> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => workspace.join(dir), // an absolute path replaces the base
        None => workspace.join("target"),
    };
    let dir = target.join("browser-screenshots");
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
