//! Where data lives at run time: built into the program, or in the data
//! folder.
//!
//! The tables of every shape of up to 9 cells are committed in `generated/`
//! and built into the program ([`builtin`]), decoded too, by the build
//! script, so that a query reads them in place ([`builtin_decoded`]). Everything else `eight-gen`
//! makes on request goes into the data folder: the directory named by the
//! environment variable [`ENV`] if it is set, else `eight` in the user's data
//! folder (`$XDG_DATA_HOME/eight` or `~/.local/share/eight` on Linux,
//! `~/Library/Application Support/eight` on macOS). Nothing is fixed when the
//! program is compiled.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::shape::Shape;

/// The environment variable that names the data folder.
pub const ENV: &str = "EIGHT_DATA";

/// The files built into the program from `generated/`, by name, each with
/// its sections decoded when the program was built (tables of next moves;
/// empty for other files, or a table that did not decode).
static BUILTIN: &[(&str, &[u8], &[u8])] = include!(concat!(env!("OUT_DIR"), "/builtin.rs"));

/// The bytes of a file built into the program from `generated/`, by name
/// (such as `3x3.table`); `None` if there is none. A file that was missing
/// when the program was built is empty.
pub fn builtin_file(name: &str) -> Option<&'static [u8]> {
    BUILTIN
        .iter()
        .find(|(file, _, _)| *file == name)
        .map(|(_, bytes, _)| *bytes)
}

/// The sections of the built-in table `name`, decoded back to back when the
/// program was built: `None` for a file that is no table, or did not
/// decode.
pub fn builtin_decoded(name: &str) -> Option<&'static [u8]> {
    BUILTIN
        .iter()
        .find(|(file, _, _)| *file == name)
        .map(|(_, _, decoded)| *decoded)
        .filter(|decoded| !decoded.is_empty())
}

/// The names of the files built into the program, in `generated/`.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(name, _, _)| *name)
}

/// The built-in table of next moves of `shape`, for shapes of up to 9
/// cells.
pub fn builtin(shape: Shape) -> Option<&'static [u8]> {
    builtin_file(&crate::solver::table_file(shape, None))
}

/// A data folder and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataDir {
    path: PathBuf,
    source: Source,
}

/// How the data folder was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// Named on the command line.
    Given,
    /// From the environment variable [`ENV`].
    Environment,
    /// The user's data folder.
    UserData,
}

/// There is no data folder to use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("there is no data folder: set {ENV} to a folder for eight's data")]
pub struct NoDataDir;

impl DataDir {
    /// The data folder: [`ENV`] if it is set and not empty, else `eight` in
    /// the user's data folder.
    ///
    /// # Errors
    ///
    /// Fails if neither is known (no home folder).
    pub fn locate() -> Result<DataDir, NoDataDir> {
        if let Some(path) = std::env::var_os(ENV).filter(|path| !path.is_empty()) {
            return Ok(DataDir {
                path: PathBuf::from(path),
                source: Source::Environment,
            });
        }
        let path = dirs::data_dir().ok_or(NoDataDir)?.join("eight");
        Ok(DataDir {
            path,
            source: Source::UserData,
        })
    }

    /// The folder at `path`, named by the user.
    pub fn at(path: impl Into<PathBuf>) -> DataDir {
        DataDir {
            path: path.into(),
            source: Source::Given,
        }
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How it was found.
    pub fn source(&self) -> Source {
        self.source
    }
}

/// The folder, and how it was found.
impl fmt::Display for DataDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = match self.source {
            Source::Given => "given with --data".to_string(),
            Source::Environment => format!("from ${ENV}"),
            Source::UserData => format!("the user's data folder; set ${ENV} for another"),
        };
        write!(f, "{} ({how})", self.path.display())
    }
}
