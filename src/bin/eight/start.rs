//! The program's entry: a C `main` in place of Rust's start.

use std::ffi::{CStr, OsStr, OsString, c_char, c_int};
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;

use crate::stream::StreamError;

use crate::args::{self, FATAL};
use crate::{ANSWERED, Args, run, signals};
/// The exit code of a panic, as Rust's own start gives it.
const PANIC: u8 = 101;

/// The program's entry, called by the C runtime with the arguments.
///
/// Rust's own start (a Rust `fn main`) is left out: before `main` it reads
/// `/proc/self/maps` to find the main thread's stack, so as to report its
/// overflow, and sets up signal handlers on a stack of their own: 0.13-0.15
/// ms of the 1.41-1.49 ms a run on one board took (medians of 1,000 runs,
/// four rounds). An overflow is now a plain crash; `eight` recurses only as
/// deep as an answer is long. What the program needs of that start is done
/// here ([`start`]); at the end stdout is flushed ([`eight()`]) and a panic
/// exits with 101, as there.
#[cfg(not(test))]
#[unsafe(no_mangle)]
extern "C" fn main(argc: c_int, argv: *const *const c_char) -> c_int {
    // SAFETY: the C runtime calls `main` once, first, with its arguments.
    let args = unsafe { start(argc, argv) };
    c_int::from(std::panic::catch_unwind(|| eight(args)).unwrap_or(PANIC))
}

/// What Rust's start does that the program relies on: a closed standard
/// descriptor is opened on `/dev/null` (else the first file opened would
/// take its number, and be read as stdin or written as answers), and
/// SIGPIPE is ignored (a write to a closed pipe fails, to end quietly on).
/// Returns the arguments.
///
/// # Safety
///
/// `argv` holds `argc` pointers to strings ending in a nul byte.
unsafe fn start(argc: c_int, argv: *const *const c_char) -> Vec<OsString> {
    // SAFETY: fcntl and open take no memory, signal a handler libc has.
    unsafe {
        for fd in 0..3 {
            let closed = libc::fcntl(fd, libc::F_GETFD) == -1
                && io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
            // The lowest free number is `fd`: the ones before it are open.
            if closed && libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) != fd {
                libc::abort();
            }
        }
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    (0..usize::try_from(argc).unwrap_or(0))
        // SAFETY: as the caller promises.
        .map(|i| unsafe { CStr::from_ptr(*argv.add(i)) })
        .map(|arg| OsStr::from_bytes(arg.to_bytes()).to_os_string())
        .collect()
}

/// Runs the program on its arguments; returns the exit code, once stdout
/// is flushed.
fn eight(args: Vec<OsString>) -> u8 {
    // A data file cut short while mapped ends the run (or the request) with
    // a message, after the answers made before, not with SIGBUS.
    eight::DataDir::guard_truncation();
    if args.get(1).is_some_and(|arg| arg == "serve") {
        let args = [OsString::from("eight serve")]
            .into_iter()
            .chain(args.into_iter().skip(2))
            .collect();
        return crate::serve::run(args).unwrap_or_else(|err| {
            args::say(&format!("eight serve: {err:#}"));
            FATAL
        });
    }
    let args = match args::parse_with::<Args>(crate::command(), "eight", args) {
        Ok(args) => args,
        Err(code) => return code,
    };
    let code = match (run(&args), signals::stopped_code()) {
        // Stopped by a signal, after every finished answer.
        (Err(_), Some(code)) => code,
        (Ok(code), _) => code,
        (Err(err), None) if is_broken_pipe(&err) => ANSWERED,
        (Err(err), None) => {
            args::say(&format!("eight: {err:#}"));
            FATAL
        }
    };
    let _ = io::stdout().flush();
    code
}

/// Whether the error is a broken pipe: the reader of stdout went away.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<StreamError>()
                .is_some_and(StreamError::is_broken_pipe)
    })
}
