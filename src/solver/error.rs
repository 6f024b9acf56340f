//! Why a solver's data cannot be used: every message names the fix.

use std::path::PathBuf;

use crate::data;
use crate::pdb::PdbError;
use crate::shape::Shape;
use crate::table::TableError;

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

/// What is wrong with a data file: damaged, cut short, of another kind,
/// changed while it was proven, not the file its name says, or intact but
/// wrong (its proof failed). The message says which; the fix is always to
/// make the file anew.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(transparent)]
pub struct Damage(Box<Problem>);

impl Damage {
    /// What is wrong with a table, if the file is one.
    #[cfg(test)]
    pub(crate) fn table(&self) -> Option<&TableError> {
        match &*self.0 {
            Problem::Table(error) => Some(error),
            _ => None,
        }
    }
}

impl From<Problem> for Damage {
    fn from(problem: Problem) -> Damage {
        Damage(Box::new(problem))
    }
}

impl From<TableError> for Damage {
    fn from(error: TableError) -> Damage {
        Problem::Table(error).into()
    }
}

impl From<PdbError> for Damage {
    fn from(error: PdbError) -> Damage {
        Problem::Pdb(error).into()
    }
}

/// What is wrong with a data file, in detail.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Problem {
    /// A table's.
    #[error(transparent)]
    Table(#[from] TableError),
    /// Pattern databases'.
    #[error(transparent)]
    Pdb(#[from] PdbError),
    /// The file changed while it was proven.
    #[error("it changed while it was proven")]
    Changed,
    /// A good file, but not the one its name says.
    #[error("it holds {got}, not {expected}")]
    Mismatch {
        /// What its name says it holds.
        expected: String,
        /// What it holds.
        got: String,
    },
}
