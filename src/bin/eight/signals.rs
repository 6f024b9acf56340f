//! SIGINT and SIGTERM while answering: every answer finished by then is
//! written, whole, and the program ends with 128 + the signal's number, as
//! a shell reports a process the signal ended.
//!
//! The handler only notes the signal. Every other thread of the program
//! blocks both signals, so they reach the main thread and end whatever
//! system call it waits in; it looks at [`stopped`] whenever it waits (for
//! input or for answers) and after each batch it writes. While it does work
//! that cannot look (loading data, which may take minutes to prove), with
//! every answer so far written, the handler ends the program itself.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::thread;

/// The signal caught, or 0.
static STOP: AtomicI32 = AtomicI32::new(0);

/// Set while nothing is left to write: the handler ends the program.
static AT_ONCE: AtomicBool = AtomicBool::new(false);

/// Catches SIGINT and SIGTERM from now on.
pub fn catch() {
    // SAFETY: `note` has the signature sa_handler asks for and makes only
    // async-signal-safe calls (atomics and _exit).
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = note as *const () as usize;
        // No SA_RESTART: a read waiting for input returns, to look.
        action.sa_flags = 0;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
        libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());
    }
}

extern "C" fn note(signal: libc::c_int) {
    STOP.store(signal, Ordering::SeqCst);
    if AT_ONCE.load(Ordering::SeqCst) {
        // SAFETY: _exit is async-signal-safe; nothing is left to write.
        unsafe { libc::_exit(exit_code(signal)) };
    }
}

/// The exit code for a run ended by `signal`.
fn exit_code(signal: libc::c_int) -> libc::c_int {
    128 + signal
}

/// The signal that asks the run to stop, if one came.
pub fn stopped() -> Option<i32> {
    match STOP.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// The exit code of a run a signal stopped, if one did.
pub fn stopped_code() -> Option<u8> {
    stopped().and_then(|signal| u8::try_from(exit_code(signal)).ok())
}

/// The run was stopped by a signal, after every finished answer.
#[derive(Debug, thiserror::Error)]
#[error("stopped by signal {0}")]
pub struct Stopped(pub i32);

/// Fails with [`Stopped`] if a signal asked the run to stop.
pub fn check() -> anyhow::Result<()> {
    stopped().map_or(Ok(()), |signal| Err(Stopped(signal).into()))
}

/// Runs `work`, which cannot look at [`stopped`], with every answer so far
/// written: a signal meanwhile ends the program at once.
pub fn at_once<T>(work: impl FnOnce() -> T) -> T {
    if let Some(signal) = stopped() {
        // SAFETY: as in `note`.
        unsafe { libc::_exit(exit_code(signal)) };
    }
    AT_ONCE.store(true, Ordering::SeqCst);
    let result = work();
    AT_ONCE.store(false, Ordering::SeqCst);
    result
}

/// Spawns a thread that blocks SIGINT and SIGTERM, so that they reach the
/// main thread (threads it starts block them too).
pub fn spawn<F>(work: F) -> thread::JoinHandle<()>
where
    F: FnOnce() + Send + 'static,
{
    // SAFETY: pthread_sigmask only reads and writes the sets given, owned
    // here; the old mask is put back right after the spawn.
    unsafe {
        let mut block: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut block);
        libc::sigaddset(&mut block, libc::SIGINT);
        libc::sigaddset(&mut block, libc::SIGTERM);
        libc::pthread_sigmask(libc::SIG_BLOCK, &block, &mut old);
        let handle = thread::spawn(work);
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        handle
    }
}
