//! `nofxi chat` as a session a person or a script keeps open: a bad line (not UTF-8) is
//! answered and the session goes on, in `--json` mode and at the REPL; Ctrl-C at the prompt
//! clears the half-typed line as a shell does, and Ctrl-D ends.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::io::{Read, Write};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::*;

/// Runs `nofxi chat` (with `extra` args) on raw stdin bytes.
fn chat_bytes(home: &std::path::Path, extra: &[&str], input: &[u8]) -> std::process::Output {
    let mut args = vec!["chat"];
    args.extend_from_slice(extra);
    let mut child = nofxi(home, &args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_line_that_is_not_utf8_is_answered_in_json_mode_and_the_session_goes_on() {
    let (_guard, home) = home();
    let mut input = b"list exchanges\n".to_vec();
    input.extend_from_slice(b"add \xff\xfe account\n");
    input.extend_from_slice(b"list models\n");
    let out = chat_bytes(&home, &["--json"], &input);
    assert!(out.status.success(), "{}", text(&out));
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[1]["type"], "error", "{}", lines[1]);
    assert_eq!(lines[1]["code"], "invalid_utf8", "{}", lines[1]);
    assert!(
        lines[1]["message"].as_str().unwrap().contains("UTF-8"),
        "{}",
        lines[1]
    );
    // The turns around it are ordinary turns of one conversation.
    assert!(lines[0]["reply"].is_string() && lines[2]["reply"].is_string());
    assert_eq!(lines[0]["conversation_id"], lines[2]["conversation_id"]);
}

#[test]
fn a_line_that_is_not_utf8_is_answered_at_the_repl_and_the_session_goes_on() {
    let (_guard, home) = home();
    // The first-run question takes the first line: yes, create paper, builtin and default.
    let out = chat_bytes(&home, &[], b"y\n\xc3\x28 bad\nlist exchanges\n");
    assert!(out.status.success(), "{}", text(&out));
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(said.contains("UTF-8"), "{said}");
    assert!(
        said.contains("1. paper"),
        "the session ended at the bad line: {said}"
    );
}

/// The bytes a pseudo-terminal's program wrote so far.
struct Screen(Arc<Mutex<Vec<u8>>>);

impl Screen {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }

    /// Waits until `needle` appears `count` times; false after the timeout.
    fn wait_for(&self, needle: &str, count: usize) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            if self.text().matches(needle).count() >= count {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }
}

#[test]
fn ctrl_c_on_a_half_typed_line_clears_it_and_the_repl_goes_on() {
    let (_guard, home) = home();
    // Paper, builtin and default exist, so no first-run question is asked.
    let seeded = chat_bytes(&home, &[], b"y\nexit\n");
    assert!(seeded.status.success(), "{}", text(&seeded));

    let pty = nix::pty::openpty(None, None).unwrap();
    let slave = std::fs::File::from(pty.slave);
    let mut child = nofxi(&home, &["chat"])
        .env("TERM", "xterm")
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    let mut master = std::fs::File::from(pty.master);
    let screen = Screen(Arc::new(Mutex::new(Vec::new())));
    let mut reader = master.try_clone().unwrap();
    let sink = screen.0.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    let prompt = "› ";
    assert!(screen.wait_for(prompt, 1), "no prompt: {}", screen.text());
    // Half a line, then Ctrl-C: the line is dropped and a new prompt comes.
    master.write_all(b"delete exch").unwrap();
    assert!(screen.wait_for("delete exch", 1), "{}", screen.text());
    master.write_all(b"\x03").unwrap();
    assert!(
        screen.wait_for(prompt, 2),
        "Ctrl-C ended the chat: {}",
        screen.text()
    );
    master.write_all(b"list exchanges\r").unwrap();
    assert!(
        screen.wait_for("1. paper", 1),
        "the line after Ctrl-C got no answer: {}",
        screen.text()
    );
    // The cleared words never reached the assistant.
    assert!(!screen.text().contains("Delete"), "{}", screen.text());
    master.write_all(b"\x04").unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "Ctrl-D did not end the chat: {}",
            screen.text()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{}", screen.text());
}

/// A `nofxi chat --json` process kept open: lines in, one JSON object per line out.
struct JsonChat {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
}

impl JsonChat {
    fn open(home: &std::path::Path, extra: &[&str]) -> JsonChat {
        let mut args = vec!["chat", "--json"];
        args.extend_from_slice(extra);
        let mut child = nofxi(home, &args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap()));
        JsonChat {
            child,
            input,
            output,
        }
    }

    fn say(&mut self, line: &str) -> Value {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
        serde_json::from_str(&self.output.next().unwrap().unwrap()).unwrap()
    }

    fn close(self) {
        drop(self.input);
        let mut child = self.child;
        assert!(child.wait().unwrap().success());
    }
}

fn strategy_names(home: &std::path::Path) -> Vec<String> {
    json(home, &["strategy", "list"])
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn two_chats_on_one_conversation_do_not_confirm_each_others_tasks() {
    let (_guard, home) = home();
    let seeded = chat_bytes(&home, &[], b"y\nexit\n");
    assert!(seeded.status.success(), "{}", text(&seeded));
    let mut a = JsonChat::open(&home, &["--new"]);
    let asked = a.say("delete strategy default");
    let events = asked["events"].as_array().unwrap();
    assert!(
        events.iter().any(|e| e["type"] == "confirmation_requested"),
        "{asked}"
    );
    let conversation = asked["conversation_id"].as_str().unwrap().to_string();
    // A second chat continues the same conversation and says yes to what it never saw.
    let mut b = JsonChat::open(&home, &["--conversation", &conversation]);
    let answered = b.say("yes");
    assert_eq!(answered["conversation_id"], conversation.as_str());
    assert!(
        answered["reply"].as_str().unwrap().contains("default"),
        "the confirmation is shown again: {answered}"
    );
    assert!(
        strategy_names(&home).contains(&"default".to_string()),
        "b deleted it"
    );
    b.close();
    // The chat that was shown the confirmation confirms it.
    let done = a.say("yes");
    assert!(
        !strategy_names(&home).contains(&"default".to_string()),
        "a's yes did not delete: {done}"
    );
    a.close();
}

/// Piped into the REPL (not `--json`), a 1 MB line was said to be "17 KB" — the size of the
/// part kept — on the first line and on later ones: the refusal says the line's true size.
#[test]
fn a_huge_piped_line_is_refused_by_its_true_size() {
    let (_dir, home) = home();
    let huge = "a".repeat(1024 * 1024);
    let out = with_input(
        &mut nofxi(&home, &["chat"]),
        &format!("{huge}\nhello\n{huge}\n"),
    );
    let said = text(&out);
    assert_eq!(
        said.matches("(1024 KB;").count(),
        2,
        "{}",
        &said[..said.len().min(2000)]
    );
}
