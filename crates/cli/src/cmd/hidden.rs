//! A secret typed at the terminal: the prompt goes to stderr (stdout may be JSON), and echo is
//! off while the line is read, so the key never shows on the screen or in its scrollback.

use std::io::{BufRead, Write};

use zeroize::Zeroizing;

/// Shows `prompt`, reads one line from the terminal on stdin with echo off, restores the
/// terminal (also when reading fails) and ends the prompt's line.
pub fn prompt(prompt: &str) -> std::io::Result<Zeroizing<String>> {
    let mut err = std::io::stderr().lock();
    write!(err, "{prompt}")?;
    err.flush()?;
    let line = {
        let _echo_off = EchoOff::new();
        let mut line = Zeroizing::new(String::new());
        std::io::stdin().lock().read_line(&mut line).map(|_| line)
    };
    writeln!(err)?;
    let mut line = line?;
    let trimmed = Zeroizing::new(line.trim_end_matches(['\r', '\n']).to_string());
    zeroize::Zeroize::zeroize(&mut *line);
    Ok(trimmed)
}

/// Echo switched off on stdin for as long as this lives.
struct EchoOff {
    #[cfg(unix)]
    saved: Option<nix::sys::termios::Termios>,
}

#[cfg(unix)]
impl EchoOff {
    fn new() -> EchoOff {
        use nix::sys::termios::{LocalFlags, SetArg, tcgetattr, tcsetattr};
        let stdin = std::io::stdin();
        let saved = tcgetattr(&stdin).ok();
        if let Some(original) = &saved {
            let mut quiet = original.clone();
            // Newlines still echo, so the user sees Enter was taken.
            quiet.local_flags.remove(LocalFlags::ECHO);
            quiet.local_flags.insert(LocalFlags::ECHONL);
            let _ = tcsetattr(&stdin, SetArg::TCSAFLUSH, &quiet);
        }
        EchoOff { saved }
    }
}

#[cfg(unix)]
impl Drop for EchoOff {
    fn drop(&mut self) {
        use nix::sys::termios::{SetArg, tcsetattr};
        if let Some(original) = &self.saved {
            let _ = tcsetattr(std::io::stdin(), SetArg::TCSAFLUSH, original);
        }
    }
}

#[cfg(not(unix))]
impl EchoOff {
    fn new() -> EchoOff {
        EchoOff {}
    }
}
