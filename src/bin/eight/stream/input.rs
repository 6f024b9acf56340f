//! The input, read in blocks: on the main thread while it comes in small
//! pieces, then read ahead on a thread of its own; every wait looks whether
//! the host asks the run to stop.

use std::io::{self, Read};
use std::os::fd::RawFd;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::Duration;

use anyhow::{Context, Result};

use crate::stream::{Host, check};

/// The input of a run.
type Source = Box<dyn Read + Send>;

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

/// The input, read in blocks: on this thread while it comes in small
/// pieces (typed, or one board), then, from the first full block on, on a
/// thread of its own so that reading overlaps solving and a wait can be seen
/// coming.
pub(crate) enum Input {
    /// Read here, into one buffer kept for every read: a fresh zeroed block
    /// a read would cost a memset and page faults each time (60 µs, for the
    /// read that finds the end of one board's input).
    Direct {
        source: Option<Source>,
        /// Its descriptor, polled while it waits.
        fd: Option<RawFd>,
        buffer: Vec<u8>,
        host: &'static dyn Host,
    },
    Background(Receiver<io::Result<Vec<u8>>>, &'static dyn Host),
}

impl Input {
    /// `source`, read on this thread to begin with.
    pub(crate) fn new(source: Source, fd: Option<RawFd>, host: &'static dyn Host) -> Input {
        Input::Direct {
            source: Some(source),
            fd,
            buffer: Vec::new(),
            host,
        }
    }

    /// The next block of input, or `None` at its end. `before_wait` runs
    /// first whenever the next block is not there yet.
    pub(crate) fn next(
        &mut self,
        before_wait: impl FnOnce() -> Result<()>,
    ) -> Result<Option<Vec<u8>>> {
        match self {
            Input::Direct {
                source,
                fd,
                buffer,
                host,
            } => {
                let host = *host;
                before_wait()?;
                if buffer.is_empty() {
                    *buffer = vec![0; IO_BUFFER];
                }
                if let Some(fd) = *fd {
                    wait_for_input(fd, host)?;
                }
                let reader = source
                    .as_mut()
                    .expect("read until it goes to the background");
                let read = read_into(reader, buffer, host).context("cannot read stdin")?;
                if read < FULL_READ {
                    return Ok((read > 0).then(|| buffer[..read].to_vec()));
                }
                // A full block: the buffer goes with it.
                let mut block = std::mem::take(buffer);
                block.truncate(read);
                let source = source.take().expect("read until it goes to the background");
                *self = Input::Background(read_in_background(source, host), host);
                Ok(Some(block))
            }
            Input::Background(blocks, host) => {
                let block = match blocks.try_recv() {
                    Ok(block) => block,
                    Err(TryRecvError::Empty) => {
                        before_wait()?;
                        match receive(blocks, *host)? {
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
/// the host asks the run to stop; the bytes read, 0 at end of input.
pub(crate) fn read_into(
    input: &mut (impl Read + ?Sized),
    buffer: &mut [u8],
    host: &dyn Host,
) -> io::Result<usize> {
    loop {
        match input.read(buffer) {
            Err(err) if err.kind() == io::ErrorKind::Interrupted && host.stopped().is_none() => {
                continue;
            }
            result => return result,
        }
    }
}

/// Waits until `fd` can be read (or is at its end), looking whether the
/// host asks the run to stop every [`LOOK_EVERY`]: a signal that comes just
/// before a read would not end it.
fn wait_for_input(fd: RawFd, host: &dyn Host) -> Result<()> {
    let mut poll = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    loop {
        check(host)?;
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

/// The next message of `from`, `None` once it has no sender; fails if the
/// host asks the run to stop meanwhile.
fn receive<T>(from: &Receiver<T>, host: &dyn Host) -> Result<Option<T>> {
    loop {
        check(host)?;
        match from.recv_timeout(LOOK_EVERY) {
            Ok(message) => return Ok(Some(message)),
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
        }
    }
}

/// One read of at most `size` bytes, tried again if a signal interrupts it;
/// an empty block at end of input.
fn read_block(
    input: &mut (impl Read + ?Sized),
    size: usize,
    host: &dyn Host,
) -> io::Result<Vec<u8>> {
    let mut block = vec![0u8; size];
    let read = read_into(input, &mut block, host)?;
    block.truncate(read);
    Ok(block)
}

/// Reads `source` on a thread of its own, in blocks, until end of input or
/// an error. The thread is not joined: at exit it may still wait for input.
fn read_in_background(
    mut source: Source,
    host: &'static dyn Host,
) -> Receiver<io::Result<Vec<u8>>> {
    let (send, receive) = mpsc::sync_channel(READ_AHEAD);
    host.spawn(Box::new(move || {
        loop {
            match read_block(&mut *source, IO_BUFFER, host) {
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
    }));
    receive
}
