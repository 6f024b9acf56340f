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

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::stream::Host;
use eight::progress::Deepening;
use eight::{Loading, Proving};

/// How long a search runs before `--verbose` tells of it.
const SHOW_SEARCH_AFTER: Duration = Duration::from_secs(1);

thread_local! {
    /// The bounds this thread's search started within its first second,
    /// told if it passes it.
    static UNTOLD: std::cell::RefCell<Vec<Deepening>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The signal caught, or 0.
static STOP: AtomicI32 = AtomicI32::new(0);

/// Set while nothing is left to write: the handler ends the program.
static AT_ONCE: AtomicBool = AtomicBool::new(false);

/// The program as the engine's host: stopped by SIGINT and SIGTERM, its
/// threads blocking both, data proven shown on a terminal, and data loaded
/// said with `--verbose`.
pub struct Cli {
    verbose: bool,
    /// The file being proven, when its proof started, and the percentage
    /// shown.
    proving: Mutex<Option<(PathBuf, Instant, Option<u64>)>>,
}

impl Cli {
    /// The host, for the whole run.
    pub fn new(verbose: bool) -> &'static Cli {
        Box::leak(Box::new(Cli {
            verbose,
            proving: Mutex::new(None),
        }))
    }

    /// Catches SIGINT and SIGTERM from now on.
    pub fn catch(&self) {
        catch();
    }
}

impl Loading for Cli {
    /// On a terminal, a line on stderr kept up to date; its end, where the
    /// proof is recorded, with `--verbose` too.
    fn proving(&self, proving: &Proving<'_>) {
        let terminal = io::stderr().is_terminal();
        if !terminal && !self.verbose {
            return;
        }
        let mut state = self.proving.lock().unwrap_or_else(|e| e.into_inner());
        if state.as_ref().is_none_or(|(path, ..)| path != proving.path) {
            *state = Some((proving.path.to_path_buf(), Instant::now(), None));
        }
        let (_, started, shown) = state.as_mut().expect("set above");
        let percent = proving.done * 100 / proving.of.max(1);
        let seconds = started.elapsed().as_secs_f64();
        let (start, end) = match (proving.recorded, terminal) {
            (Some(Ok(at)), _) if at.parent() == proving.path.parent() => (
                "",
                format!("proven in {seconds:.0} s, recorded for later runs\n"),
            ),
            (Some(Ok(at)), _) => (
                "",
                format!(
                    "proven in {seconds:.0} s; its folder cannot be written, so the proof is \
                     recorded in {}\n",
                    at.display()
                ),
            ),
            (Some(Err(why)), _) => (
                "",
                format!(
                    "proven in {seconds:.0} s, but the proof cannot be recorded ({why}): it is \
                     made again on every run\n"
                ),
            ),
            (None, false) => return,
            (None, true) if *shown == Some(percent) => return,
            (None, true) => ("\r", format!("{percent}%")),
        };
        *shown = Some(percent);
        let start = if terminal { "\r" } else { start };
        let _ = io::stderr().lock().write_all(
            format!(
                "{start}eight: proving {} before its first use: {end}",
                proving.path.display()
            )
            .as_bytes(),
        );
    }

    fn loaded(&self, message: &str) {
        if self.verbose {
            let _ = io::stderr()
                .lock()
                .write_all(format!("eight: {message}\n").as_bytes());
        }
    }
}

impl Host for Cli {
    fn stopped(&self) -> Option<i32> {
        stopped()
    }

    fn at_once(&self, work: &mut dyn FnMut()) {
        at_once(work)
    }

    fn spawn(&self, work: Box<dyn FnOnce() + Send>) -> thread::JoinHandle<()> {
        spawn(work)
    }

    /// With `--verbose`, a search past a second says each bound it
    /// started (those before the second once it passes it), and how it
    /// ended.
    fn searching(&self, deepening: &Deepening) {
        if !self.verbose {
            return;
        }
        UNTOLD.with_borrow_mut(|untold| {
            if deepening.elapsed < SHOW_SEARCH_AFTER {
                match deepening.done {
                    true => untold.clear(),
                    false => untold.push(*deepening),
                }
                return;
            }
            let text: String = untold
                .drain(..)
                .chain([*deepening])
                .map(|told| format!("eight: a {} board {told}\n", told.shape))
                .collect();
            let _ = io::stderr().lock().write_all(text.as_bytes());
        });
    }
}

/// Catches SIGINT and SIGTERM from now on.
fn catch() {
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
fn stopped() -> Option<i32> {
    match STOP.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// The exit code of a run a signal stopped, if one did.
pub fn stopped_code() -> Option<u8> {
    stopped().and_then(|signal| u8::try_from(exit_code(signal)).ok())
}

/// Runs `work`, which cannot look at [`stopped`], with every answer so far
/// written: a signal meanwhile ends the program at once.
fn at_once<T>(work: impl FnOnce() -> T) -> T {
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
fn spawn<F>(work: F) -> thread::JoinHandle<()>
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
