//! Opening and memory-mapping data files: the one place that does it.
//!
//! A memory map reads a file in place, so a large database costs only the
//! pages a query touches. Its danger is the file changing underneath: a
//! page past a new, shorter end raises `SIGBUS`, which would kill the
//! process with every answer not yet written. A program that calls
//! [`guard_truncation`] (the `eight` binary and the Python module do; the
//! library never installs a signal handler of itself) has its maps guarded: on Linux, a `SIGBUS`
//! inside a guarded map is caught and the page replaced by zeros so the
//! reader can go on.
//!
//! Every [`Mapping`] is watched: its [`Watch`] tells whether the file's
//! bytes may have changed since it was mapped (a file cut short or rewritten
//! in place has another [`Stamp`]). Whoever reads a map checks its watch
//! after the work that read it and drops that work's results. A file
//! replaced by renaming another over its name, as `eight-gen` does, keeps
//! its bytes: its mapping stays good, and a solver loaded anew reads the
//! new file.

use std::fs::{File, OpenOptions};
use std::io;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether maps are guarded against their files being cut short.
static GUARDED: AtomicBool = AtomicBool::new(false);

/// See [`DataDir::guard_truncation`](crate::DataDir::guard_truncation).
pub(crate) fn guard_truncation() {
    #[cfg(target_os = "linux")]
    guard::install();
    GUARDED.store(true, Ordering::SeqCst);
}

/// What changes whenever a file's bytes may have: its device and inode (a
/// file put in its place), size, and modification and status-change times
/// (a file rewritten in place; the status-change time cannot be set back by
/// anyone but the kernel).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stamp {
    /// The device.
    pub dev: u64,
    /// The inode.
    pub ino: u64,
    /// The size in bytes.
    pub size: u64,
    /// The modification time, in nanoseconds since the epoch.
    pub modified: i128,
    /// The status-change time, in nanoseconds since the epoch.
    pub changed: i128,
}

impl Stamp {
    /// The stamp of an open file, as it is now.
    ///
    /// # Errors
    ///
    /// Fails if the file's metadata cannot be read.
    pub fn of(file: &File) -> io::Result<Stamp> {
        Ok(Stamp::of_metadata(&file.metadata()?))
    }

    fn of_metadata(meta: &std::fs::Metadata) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        let nanos =
            |seconds: i64, nanos: i64| i128::from(seconds) * 1_000_000_000 + i128::from(nanos);
        Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            modified: nanos(meta.mtime(), meta.mtime_nsec()),
            changed: nanos(meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// Whether the open `file`, stamped `self` before, may hold other bytes
    /// now. A file with no name left (another renamed over it, or removed)
    /// changes its status-change time when it loses its last name, and
    /// nothing else: its bytes are what they were while its size and
    /// modification time are.
    pub fn changed_since(&self, file: &File) -> bool {
        use std::os::unix::fs::MetadataExt;
        let Ok(meta) = file.metadata() else {
            return true;
        };
        let now = Stamp::of_metadata(&meta);
        let unlinked = meta.nlink() == 0
            && Stamp {
                changed: self.changed,
                ..now
            } == *self;
        now != *self && !unlinked
    }
}

/// `dev ino size modified changed`, in decimal.
impl std::fmt::Display for Stamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} {} {} {}",
            self.dev, self.ino, self.size, self.modified, self.changed
        )
    }
}

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

impl From<OpenError> for io::Error {
    fn from(error: OpenError) -> io::Error {
        match error {
            OpenError::Missing => io::Error::new(io::ErrorKind::NotFound, error.to_string()),
            OpenError::Io(error) => error,
            error => io::Error::other(error.to_string()),
        }
    }
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

/// A read-only memory map of a whole file, watched for its file changing
/// underneath (see the [module](self) docs).
pub struct Mapping {
    map: memmap2::Mmap,
    #[cfg(target_os = "linux")]
    slot: Option<usize>,
    watch: Watch,
}

/// Tells whether a mapped file's bytes may have changed since it was
/// mapped; cheap to clone, and kept by whoever answers from the map.
#[derive(Clone, Debug)]
pub struct Watch(Arc<Watched>);

#[derive(Debug)]
struct Watched {
    /// The file, held open so that its stamp can be looked at again.
    file: File,
    /// Its name, for messages.
    path: PathBuf,
    /// Its stamp when mapped.
    stamp: Stamp,
    /// Whether it was found changed: once changed, always changed.
    changed: AtomicBool,
}

impl Watch {
    /// Whether the file's bytes may differ from those mapped: it was cut
    /// short or written to (its [`Stamp`] is another). Once true, it stays
    /// true.
    pub fn changed(&self) -> bool {
        let watched = &self.0;
        if watched.changed.load(Ordering::Relaxed) {
            return true;
        }
        let changed = watched.stamp.changed_since(&watched.file);
        if changed {
            watched.changed.store(true, Ordering::Relaxed);
        }
        changed
    }

