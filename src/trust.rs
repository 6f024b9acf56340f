//! Data files proven once and trusted while unchanged.
//!
//! Checksums catch accidents, not wrong contents: a file with a changed
//! entry and its checksums made right again passes them. So a file of the
//! data folder answers nothing until it is **proven**: a table, that every
//! board reaches the goal in the fewest moves by the lexicographically
//! smallest letters ([`crate::table::prove`]); pattern databases, that every
//! entry is what their search makes ([`crate::pdb::PdbTable::prove`]).
//!
//! A proof costs about what making the file costs (a 12-cell table 25 s,
//! the 15-puzzle's 7-8 databases a few minutes), so it is recorded beside
//! the file, as `NAME.proof`, keyed by the file's [`Stamp`]: device, inode,
//! size, and modification and status-change times, one of which changes
//! whenever the file's bytes may have (the status-change time cannot be set
//! back but by the kernel). Later runs trust the file at once while its
//! stamp is the one recorded; `eight-gen` records the proof of each file it
//! writes, since it made it. A record that cannot be written (a read-only
//! data folder) only means the proof is made again on the next run.

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

/// Where the record of a proof of `path` is kept: beside it, its name with
/// `.proof` added.
pub fn record_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".proof");
    path.with_file_name(name)
}

/// The text of the record of a proof of a file stamped `stamp`.
fn record_text(stamp: &Stamp) -> String {
    format!("{MAGIC} {PROVER} {stamp}\n")
}

/// Whether a proof of `path` is recorded for the file as `stamp` says it
/// is.
pub fn is_recorded(path: &Path, stamp: &Stamp) -> bool {
    let mut text = String::new();
    File::open(record_path(path))
        .and_then(|file| file.take(MAX_RECORD).read_to_string(&mut text))
        .is_ok_and(|_| text == record_text(stamp))
}

/// Records that the file at `path`, as it is now, is proven: for the
/// program that just made it, or found it equal to what it makes.
///
/// # Errors
///
/// Fails if the file cannot be opened or the record written.
pub fn record_as_is(path: &Path) -> Result<(), String> {
    let file = crate::map::open(path).map_err(|err| err.to_string())?;
    let stamp = Stamp::of(&file).map_err(|err| err.to_string())?;
    record(path, &stamp).map_err(|err| err.to_string())
}

/// Records that `path`, stamped `stamp`, is proven: written under a name of
/// its own in the same folder, then renamed into place.
///
/// # Errors
///
/// Fails if the record cannot be written.
pub fn record(path: &Path, stamp: &Stamp) -> io::Result<()> {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let target = record_path(path);
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
        .and_then(|()| fs::rename(&partial, &target));
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
        let dir = tempfile_dir();
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
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A folder of this test's own.
    fn tempfile_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("eight-trust-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        dir
    }
}
