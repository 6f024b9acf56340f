//! One data file made and put in place, as `eight-gen` makes it: the same
//! bytes, written whole, its proof recorded.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::bfs::MakeCodes;
use crate::board::Board;
use crate::data::{DataFile, builtin_groups, database_blank, database_shape};
use crate::file::Codec;
use crate::metric::Metric;
use crate::pdb::{PartitionError, PatternDb, partition};
use crate::progress::Step;
use crate::stop::Stop;

/// Makes `file` as `eight-gen` does (the same bytes), `progress` told how
/// far it has come; `Ok(None)` once `stop` is asked for: every builder
/// looks at it every few thousand boards or placements, so a making stops
/// within milliseconds, nothing made.
///
/// # Errors
///
/// Fails if the databases' group sizes do not fit the shape.
///
/// # Panics
///
/// Panics if `file` is a table of a shape of more than 12 cells.
pub fn make(
    file: &DataFile,
    stop: &Stop,
    mut progress: impl FnMut(Step<'_>),
) -> Result<Option<Vec<u8>>, PartitionError> {
    let shape = file.shape;
    let blanks: Vec<usize> = match file.blank {
        Some(blank) => vec![blank],
        None => (0..shape.cells()).collect(),
    };
    match (&file.sizes, file.metric) {
        (None, metric) => {
            let codes: (MakeCodes, Codec) = match metric {
                Metric::Stm => (crate::bfs::codes_until, Codec::Zstd2Bit),
                Metric::Mtm => (crate::mtm::codes_until, Codec::ZstdNibbles),
            };
            Ok(crate::bfs::generate_until(
                shape,
                &blanks,
                codes,
                &mut progress,
                stop,
            ))
        }
        (Some(sizes), Metric::Stm) => {
            // A symmetry class's databases, on the shape with no more rows
            // than columns.
            let blank = blanks[0];
            let goal = Board::canonical(database_shape(shape), database_blank(shape, blank));
            let (groups, codec) = match file.is_builtin_databases() {
                true => (builtin_groups(blank), Codec::ZstdNibbles),
                false => (
                    partition(&goal, sizes)?,
                    match file.walls() {
                        true => Codec::Raw8Walls,
                        false => Codec::Raw8,
                    },
                ),
            };
            let mut dbs: Vec<PatternDb> = Vec::with_capacity(groups.len());
            for tiles in &groups {
                let part = format!("tiles {tiles:?}");
                let made = PatternDb::generate_until(
                    &goal,
                    tiles,
                    file.walls(),
                    |step| {
                        progress(Step {
                            part: &part,
                            ..step
                        })
                    },
                    stop,
                );
                match made {
                    Some(db) => dbs.push(db),
                    None => return Ok(None),
                }
            }
            let mut bytes = Vec::new();
            crate::pdb::write(&goal, &dbs, codec, &mut bytes)
                .expect("writing into memory does not fail");
            Ok(Some(bytes))
        }
        (Some(sizes), Metric::Mtm) => {
            let goal = Board::canonical(shape, blanks[0]);
            partition(&goal, sizes)?;
            Ok(crate::mtm::generate_databases_until(
                &goal,
                sizes,
                &mut progress,
                stop,
            ))
        }
    }
}

/// Why a file could not be put in place.
#[derive(Debug, thiserror::Error)]
#[error("cannot {what} {}: {error}", path.display())]
struct PublishError {
    what: &'static str,
    path: PathBuf,
    error: io::Error,
}

/// Puts `bytes` at `path` all at once: they are written to a file with no
/// name in the same folder (made if need be), which is then given a name of
/// its own (unique to this call) and renamed over `path`. A reader sees the
/// old file or the new one, never half of one; two writers at once never
/// share a file; and a call that fails or is killed while writing leaves
/// nothing behind.
///
/// # Errors
///
/// Fails if the folder cannot be made or written, naming the path.
pub fn publish(path: &Path, bytes: &[u8]) -> io::Result<()> {
    put(path, bytes)
        .map(drop)
        .map_err(|err| io::Error::new(err.error.kind(), err.to_string()))
}

/// [`publish`], the file written coming back open.
fn put(path: &Path, bytes: &[u8]) -> Result<File, PublishError> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let failed = |what: &'static str, at: &Path| {
        let at = at.to_path_buf();
        move |error| PublishError {
            what,
            path: at,
            error,
        }
    };
    if dir.exists() && !dir.is_dir() {
        return Err(PublishError {
            what: "write into",
            path: dir.to_path_buf(),
            error: io::Error::other("it is not a folder"),
        });
    }
    std::fs::create_dir_all(dir).map_err(failed("create", dir))?;
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = dir.join(format!(
        ".{name}.{}.{}.partial",
        std::process::id(),
        unique()
    ));
    let written = match write_unnamed(dir, bytes, &temporary) {
        Ok(file) => file,
        // No unnamed files here (an old kernel, another file system): a
        // named one, removed again if anything fails.
        Err(_) => write_named(&temporary, bytes).inspect_err(|_| {
            let _ = std::fs::remove_file(&temporary);
        })?,
    };
    std::fs::rename(&temporary, path).map_err(|error| {
        let _ = std::fs::remove_file(&temporary);
        PublishError {
            what: "move into place",
            path: path.to_path_buf(),
            error,
        }
    })?;
    Ok(written)
}

/// Writes `bytes` to a file with no name in `dir`, synced, then links it
/// at `temporary`.
fn write_unnamed(dir: &Path, bytes: &[u8], temporary: &Path) -> io::Result<File> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_TMPFILE)
        .mode(0o644)
        .open(dir)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    link(&file, temporary)?;
    Ok(file)
}

/// Writes `bytes` to a new file at `temporary`, synced.
fn write_named(temporary: &Path, bytes: &[u8]) -> Result<File, PublishError> {
    let failed = |error| PublishError {
        what: "write",
        path: temporary.to_path_buf(),
        error,
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(0o644)
        .open(temporary)
        .map_err(failed)?;
    file.write_all(bytes).map_err(failed)?;
    file.sync_all().map_err(failed)?;
    Ok(file)
}

/// A number unique to this call within the process.
fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    u64::from(nanos) << 16 | NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Gives the unnamed `file` the name `to`.
fn link(file: &File, to: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::fd::AsRawFd;
    use std::os::unix::ffi::OsStrExt;
    let from = CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))?;
    let to = CString::new(to.as_os_str().as_bytes())?;
    // SAFETY: both paths are NUL-terminated strings that outlive the call.
    let done = unsafe {
        libc::linkat(
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            libc::AT_SYMLINK_FOLLOW,
        )
    };
    match done {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}
