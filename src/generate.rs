//! Making the data offline, as `eight-gen` does: [`make`] makes any
//! [`DataFile`](crate::data::DataFile) (the tables of next moves, by a
//! reverse breadth-first search from each goal, and the pattern databases),
//! each in the one file format. Generation is deterministic: the same code
//! makes the same bytes. [`publish`] puts a file in place whole, and
//! [`file_holds`] reads it back so that its proof can be recorded.
//!
//! # Example
//!
//! ```
//! use eight::data::DataFile;
//! use eight::{Board, DataDir, Metric, Shape, Solver, generate};
//!
//! // The 2x3 table toward the goal with the blank in its last cell, made
//! // into a data folder and answering from there.
//! let shape: Shape = "2x3".parse()?;
//! let file = DataFile::table(shape, Metric::Stm, Some(5));
//! let bytes = generate::make(&file, |_step| {})?;
//! generate::prove(&bytes)?;
//! let folder = tempfile::tempdir()?;
//! generate::publish(&folder.path().join(file.name()), &bytes)?;
//! let board = Board::parse(shape, b"1 2 3 4 x 5")?;
//! let solver = Solver::load(shape, 5, Metric::Stm, &DataDir::at(folder.path()), None, |_| {})?;
//! assert_eq!(solver.solve(&board)?.to_string(), "r");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use crate::map::Stamp;

pub use crate::generate::make::{PublishError, make, make_until, publish};

mod make;

/// A file found to hold the bytes made, as it was read: its proof may be
/// recorded, so that `eight` trusts it while it stays unchanged.
#[derive(Clone, Debug)]
pub struct Holding {
    stamp: Stamp,
}

impl Holding {
    /// Records that the file at `path` (the one read) is proven: beside it,
    /// else in the user's cache folder; where the record went.
    ///
    /// # Errors
    ///
    /// Fails if the record can be written in neither place; the error is
    /// the one beside the file.
    pub fn record_proof(&self, path: &Path) -> io::Result<PathBuf> {
        crate::trust::record(path, &self.stamp)
    }
}

/// Whether `file` holds exactly `bytes`, read as it is now: `Some` with
/// what its proof is recorded under, `None` if it holds anything else (it
/// is read no further than one byte past `bytes`).
///
/// # Errors
///
/// Fails if the file cannot be read.
pub fn file_holds(file: &File, bytes: &[u8]) -> io::Result<Option<Holding>> {
    Ok(crate::trust::holds(file, bytes)?.map(|stamp| Holding { stamp }))
}

/// Opens the data file at `path` to be read back. It never blocks: a FIFO
/// or a device is refused, not waited on.
///
/// # Errors
///
/// Fails if there is no regular file there, or it cannot be opened.
pub fn open(path: &Path) -> io::Result<File> {
    crate::map::open(path).map_err(|err| match err {
        crate::map::OpenError::Io(err) => err,
        err => io::Error::other(err.to_string()),
    })
}

/// Proves a table's bytes right, as a solver does before its first answer:
/// every board's next moves lead to the goal in the moves the table says.
/// Files of pattern databases are left to their proof at first use.
///
/// # Errors
///
/// Fails with what is wrong in the table.
pub fn prove(bytes: &[u8]) -> Result<(), crate::TableError> {
    match crate::table::Table::new(bytes) {
        Ok(table) => table.verify(),
        Err(crate::TableError::File(crate::FileError::WrongKind { .. })) => Ok(()),
        Err(err) => Err(err),
    }
}
