//! Opening data files and trusting them: mapped, checked, and proven once
//! before their first answer.

use crate::answer::{Damage, Problem};
use crate::data::DataFile;
use crate::map::{self, Mapping, OpenError, Stamp, Watch};
use crate::pdb::PdbTable;
use crate::solver::DataError;
use crate::trust;

/// The sizes of a set of databases' groups.
pub(super) fn group_sizes<D: AsRef<[u8]>>(table: &PdbTable<D>) -> Vec<usize> {
    (0..table.len()).map(|g| table.tiles(g).len()).collect()
}

/// Opens and maps the file at `path`.
fn open_map(path: &std::path::Path) -> Result<Mapping, OpenError> {
    let file = map::open(path)?;
    // SAFETY: see `map::map`: every reader here checks what it follows
    // against bounds, and callers check `map::changed` after use (the
    // stream after every batch of answers, the search as it goes).
    unsafe { map::map(&file, path) }
}

/// Why the file at `path`, made by `build`, could not be opened.
fn open_error(path: &std::path::Path, build: &str, problem: OpenError) -> DataError {
    DataError::Open {
        path: path.to_path_buf(),
        problem: problem.into(),
        build: build.to_string(),
    }
}

/// Opens and maps a data file, or says what is missing and how to make it.
pub(super) fn map_data(
    path: &std::path::Path,
    what: &str,
    file: &DataFile,
    build: &str,
) -> Result<Mapping, DataError> {
    open_map(path).map_err(|problem| match problem {
        OpenError::Missing => DataError::Missing {
            what: what.to_string(),
            path: path.to_path_buf(),
            build: build.to_string(),
            cost: file.cost(),
            file: Box::new(file.clone()),
        },
        problem => open_error(path, build, problem),
    })
}

/// Opens and maps the file at `path`; `build` makes it anew, for messages.
pub(super) fn map_file(path: &std::path::Path, build: &str) -> Result<Mapping, DataError> {
    open_map(path).map_err(|problem| open_error(path, build, problem))
}

/// Opens and maps the file at `path` if there is one; `build` makes it
/// anew, for messages.
pub(super) fn map_present(
    path: &std::path::Path,
    build: &str,
) -> Result<Option<Mapping>, DataError> {
    match open_map(path) {
        Err(OpenError::Missing) => Ok(None),
        map => map
            .map(Some)
            .map_err(|problem| open_error(path, build, problem)),
    }
}

/// What a damaged file at `path`, made anew by `build`, is said to be.
pub(super) fn damaged(path: &std::path::Path, build: &str) -> impl Fn(Damage) -> DataError + use<> {
    let (path, build) = (path.to_path_buf(), build.to_string());
    move |problem| DataError::Damaged {
        path: path.clone(),
        problem,
        build: build.clone(),
    }
}

/// How far the proof of a data file has come: a data-folder file is
/// proven before its first answer, and the proof recorded (beside it as
/// `NAME.proof`, else in the user's cache folder) for later runs, which
/// trust the file while it is unchanged.
#[derive(Clone, Copy, Debug)]
pub struct Proving<'a> {
    /// The file.
    pub path: &'a std::path::Path,
    /// The work done, in units of the proof's own (placements searched,
    /// for pattern databases).
    pub done: u64,
    /// The work in all, in the same units; `done == of` once proven.
    pub of: u64,
    /// Once proven: where the proof is recorded, or why it could not be
    /// (it is made again on the next run).
    pub recorded: Option<Result<&'a std::path::Path, &'a str>>,
}

/// Proves the data-folder file that `watch` watches, before its first
/// answer, unless a proof of it as it was mapped is recorded (see
/// [`crate::trust`]); then records the proof. `prove` reports its work
/// done and in all.
pub(super) fn prove_once(
    watch: &Watch,
    progress: &mut dyn FnMut(&Proving<'_>),
    prove: impl FnOnce(&mut dyn FnMut(u64, u64)) -> Result<(), Damage>,
) -> Result<(), Damage> {
    let (path, stamp) = (watch.path(), watch.stamp());
    if trust::is_recorded(path, &stamp) {
        return Ok(());
    }
    let proving = |done, of| Proving {
        path,
        done,
        of,
        recorded: None,
    };
    progress(&proving(0, 1));
    prove(&mut |done, of| progress(&proving(done, of)))?;
    // The proof is of the bytes it read only if the file stayed as it was,
    // as its descriptor tells (its name may name another file by now).
    if watch.changed() {
        return Err(Problem::Changed.into());
    }
    // Unrecorded, the proof is made again next time: nothing worse. A file
    // replaced since is left to its own record.
    let recorded = match Stamp::of(watch.file()) {
        Ok(now) if now == stamp => trust::record(path, &stamp).map_err(|err| err.to_string()),
        _ => Err("the file was replaced under its name".to_string()),
    };
    progress(&Proving {
        recorded: Some(recorded.as_deref().map_err(String::as_str)),
        ..proving(1, 1)
    });
    Ok(())
}

/// Bytes a solver reads: built into the program, mapped from a file, or in
/// memory.
#[derive(Debug)]
#[non_exhaustive]
pub(crate) enum Data {
    /// Built into the program.
    Static(&'static [u8]),
    /// A file's memory map.
    Mapped(Mapping),
    /// In memory.
    Owned(Vec<u8>),
}

impl Data {
    /// The watch on the file mapped, if the bytes are a file's.
    pub(super) fn watch(&self) -> Option<&Watch> {
        match self {
            Data::Mapped(map) => Some(map.watch()),
            _ => None,
        }
    }
}

impl AsRef<[u8]> for Data {
    fn as_ref(&self) -> &[u8] {
        match self {
            Data::Static(bytes) => bytes,
            Data::Mapped(map) => map,
            Data::Owned(bytes) => bytes,
        }
    }
}