    /// Whether the file's path names another file now, or none: another
    /// was renamed over it (as `eight-gen` does), or it was removed. The
    /// mapping still reads the file it mapped; one made anew would read
    /// the new one.
    pub fn replaced(&self) -> bool {
        let watched = &self.0;
        open(&watched.path)
            .ok()
            .and_then(|file| Stamp::of(&file).ok())
            .is_none_or(|now| (now.dev, now.ino) != (watched.stamp.dev, watched.stamp.ino))
    }

    /// The file's path when it was mapped.
    pub fn path(&self) -> &Path {
        &self.0.path
    }

    /// The file's stamp when it was mapped.
    pub fn stamp(&self) -> Stamp {
        self.0.stamp
    }

    /// The file mapped, open.
    pub fn file(&self) -> &File {
        &self.0.file
    }
}

/// Maps all of `file`, opened from `path`, for reading.
///
/// # Safety
///
/// The map shows the file's bytes as they are on disk at each read. The
/// caller must not rely on them staying as they were checked: a file
/// rewritten in place shows new bytes, and one made shorter shows zeros past
/// its new end once [`guard_truncation`] was called (on Linux; else the read
/// ends the process with `SIGBUS`). Readers in this crate check every value
/// they follow against bounds before use, and drop what they computed once
/// the mapping's [`Watch`] says the file changed. `eight-gen` never changes
/// a file in place: it writes a new one and renames it.
pub unsafe fn map(file: &File, path: &Path) -> Result<Mapping, OpenError> {
    let file = file.try_clone().map_err(OpenError::Io)?;
    let stamp = Stamp::of(&file).map_err(OpenError::Io)?;
    // SAFETY: see this function's contract, which the caller accepts; the
    // guard below keeps a shortened file from killing the process.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(OpenError::Io)?;
    // Lookups land all over a large file: with huge pages asked for, a
    // fault reads the file in 2 MB pages, mapped whole, and the lookups miss
    // the TLB far less (10,000 random 4x4 boards over 7-8: 0.90 of the time
    // on 4 KB pages, 0.82-1.00 over eight pairs). Advice only: where it is
    // not taken, nothing changes.
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    Ok(Mapping {
        #[cfg(target_os = "linux")]
        slot: match GUARDED.load(Ordering::SeqCst) {
            true => guard::watch(map.as_ptr() as usize, map.len()),
            false => None,
        },
        map,
        watch: Watch(Arc::new(Watched {
            file,
            path: path.to_path_buf(),
            stamp,
            changed: AtomicBool::new(false),
        })),
    })
}

impl Mapping {
    /// The watch on the file mapped.
    pub fn watch(&self) -> &Watch {
        &self.watch
    }
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
            .field("path", &self.watch.path())
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

    /// Installs the handler, once.
    pub(super) fn install() {
        INSTALL.call_once(install_handler);
    }

    fn install_handler() {
        // SAFETY: `handle` has the signature SA_SIGINFO asks for and only
        // makes async-signal-safe calls (atomics, mmap, sigaction).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handle as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_NODEFER;
            libc::sigemptyset(&mut action.sa_mask);
            let mut previous: libc::sigaction = std::mem::zeroed();
            libc::sigaction(libc::SIGBUS, &action, &mut previous);
            let _ = PREVIOUS.set(previous);
        }
    }

    /// The action `SIGBUS` had before (the default, or a host's own, such
    /// as Python's faulthandler), taken by a fault outside every guarded
    /// map.
    static PREVIOUS: std::sync::OnceLock<libc::sigaction> = std::sync::OnceLock::new();

    /// On a fault inside a guarded range: put a page of zeros where the file's page was, so the read that faulted returns 0.
    /// Anywhere else: restore the action from before the handler (the
    /// default, unless the host had one), which the repeated fault then
    /// takes.
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
            let action = match PREVIOUS.get() {
                Some(previous) => *previous,
                None => {
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = libc::SIG_DFL;
                    action
                }
            };
            libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
        }
    }
}
