//! What both programs do before their work: read the command line, with
//! help and version written to stdout like any output (a failure to write
//! them is an error), and refuse a stdout that cannot be written.

use std::ffi::OsString;
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::error::ErrorKind;

/// The exit code of a fatal error, bad arguments among them.
pub const FATAL: u8 = 2;

/// Whether stdout was closed when the process started. Rust's start (and
/// `eight`'s own) then open `/dev/null` in its place, where output would
/// vanish with no error: so it is looked at before either runs, by the C
/// runtime's constructors.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static SEE_STDOUT: extern "C" fn() = see_stdout;

/// Notes whether stdout is closed, before anything opens a file.
#[cfg(target_os = "linux")]
extern "C" fn see_stdout() {
    // SAFETY: fcntl with F_GETFD reads the descriptor's flags, nothing else.
    let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1
        && io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
    STDOUT_CLOSED.store(closed, Ordering::Relaxed);
}

/// The arguments of `program`, or the exit code to end with at once: 0
/// once help or the version is written, [`FATAL`] for bad arguments (said
/// on stderr) or a stdout that cannot take the help.
pub fn parse<A: clap::Parser>(program: &str, args: Vec<OsString>) -> Result<A, u8> {
    parse_with(A::command(), program, args)
}

/// As [`parse`], the arguments read by `command` (`A`'s own, with more
/// said of it, such as the subcommands its help lists).
pub fn parse_with<A: clap::FromArgMatches>(
    command: clap::Command,
    program: &str,
    args: Vec<OsString>,
) -> Result<A, u8> {
    let err = match command
        .try_get_matches_from(args)
        .and_then(|matches| A::from_arg_matches(&matches))
    {
        Ok(args) => return Ok(args),
        Err(err) => err,
    };
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            if let Some(why) = unwritable_stdout() {
                say(&format!("{program}: cannot write stdout: {why}"));
                return Err(FATAL);
            }
            let text = err.render().to_string();
            let mut stdout = io::stdout().lock();
            match stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
            {
                Ok(()) => Err(0),
                Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Err(0),
                Err(err) => {
                    say(&format!("{program}: cannot write stdout: {err}"));
                    Err(FATAL)
                }
            }
        }
        _ => {
            let _ = err.print();
            Err(FATAL)
        }
    }
}

/// Why stdout cannot be written, if it cannot: closed when the program
/// started, or open for reading only (Rust's stdout would take every write
/// as done and drop it).
pub fn unwritable_stdout() -> Option<&'static str> {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return Some("it is closed");
    }
    let fd = io::stdout().as_raw_fd();
    // SAFETY: fcntl with F_GETFL reads the descriptor's flags, nothing else.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    match flags {
        -1 => Some("it is closed"),
        flags if flags & libc::O_ACCMODE == libc::O_RDONLY => Some("it is open for reading only"),
        _ => None,
    }
}

/// Writes a line on stderr; a stderr that cannot be written is no reason
/// to stop.
pub fn say(text: &str) {
    let _ = io::stderr()
        .lock()
        .write_all(format!("{text}\n").as_bytes());
}
