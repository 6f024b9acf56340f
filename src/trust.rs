//! Data files proven once and trusted while unchanged.
//!
//! Checksums catch accidents, not wrong contents: a file with a changed
//! entry and its checksums made right again passes them. So a file of the
//! data folder answers nothing until it is **proven**: a table, that every
//! board reaches the goal in the fewest moves by the lexicographically
//! smallest letters (`table::prove`); pattern databases, that every entry
//! is what their search makes (`PdbTable::prove`).
//!
//! A proof costs about what making the file costs (a 12-cell table 25 s,
//! the 15-puzzle's 7-8 databases a few minutes), so it is recorded, keyed
//! by the file's [`Stamp`]: device, inode, size, and modification and
//! status-change times, one of which changes whenever the file's bytes may
//! have (the status-change time cannot be set back but by the kernel). The
//! stamp is always taken from the descriptor the proof read, before it read
//! and again after, never from the file's name, which may name another file
//! by then. Later runs trust the file at once while its stamp is the one
//! recorded; `eight-gen` records the proof of each file it writes or finds
//! equal to what it makes, read back through the same descriptor.
//!
//! The record is kept beside the file, as `NAME.proof`; where the data
//! folder cannot be written (read-only, another user's), in the user's cache
//! folder instead (`~/.cache/eight/proofs/DEV-INODE.proof` on Linux), so
//! that a read-only data folder is not proven again on every run.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::map::Stamp;

/// What a record starts with.
const MAGIC: &str = "eight proof";

/// The version of the proofs: a record made by another version of the
/// program is not taken (its proofs may have proven less).
const PROVER: &str = concat!(env!("CARGO_PKG_VERSION"), "/1");

/// The longest record read.
const MAX_RECORD: u64 = 256;

/// Where the record of a proof of `path` is kept when it can be: beside
/// it, its name with `.proof` added.
pub fn record_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".proof");
    path.with_file_name(name)
}

/// Where the record of a proof of the file stamped `stamp` is kept when it
/// cannot be kept beside the file: in the user's cache folder, named by the
/// file's device and inode.
pub fn cache_record_path(stamp: &Stamp) -> Option<PathBuf> {
    let dir = dirs::cache_dir()?;
    Some(
        dir.join("eight")
            .join("proofs")
            .join(format!("{}-{}.proof", stamp.dev, stamp.ino)),
    )
}

/// The text of the record of a proof of a file stamped `stamp`.
fn record_text(stamp: &Stamp) -> String {
    format!("{MAGIC} {PROVER} {stamp}\n")
}

/// The start of the record at `at`, if it is a regular file: opened as data
/// files are ([`crate::map::open`]), so a FIFO or a device is never waited
/// on, and read no further than any record goes.
fn read_record(at: &Path) -> Option<String> {
    let file = crate::map::open(at).ok()?;
    let mut text = String::new();
    file.take(MAX_RECORD).read_to_string(&mut text).ok()?;
    Some(text)
}

/// Where a proof of `path`, as `stamp` says it is, is recorded, if it is.
pub fn recorded(path: &Path, stamp: &Stamp) -> Option<PathBuf> {
    let text = record_text(stamp);
    [Some(record_path(path)), cache_record_path(stamp)]
        .into_iter()
        .flatten()
        .find(|at| read_record(at).is_some_and(|record| record == text))
}

/// Whether a proof of `path` is recorded for the file as `stamp` says it
/// is.
pub fn is_recorded(path: &Path, stamp: &Stamp) -> bool {
    recorded(path, stamp).is_some()
}

/// The stamp of `file` if it holds exactly `expected`, read through its
/// descriptor and stamped the same before the read and after: the stamp a
/// proof of it may be recorded under. `None` if it holds anything else (it
/// is read no further than one byte past `expected`).
///
/// # Errors
///
/// Fails if the file cannot be read.
pub fn holds(file: &File, expected: &[u8]) -> io::Result<Option<Stamp>> {
    use std::os::unix::fs::FileExt;
    let before = Stamp::of(file)?;
    if before.size != expected.len() as u64 {
        return Ok(None);
    }
    let mut buffer = vec![0u8; 1 << 20];
    let mut at = 0usize;
    loop {
        let read = file.read_at(&mut buffer, at as u64)?;
        if read == 0 {
            break;
        }
        let end = at + read;
        if end > expected.len() || buffer[..read] != expected[at..end] {
            return Ok(None);
        }
        at = end;
    }
    let after = Stamp::of(file)?;
    Ok((at == expected.len() && after == before).then_some(before))
}

