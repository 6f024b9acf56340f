//! Why a solver's data cannot be used: every message names the fix.

use std::path::PathBuf;

use crate::answer::Damage;
use crate::data;
use crate::shape::Shape;

/// Why the data a solver needs could not be used. Every message names the
/// fix.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DataError {
    /// The program's own table does not load: it was built wrongly.
    #[error(
        "the {shape} table built into this program is unusable ({problem}); build the program \
         again from a checkout where `eight-gen --check` passes"
    )]
    Builtin {
        /// The shape.
        shape: Shape,
        /// What is wrong.
        problem: Damage,
    },
    /// The one table given answers no goal with this blank cell.
    #[error(
        "--table {}: it has no section for goals with the blank at cell {blank}",
        path.display()
    )]
    NoSection {
        /// The table.
        path: PathBuf,
        /// The goal's blank cell.
        blank: usize,
    },
    /// No data folder to look in.
    #[error(transparent)]
    NoDataDir(#[from] data::NoDataDir),
    /// The file is not there.
    #[error("{what}: {path} does not exist; make it with `{build}` ({cost})")]
    Missing {
        /// What the file holds.
        what: String,
        /// Where it was looked for.
        path: PathBuf,
        /// The command that makes it.
        build: String,
        /// What making it takes, for the message.
        cost: &'static str,
        /// The file, as [`generate::make`](crate::generate::make) makes it.
        file: Box<data::DataFile>,
    },
    /// The file cannot be opened or mapped.
    #[error("{}: {problem}; make it anew with `{build}`", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        problem: std::io::Error,
        /// The command that makes it.
        build: String,
    },
    /// The file is damaged, of another kind, or wrong.
    #[error("{}: {problem}; make it anew with `{build}`", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: Damage,
        /// The command that makes it.
        build: String,
    },
}
