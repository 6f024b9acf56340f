//! Messages on the errors' writer (stderr): whole lines, many to a write,
//! never interleaved with other writers' in a pipe, and dropped (the answers
//! still written) if they cannot be written.

use std::fmt::Display;
use std::io::{self, Write};

use crate::stream::input::IO_BUFFER;

/// The most bytes one write to a pipe keeps together with no other writer's
/// bytes in between (POSIX's minimum `PIPE_BUF`).
const PIPE_BUF: usize = 512 * 8;

/// The most bytes a write of messages holds where no other writer's bytes
/// can come in between: a file, a terminal, memory.
pub(crate) const WHOLE: usize = IO_BUFFER;

/// Messages, written in whole lines, many to a write.
pub(crate) struct Reporter<'a> {
    errors: Box<dyn Write + 'a>,
    buffer: Vec<u8>,
    /// The most bytes a write takes: [`PIPE_BUF`] into a pipe, where only
    /// writes that small keep clear of other writers' bytes; more into a
    /// file or a terminal.
    piece: usize,
    /// Writing stderr failed: messages are dropped from then on.
    dead: bool,
    /// The errors are a terminal: long waits are shown.
    pub(crate) terminal: bool,
}

/// The most bytes a write to stderr holds: [`PIPE_BUF`] if it is a pipe (or
/// a socket), where writes interleave, else [`WHOLE`].
pub(crate) fn piece_for_stderr() -> usize {
    use std::os::fd::AsRawFd;
    // SAFETY: fstat only fills memory owned here.
    let pipe = unsafe {
        let mut stat: libc::stat = std::mem::zeroed();
        libc::fstat(io::stderr().as_raw_fd(), &mut stat) != 0
            || matches!(stat.st_mode & libc::S_IFMT, libc::S_IFIFO | libc::S_IFSOCK)
    };
    match pipe {
        true => PIPE_BUF,
        false => WHOLE,
    }
}

impl<'a> Reporter<'a> {
    /// Messages to `errors`, at most `piece` bytes a write.
    pub(crate) fn new(errors: Box<dyn Write + 'a>, piece: usize, terminal: bool) -> Reporter<'a> {
        Reporter {
            errors,
            buffer: Vec::new(),
            piece,
            dead: false,
            terminal,
        }
    }

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
                true => self.dead = self.errors.write_all(&lines[..end]).is_err(),
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
            self.dead = self.errors.write_all(text.as_bytes()).is_err();
        }
    }

    /// Writes the messages so far.
    pub(crate) fn flush(&mut self) {
        if !self.buffer.is_empty() && !self.dead {
            self.dead = self.errors.write_all(&self.buffer).is_err();
            let _ = self.errors.flush();
        }
        self.buffer.clear();
    }
}
