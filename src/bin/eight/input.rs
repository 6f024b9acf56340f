//! Stdin, read in blocks: on the main thread while it comes in small pieces,
//! then read ahead on a thread of its own; every wait looks whether a
//! signal asked the run to stop.

use std::io::{self, Read};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::Duration;

use anyhow::{Context, Result};

use crate::signals;

/// How much input is read, and output buffered, at a time: a chunk for a
/// worker is one read. (128 KB against 64 KB: a tenth less time on 1,000,000
/// boards read from a file, with fewer chunks to hand over.)
pub(crate) const IO_BUFFER: usize = 128 * 1024;

/// A read of this much tells input that comes faster than it is answered,
/// to be read ahead and answered on every core: the most a pipe holds by
/// default, so that piped input is told too.
pub(crate) const FULL_READ: usize = 64 * 1024;

/// Blocks of input read ahead of the parser.
const READ_AHEAD: usize = 4;

/// Stdin, read in blocks: on this thread while it comes in small pieces
/// (typed, or one board), then, from the first full block on, on a thread of
/// its own so that reading overlaps solving and a wait can be seen coming.
pub(crate) enum Input {
    /// Read here, into one buffer kept for every read: a fresh zeroed block
    /// a read would cost a memset and page faults each time (60 µs, for the
    /// read that finds the end of one board's input).
    Direct {
        stdin: io::StdinLock<'static>,
        buffer: Vec<u8>,
    },
    Background(Receiver<io::Result<Vec<u8>>>),
}

impl Input {
    /// Stdin, read on this thread to begin with.
    pub(crate) fn direct() -> Input {
        Input::Direct {
            stdin: io::stdin().lock(),
            buffer: Vec::new(),
        }
    }

    /// The next block of input, or `None` at its end. `before_wait` runs
    /// first whenever the next block is not there yet.
    pub(crate) fn next(
        &mut self,
        before_wait: impl FnOnce() -> Result<()>,
    ) -> Result<Option<Vec<u8>>> {
        match self {
            Input::Direct { stdin, buffer } => {
                before_wait()?;
                if buffer.is_empty() {
                    *buffer = vec![0; IO_BUFFER];
                }
                wait_for_input()?;
                let read = read_into(stdin, buffer).context("cannot read stdin")?;
                if read < FULL_READ {
                    return Ok((read > 0).then(|| buffer[..read].to_vec()));
                }
                // A full block: the buffer goes with it.
                let mut block = std::mem::take(buffer);
                block.truncate(read);
                *self = Input::Background(read_in_background());
                Ok(Some(block))
            }
            Input::Background(blocks) => {
                let block = match blocks.try_recv() {
                    Ok(block) => block,
                    Err(TryRecvError::Empty) => {
                        before_wait()?;
                        match receive(blocks)? {
                            Some(block) => block,
                            None => return Ok(None),
                        }
                    }
                    Err(TryRecvError::Disconnected) => return Ok(None),
                };
                block.map(Some).context("cannot read stdin")
            }
        }
    }
}

/// One read into `buffer`, tried again if a signal interrupts it, unless
/// it asks the run to stop; the bytes read, 0 at end of input.
pub(crate) fn read_into(input: &mut impl Read, buffer: &mut [u8]) -> io::Result<usize> {
    loop {
        match input.read(buffer) {
            Err(err)
                if err.kind() == io::ErrorKind::Interrupted && signals::stopped().is_none() =>
            {
                continue;
            }
            result => return result,
        }
    }
}

/// Waits until stdin can be read (or is at its end), looking whether a
/// signal asked the run to stop every [`LOOK_EVERY`]: a signal that comes
/// just before a read would not end it.
pub(crate) fn wait_for_input() -> Result<()> {
    use std::os::fd::AsRawFd;
    let mut poll = libc::pollfd {
        fd: io::stdin().as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    loop {
        signals::check()?;
        // SAFETY: poll reads and writes the one pollfd owned here.
        let ready = unsafe { libc::poll(&mut poll, 1, LOOK_EVERY.as_millis() as libc::c_int) };
        // Ready, at its end, or not to be polled: the read tells.
        if ready > 0
            || (ready < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted)
        {
            return Ok(());
        }
    }
}

/// How long a wait goes before it looks whether a signal asked the run to
/// stop.
pub(crate) const LOOK_EVERY: Duration = Duration::from_millis(50);

/// The next message of `from`, `None` once it has no sender; fails with
/// [`signals::Stopped`] if a signal asks the run to stop meanwhile.
pub(crate) fn receive<T>(from: &Receiver<T>) -> Result<Option<T>> {
    loop {
        signals::check()?;
        match from.recv_timeout(LOOK_EVERY) {
            Ok(message) => return Ok(Some(message)),
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
        }
    }
}

/// One read of at most `size` bytes, tried again if a signal interrupts it;
/// an empty block at end of input.
pub(crate) fn read_block(input: &mut impl Read, size: usize) -> io::Result<Vec<u8>> {
    let mut block = vec![0u8; size];
    let read = read_into(input, &mut block)?;
    block.truncate(read);
    Ok(block)
}

/// Reads stdin on a thread of its own, in blocks, until end of input or an
/// error. The thread is not joined: at exit it may still wait for input.
pub(crate) fn read_in_background() -> Receiver<io::Result<Vec<u8>>> {
    let (send, receive) = mpsc::sync_channel(READ_AHEAD);
    signals::spawn(move || {
        let mut stdin = io::stdin().lock();
        loop {
            match read_block(&mut stdin, IO_BUFFER) {
                Ok(block) if block.is_empty() => return,
                Ok(block) => {
                    if send.send(Ok(block)).is_err() {
                        return;
                    }
                }
                Err(err) => {
                    let _ = send.send(Err(err));
                    return;
                }
            }
        }
    });
    receive
}
