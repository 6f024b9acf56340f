//! Messages on stderr: whole lines, many to a write, never interleaved with
//! other writers' in a pipe, and dropped (the answers still written) if
//! stderr cannot be written.

use std::fmt::Display;
use std::io::{self, IsTerminal, Write};

use crate::input::IO_BUFFER;

/// The most bytes one write to a pipe keeps together with no other writer's
/// bytes in between (POSIX's minimum `PIPE_BUF`).
const PIPE_BUF: usize = 512 * 8;

/// Messages for stderr, written in whole lines, many to a write.
#[derive(Debug)]
pub(crate) struct Reporter {
    buffer: Vec<u8>,
    /// The most bytes a write takes: [`PIPE_BUF`] into a pipe, where only
    /// writes that small keep clear of other writers' bytes; more into a
    /// file or a terminal.
    piece: usize,
    /// Writing stderr failed: messages are dropped from then on.
    dead: bool,
    /// Stderr is a terminal: long waits are shown.
    pub(crate) terminal: bool,
}

impl Default for Reporter {
    fn default() -> Reporter {
        Reporter {
            buffer: Vec::new(),
            piece: match stderr_is_pipe() {
                true => PIPE_BUF,
                false => IO_BUFFER,
            },
            dead: false,
            terminal: io::stderr().is_terminal(),
        }
    }
}

/// Whether stderr is a pipe (or a socket), where writes interleave.
fn stderr_is_pipe() -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: fstat only fills memory owned here.
    unsafe {
        let mut stat: libc::stat = std::mem::zeroed();
        libc::fstat(io::stderr().as_raw_fd(), &mut stat) != 0
            || matches!(stat.st_mode & libc::S_IFMT, libc::S_IFIFO | libc::S_IFSOCK)
    }
}

impl Reporter {
    /// Adds `eight: <stdin>:LINE: message`.
    pub(crate) fn report(&mut self, line: u64, message: &dyn Display) {
        let mut text = Vec::new();
        let _ = writeln!(text, "eight: <stdin>:{line}: {message}");
        self.extend(&text);
    }

    /// Adds whole message lines, writing them out in pieces of at most
    /// `piece` bytes that end at the end of a line.
    pub(crate) fn extend(&mut self, mut lines: &[u8]) {
        while !lines.is_empty() && !self.dead {
            let room = self.piece.saturating_sub(self.buffer.len());
            if lines.len() <= room {
                self.buffer.extend_from_slice(lines);
                return;
            }
            // The most whole lines that fit; a line longer than a piece
            // goes alone.
            let end = match memchr::memrchr(b'\n', &lines[..room]) {
                Some(at) => at + 1,
                None if self.buffer.is_empty() => {
                    memchr::memchr(b'\n', lines).map_or(lines.len(), |at| at + 1)
                }
                None => 0,
            };
            match self.buffer.is_empty() {
                // Straight from the lines, without a copy.
                true => self.dead = io::stderr().lock().write_all(&lines[..end]).is_err(),
                false => {
                    self.buffer.extend_from_slice(&lines[..end]);
                    self.flush();
                }
            }
            lines = &lines[end..];
        }
    }

    /// Shows `status` on the terminal's last line in place of what was
    /// there; an empty one clears it.
    pub(crate) fn show(&mut self, status: &str) {
        self.flush();
        if !self.dead {
            let end = if status.is_empty() { "" } else { " " };
            let text = format!("\r{status}{end}\x1b[K");
            self.dead = io::stderr().lock().write_all(text.as_bytes()).is_err();
        }
    }

    /// Writes the messages so far.
    pub(crate) fn flush(&mut self) {
        if !self.buffer.is_empty() && !self.dead {
            self.dead = io::stderr().lock().write_all(&self.buffer).is_err();
        }
        self.buffer.clear();
    }
}

/// Writes a fatal error on stderr in one write; a failure to write it is
/// ignored, since nothing else can be done.
pub fn report_fatal(err: &anyhow::Error) {
    let _ = io::stderr()
        .lock()
        .write_all(format!("eight: {err:#}\n").as_bytes());
}

/// Whether the error is a broken pipe: the reader of stdout went away.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