/// Records that the file at `path`, stamped `stamp`, is proven: beside it,
/// else in the user's cache folder; where the record went.
///
/// # Errors
///
/// Fails if the record can be written in neither place; the error is the
/// one beside the file.
pub fn record(path: &Path, stamp: &Stamp) -> io::Result<PathBuf> {
    let beside = record_path(path);
    let error = match write_record(&beside, stamp) {
        Ok(()) => return Ok(beside),
        Err(error) => error,
    };
    let cached = cache_record_path(stamp).ok_or_else(|| io::Error::other("no cache folder"));
    cached
        .and_then(|at| {
            if let Some(dir) = at.parent() {
                fs::create_dir_all(dir)?;
            }
            write_record(&at, stamp).map(|()| at)
        })
        .map_err(|_| error)
}

/// Writes the record of `stamp` at `target`: under a name of its own in the
/// same folder, then renamed into place.
fn write_record(target: &Path, stamp: &Stamp) -> io::Result<()> {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(format!(
        ".{}.{}.partial",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    ));
    let partial = target.with_file_name(name);
    let written = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&partial)
        .and_then(|mut file| file.write_all(record_text(stamp).as_bytes()))
        .and_then(|()| fs::rename(&partial, target));
    if written.is_err() {
        let _ = fs::remove_file(&partial);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_holds_for_its_stamp_alone() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let path = dir.join("2x7-6-7-blank0.pdb");
        fs::write(&path, b"bytes").unwrap();
        let stamp = Stamp::of(&File::open(&path).unwrap()).unwrap();
        assert!(!is_recorded(&path, &stamp));
        record(&path, &stamp).unwrap();
        assert!(is_recorded(&path, &stamp));
        assert_eq!(record_path(&path), dir.join("2x7-6-7-blank0.pdb.proof"));
        for other in [
            Stamp { size: 6, ..stamp },
            Stamp {
                ino: stamp.ino + 1,
                ..stamp
            },
            Stamp {
                modified: stamp.modified + 1,
                ..stamp
            },
            Stamp {
                changed: stamp.changed + 1,
                ..stamp
            },
        ] {
            assert!(!is_recorded(&path, &other));
        }
        // Rewritten in place: another stamp (a tick of the file system's
        // clock later: writes within one tick may share their times).
        std::thread::sleep(std::time::Duration::from_millis(30));
        fs::write(&path, b"other").unwrap();
        let now = Stamp::of(&File::open(&path).unwrap()).unwrap();
        assert_ne!(now, stamp);
        assert!(!is_recorded(&path, &now));
    }

    /// The stamp a proof is recorded under is the one of the descriptor
    /// read, before and after the read: a file put in place of the one read
    /// has another, and bytes other than those expected have none.
    #[test]
    fn a_file_holds_its_bytes_under_the_stamp_of_the_descriptor_read() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let path = dir.join("2x5-blank9.table");
        fs::write(&path, b"the bytes proven").unwrap();
        let read = crate::map::open(&path).unwrap();
        let stamp = Stamp::of(&read).unwrap();
        assert_eq!(holds(&read, b"the bytes proven").unwrap(), Some(stamp));
        for other in [
            &b"the bytes proveN"[..],
            b"the bytes prove",
            b"the bytes proven!",
        ] {
            assert_eq!(holds(&read, other).unwrap(), None);
        }
        // Another file renamed over the name: the descriptor read still
        // tells the file it read, and its stamp is not the new file's.
        let other = dir.join("other");
        fs::write(&other, b"the bytes altered").unwrap();
        fs::rename(&other, &path).unwrap();
        let read_now = holds(&read, b"the bytes proven").unwrap().unwrap();
        assert_eq!((read_now.dev, read_now.ino), (stamp.dev, stamp.ino));
        record(&path, &read_now).unwrap();
        let now = Stamp::of(&File::open(&path).unwrap()).unwrap();
        assert_ne!((now.dev, now.ino), (stamp.dev, stamp.ino));
        assert!(!is_recorded(&path, &now), "the new file is not trusted");
    }

    /// A record that is a FIFO is no record, and reading it never waits.
    #[test]
    fn a_record_that_is_a_fifo_is_not_waited_on() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let path = dir.join("3x4-blank11.table");
        fs::write(&path, b"bytes").unwrap();
        let stamp = Stamp::of(&File::open(&path).unwrap()).unwrap();
        let fifo = std::ffi::CString::new(record_path(&path).to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        assert!(!is_recorded(&path, &stamp));
    }
}
