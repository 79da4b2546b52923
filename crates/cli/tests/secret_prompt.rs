//! Secret flags given as `-`: piped standard input gives one line per flag; at a terminal the
//! value is asked for with a prompt that does not echo it; no value at all is refused (exit 2)
//! with the flag named and the way to give it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::process::Command;

use support::*;

fn add_binance_args<'a>(api_key: &'a str, secret_key: &'a str) -> Vec<&'a str> {
    vec![
        "exchange",
        "add",
        "--type",
        "binance",
        "--name",
        "b",
        "--api-key",
        api_key,
        "--secret-key",
        secret_key,
    ]
}

#[test]
fn a_dash_with_no_value_on_stdin_is_refused_naming_the_flag() {
    for input in ["", "\n", "   \n"] {
        let home = tempfile::tempdir().unwrap();
        let mut cmd = nofxi(home.path(), &add_binance_args(K, "-"));
        let out = with_input(&mut cmd, input);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "input {input:?}: {err}");
        assert!(err.contains("--secret-key"), "{err}");
        assert!(err.contains("NOFXI_SECRET_KEY"), "the fix is named: {err}");
        assert!(!err.contains(K), "{err}");
    }
}

#[test]
fn piped_secrets_still_work_one_line_per_flag() {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = nofxi(home.path(), &add_binance_args("-", "-"));
    let out = with_input(&mut cmd, &format!("{K}\n{S}\n"));
    assert!(out.status.success(), "{}", text(&out));
    assert!(!text(&out).contains(K) && !text(&out).contains(S));
    let list = json(home.path(), &["exchange", "list"]);
    assert_eq!(list[0]["has_secret_key"], true);
    assert_home_clean(home.path(), &[K, S]);
}

/// Drives the binary on a pseudo-terminal (python3's `pty`): it waits for the prompt, types
/// the secret, and prints everything the terminal showed, then the exit status.
const PTY_DRIVER: &str = r#"
import os, pty, sys, time
secret = sys.argv[1].encode()
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
shown = b""
def read_until(pred, timeout):
    global shown
    end = time.time() + timeout
    while time.time() < end and not pred():
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
read_until(lambda: b"secret-key" in shown.lower(), 10)
time.sleep(0.2)
os.write(fd, secret + b"\n")
done = []
def exited():
    if not done:
        got, status = os.waitpid(pid, os.WNOHANG)
        if got:
            done.append(status)
    return bool(done)
read_until(exited, 10)
if not exited():
    # Still waiting (for Ctrl-D, say): a failure, not a hang.
    os.kill(pid, 9)
    done.append(os.waitpid(pid, 0)[1])
status = done[0]
sys.stdout.write(shown.decode("utf-8", "replace"))
sys.stdout.write("\nEXIT %d\n" % os.waitstatus_to_exitcode(status))
"#;

#[test]
fn at_a_terminal_a_dash_prompts_and_does_not_echo_the_secret() {
    let home = tempfile::tempdir().unwrap();
    let out = Command::new("python3")
        .arg("-c")
        .arg(PTY_DRIVER)
        .arg(S)
        .arg(env!("CARGO_BIN_EXE_nofxi"))
        .args(add_binance_args(K, "-"))
        .env("NOFXI_HOME", home.path())
        .env_remove("NOFXI_MASTER_KEY")
        .env_remove("NOFXI_SECRET_KEY")
        .output()
        .expect("python3 runs the pseudo-terminal driver");
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{shown}{}", text(&out));
    assert!(shown.contains("EXIT 0"), "{shown}");
    assert!(
        shown.contains("--secret-key"),
        "a prompt names the flag: {shown}"
    );
    assert!(!shown.contains(S), "the typed secret was echoed: {shown}");
    let list = json(home.path(), &["exchange", "list"]);
    assert_eq!(list[0]["has_secret_key"], true);
    assert_home_clean(home.path(), &[S]);
}
