//! Making the data offline, as `eight-gen` does: [`make`] makes any
//! [`DataFile`](crate::data::DataFile) (the tables of next moves, by a
//! reverse breadth-first search from each goal, and the pattern databases),
//! each in the one file format. Generation is deterministic: the same code
//! makes the same bytes. [`publish`] puts a file in place whole, and
//! [`record_proof`] reads it back so that `eight` trusts it at once.
//!
//! # Example
//!
//! ```
//! use eight::data::DataFile;
//! use eight::{Board, DataDir, Metric, Options, Shape, Solver, Stop, generate};
//!
//! // The 2x3 table toward the goal with the blank in its last cell, made
//! // into a data folder and answering from there.
//! let shape: Shape = "2x3".parse()?;
//! let file = DataFile::table(shape, Metric::Stm, Some(5));
//! let bytes = generate::make(&file, &Stop::new(), |_step| {})?.expect("not stopped");
//! generate::prove(&bytes)?;
//! let folder = tempfile::tempdir()?;
//! generate::publish(&folder.path().join(file.name()), &bytes)?;
//! let board = Board::parse(shape, b"1 2 3 4 x 5")?;
//! let options = Options::new().with_data(Ok(DataDir::at(folder.path())));
//! let solver = Solver::open(&Board::canonical(shape, 5), &options)?;
//! assert_eq!(solver.solve(&board)?.to_string(), "r");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io;
use std::path::{Path, PathBuf};

pub use crate::generate::make::{make, publish};

mod make;

/// The stamp of the file at `path` as it was read, if it holds exactly
/// `bytes`: what its proof is recorded under.
fn holding(path: &Path, bytes: &[u8]) -> io::Result<Option<crate::map::Stamp>> {
    crate::trust::holds(&crate::map::open(path)?, bytes)
}

/// Records that the file at `path` is proven, if it holds exactly `bytes`
/// (as [`make`] made them), so that `eight` trusts it while it stays
/// unchanged: the record goes beside it, else in the user's cache folder;
/// where it went, or `None` if the file holds anything else.
///
/// # Errors
///
/// Fails if the file cannot be read, or the record can be written in
/// neither place (the error is the one beside the file).
pub fn record_proof(path: &Path, bytes: &[u8]) -> io::Result<Option<PathBuf>> {
    match holding(path, bytes)? {
        Some(stamp) => crate::trust::record(path, &stamp).map(Some),
        None => Ok(None),
    }
}

/// Proves a table's bytes right, as a solver does before its first answer:
/// every board's next moves lead to the goal in the moves the table says.
/// Files of pattern databases are left to their proof at first use.
///
/// # Errors
///
/// Fails with what is wrong in the table.
pub fn prove(bytes: &[u8]) -> Result<(), crate::Damage> {
    match crate::table::Table::new(bytes) {
        Ok(table) => table.verify().map_err(crate::Damage::from),
        Err(crate::table::TableError::File(crate::file::FileError::WrongKind { .. })) => Ok(()),
        Err(err) => Err(err.into()),
    }
}
