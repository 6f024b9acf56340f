//! Opening and memory-mapping data files: the one place that does it.
//!
//! A memory map reads a file in place, so a large database costs only the
//! pages a query touches. Its danger is the file changing underneath: a
//! page past a new, shorter end raises `SIGBUS`, which would kill the
//! process with every answer not yet written. So every map made here is
//! guarded: on Linux, a `SIGBUS` inside a guarded map is caught, the page is
//! replaced by zeros so the reader can go on, and [`changed`] turns true.
//! Whoever reads a map checks [`changed`] after the work that read it and
//! drops that work's results: the run ends with a message, after the
//! answers made before the change.

use std::fs::{File, OpenOptions};
use std::io;
use std::ops::Deref;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether a guarded map has been found changed underneath (see the
/// [module](self) docs).
pub fn changed() -> bool {
    CHANGED.load(Ordering::SeqCst)
}

static CHANGED: AtomicBool = AtomicBool::new(false);

/// Why a data file could not be opened or mapped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// The path names no file.
    #[error("it does not exist")]
    Missing,
    /// The path names something that is not a regular file.
    #[error("it is {0}, not a regular file")]
    Special(&'static str),
    /// Opening, reading its metadata or mapping failed.
    #[error("{0}")]
    Io(#[source] io::Error),
}

/// Opens `path` for reading if it is a regular file. It never blocks: a
/// FIFO or a device is refused, not waited on.
///
/// # Errors
///
/// Fails if the path is missing or is a folder, FIFO, socket or device.
pub fn open(path: &Path) -> Result<File, OpenError> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Opening a FIFO for reading would wait for a writer.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|err| match err.kind() {
        io::ErrorKind::NotFound => OpenError::Missing,
        _ => OpenError::Io(err),
    })?;
    let kind = file.metadata().map_err(OpenError::Io)?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    Err(OpenError::Special(describe(kind)))
}

/// What a file that is not a regular file is, for messages.
fn describe(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
    }
    match kind.is_dir() {
        true => "a folder",
        false => "not a regular file",
    }
}

/// A read-only memory map of a whole file, guarded against the file
/// changing underneath (see the [module](self) docs).
pub struct Mapping {
    map: memmap2::Mmap,
    #[cfg(target_os = "linux")]
    slot: Option<usize>,
}

/// Maps all of `file` for reading.
///
/// # Safety
///
/// The map shows the file's bytes as they are on disk at each read. The
/// caller must not rely on them staying as they were checked: a file
/// rewritten in place shows new bytes, and one made shorter shows zeros past
/// its new end, with [`changed`] set (on Linux; elsewhere it ends the process
/// with `SIGBUS`). Readers in this crate check every value they follow
/// against bounds before use, and the `eight` binary drops answers computed
/// after [`changed`] turns true. `eight-gen` never changes a file in place:
/// it writes a new one and renames it.
pub unsafe fn map(file: &File) -> Result<Mapping, OpenError> {
    // SAFETY: see this function's contract, which the caller accepts; the
    // guard below keeps a shortened file from killing the process.
    let map = unsafe { memmap2::Mmap::map(file) }.map_err(OpenError::Io)?;
    #[cfg(target_os = "linux")]
    {
        let slot = guard::watch(map.as_ptr() as usize, map.len());
        Ok(Mapping { map, slot })
    }
    #[cfg(not(target_os = "linux"))]
    Ok(Mapping { map })
}

impl Deref for Mapping {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.map
    }
}

impl AsRef<[u8]> for Mapping {
    fn as_ref(&self) -> &[u8] {
        &self.map
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Some(slot) = self.slot {
            guard::unwatch(slot);
        }
    }
}

impl std::fmt::Debug for Mapping {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mapping")
            .field("len", &self.map.len())
            .finish_non_exhaustive()
    }
}

/// The `SIGBUS` handler and the table of guarded ranges it reads.
#[cfg(target_os = "linux")]
mod guard {
    use std::sync::Once;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Guarded maps at once; more are mapped unguarded.
    const SLOTS: usize = 64;

    /// Each slot: the start and length of a guarded range, or a length of 0.
    static STARTS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
    static LENS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
    static INSTALL: Once = Once::new();

    /// Guards `len` bytes from `start`; the slot, if one was free.
    pub(super) fn watch(start: usize, len: usize) -> Option<usize> {
        if len == 0 {
            return None;
        }
        INSTALL.call_once(install);
        for (slot, slot_len) in LENS.iter().enumerate() {
            // Claim the slot with a length that no range has, then fill it.
            if slot_len
                .compare_exchange(0, usize::MAX, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                STARTS[slot].store(start, Ordering::SeqCst);
                slot_len.store(len, Ordering::SeqCst);
                return Some(slot);
            }
        }
        None
    }

    pub(super) fn unwatch(slot: usize) {
        LENS[slot].store(0, Ordering::SeqCst);
    }

    fn install() {
        // SAFETY: `handle` has the signature SA_SIGINFO asks for and only
        // makes async-signal-safe calls (atomics, mmap, sigaction).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handle as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_NODEFER;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
        }
    }

    /// On a fault inside a guarded range: note the change and put a page of
    /// zeros where the file's page was, so the read that faulted returns 0.
    /// Anywhere else: restore the default action, which the repeated fault
    /// then takes.
    extern "C" fn handle(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo_t for SIGBUS.
        let address = unsafe { (*info).si_addr() } as usize;
        let guarded = (0..SLOTS).any(|slot| {
            let len = LENS[slot].load(Ordering::SeqCst);
            let start = STARTS[slot].load(Ordering::SeqCst);
            len != 0 && len != usize::MAX && address >= start && address - start < len
        });
        // SAFETY: sysconf, mmap and sigaction are plain system calls; the
        // page replaced lies inside a live read-only map of ours.
        unsafe {
            if guarded {
                super::CHANGED.store(true, std::sync::atomic::Ordering::SeqCst);
                let page = libc::sysconf(libc::_SC_PAGESIZE).max(4096) as usize;
                let at = address & !(page - 1);
                let zeros = libc::mmap(
                    at as *mut libc::c_void,
                    page,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                );
                if zeros != libc::MAP_FAILED {
                    return;
                }
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = libc::SIG_DFL;
            libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
        }
    }
}
