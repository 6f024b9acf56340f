//! Where boards come from: the files named on the command line in order,
//! `-` or none for stdin; each read as a stream of its own, its messages
//! naming it as `eight: FILE:LINE: message`.

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use crate::stream::Io;

/// One source of boards.
pub enum Source {
    Stdin,
    File(PathBuf),
}

impl Source {
    /// The sources the arguments name: stdin if none.
    pub fn all(files: &[PathBuf]) -> Vec<Source> {
        match files {
            [] => vec![Source::Stdin],
            files => files
                .iter()
                .map(|path| match path.as_os_str() == "-" {
                    true => Source::Stdin,
                    false => Source::File(path.clone()),
                })
                .collect(),
        }
    }

    /// The program's input and output for this source.
    ///
    /// # Errors
    ///
    /// Fails if the file cannot be opened.
    pub fn io(&self) -> io::Result<Io<'static>> {
        match self {
            Source::Stdin => {
                if io::stdin().is_terminal() && io::stderr().is_terminal() {
                    let _ = io::stderr().write_all(
                        b"eight: reading boards from the terminal, one a line (Ctrl-D ends; \
                          eight FILE reads a file)\n",
                    );
                }
                Ok(Io::standard())
            }
            Source::File(path) => {
                let file = File::open(path)?;
                if file.metadata()?.is_dir() {
                    return Err(io::Error::other("it is a folder"));
                }
                let fd = file.as_raw_fd();
                Ok(Io::standard()
                    .with_input(file, Some(fd))
                    .with_errors(Renamed::new(io::stderr(), path)))
            }
        }
    }
}

/// Messages written to `inner` with `<stdin>` in their place named by the
/// file's name.
struct Renamed<W> {
    inner: W,
    prefix: Vec<u8>,
    /// The next byte starts a line.
    at_start: bool,
}

/// What a message about a line of the input starts with.
const STDIN: &[u8] = b"eight: <stdin>:";

impl<W: Write> Renamed<W> {
    fn new(inner: W, path: &Path) -> Renamed<W> {
        Renamed {
            inner,
            prefix: format!("eight: {}:", path.display()).into_bytes(),
            at_start: true,
        }
    }
}

impl<W: Write> Write for Renamed<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut out = Vec::with_capacity(bytes.len() + 64);
        let mut rest = bytes;
        while !rest.is_empty() {
            let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |at| at + 1);
            let line = &rest[..end];
            match self.at_start && line.starts_with(STDIN) {
                true => {
                    out.extend_from_slice(&self.prefix);
                    out.extend_from_slice(&line[STDIN.len()..]);
                }
                false => out.extend_from_slice(line),
            }
            self.at_start = line.ends_with(b"\n");
            rest = &rest[end..];
        }
        // Written whole, so that pieces of messages stay whole lines.
        self.inner.write_all(&out)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
