//! Where data lives at run time: built into the program, or in the data
//! folder.
//!
//! The tables of every shape of up to 9 cells are committed in `generated/`
//! and built into the program, decoded too, by the build
//! script, so that a query reads them in place. Everything else `eight-gen`
//! makes on request goes into the data folder: the directory named by the
//! environment variable `EIGHT_DATA` if it is set, else `eight` in the user's data
//! folder (`$XDG_DATA_HOME/eight` or `~/.local/share/eight` on Linux,
//! `~/Library/Application Support/eight` on macOS). Nothing is fixed when the
//! program is compiled.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::board::Board;
use crate::metric::Metric;
use crate::shape::{Shape, Symmetry};

pub use crate::pdb::PartitionError;

/// The environment variable that names the data folder.
pub(crate) const ENV: &str = "EIGHT_DATA";

/// The files built into the program from `generated/`, by name, each with
/// its sections decoded when the program was built (tables of next moves;
/// empty for other files, or a table that did not decode).
static BUILTIN: &[(&str, &[u8], &[u8])] = include!(concat!(env!("OUT_DIR"), "/builtin.rs"));

/// The bytes of a file built into the program from `generated/`, by name
/// (such as `3x3.table`); `None` if there is none. A file that was missing
/// when the program was built is empty.
pub(crate) fn builtin_file(name: &str) -> Option<&'static [u8]> {
    BUILTIN
        .iter()
        .find(|(file, _, _)| *file == name)
        .map(|(_, bytes, _)| *bytes)
}

/// The sections of the built-in table `name`, decoded back to back when the
/// program was built: `None` for a file that is no table, or did not
/// decode.
pub(crate) fn builtin_decoded(name: &str) -> Option<&'static [u8]> {
    BUILTIN
        .iter()
        .find(|(file, _, _)| *file == name)
        .map(|(_, _, decoded)| *decoded)
        .filter(|decoded| !decoded.is_empty())
}

/// The names of the files built into the program, in `generated/`.
#[cfg(test)]
pub(crate) fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(name, _, _)| *name)
}

/// The built-in table of next moves of `shape`, for shapes of up to 9
/// cells.
#[cfg(test)]
pub(crate) fn builtin(shape: Shape) -> Option<&'static [u8]> {
    builtin_file(&DataFile::table(shape, Metric::Stm, None).name())
}

/// A data folder and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataDir {
    path: PathBuf,
    source: Source,
}

/// How the data folder was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// Named on the command line.
    Given,
    /// From the environment variable `EIGHT_DATA`.
    Environment,
    /// The user's data folder.
    UserData,
}

/// There is no data folder to use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NoDataDir {
    /// Neither `EIGHT_DATA` nor the user's data folder is known (no home
    /// folder).
    #[error("there is no data folder: set {ENV} to a folder for eight's data")]
    Unknown,
    /// The path named is something other than a folder.
    #[error("the data folder {} is {what}, not a folder: {}", .dir.path().display(), fix(.dir))]
    NotAFolder {
        /// The path, and how it was found.
        dir: DataDir,
        /// What it is.
        what: &'static str,
    },
}

/// How to name a data folder that is a folder, found as `dir` was.
fn fix(dir: &DataDir) -> String {
    match dir.source {
        Source::Given => "give --data a folder".to_string(),
        Source::Environment => format!("set ${ENV} to a folder for eight's data"),
        Source::UserData => format!("move it away, or set ${ENV} to a folder for eight's data"),
    }
}

impl DataDir {
    /// The data folder: `EIGHT_DATA` if it is set and not empty, else `eight` in
    /// the user's data folder.
    ///
    /// # Errors
    ///
    /// Fails if neither is known (no home folder), or the path names
    /// something that is not a folder (a missing folder is fine: it is made
    /// when data is).
    pub fn locate() -> Result<DataDir, NoDataDir> {
        let dir = match std::env::var_os(ENV).filter(|path| !path.is_empty()) {
            Some(path) => DataDir {
                path: PathBuf::from(path),
                source: Source::Environment,
            },
            None => DataDir {
                path: dirs::data_dir().ok_or(NoDataDir::Unknown)?.join("eight"),
                source: Source::UserData,
            },
        };
        dir.usable()
    }

    /// Guards every data file mapped from now on against being cut short
    /// while in use: on Linux, installs a process-wide `SIGBUS` handler
    /// that reads a page past the file's new end as zeros, where the signal
    /// would otherwise end the process; the solver reading it then says the
    /// file changed ([`Solver::changed`](crate::Solver::changed)). A program
    /// opts into it; elsewhere than Linux it does nothing.
    pub fn guard_truncation() {
        crate::map::guard_truncation()
    }

    /// The folder at `path`, named by the user.
    pub fn at(path: impl Into<PathBuf>) -> DataDir {
        DataDir {
            path: path.into(),
            source: Source::Given,
        }
    }

    /// The folder, unless its path names something else than a folder: a
    /// file, a FIFO.
    ///
    /// # Errors
    ///
    /// Fails with what the path names and how to name a folder instead.
    pub fn usable(self) -> Result<DataDir, NoDataDir> {
        // An empty path would be the working folder, by chance.
        if self.path.as_os_str().is_empty() {
            return Err(NoDataDir::NotAFolder {
                what: "an empty path",
                dir: self,
            });
        }
        match std::fs::metadata(&self.path) {
            Ok(meta) if !meta.is_dir() => Err(NoDataDir::NotAFolder {
                what: match meta.is_file() {
                    true => "a file",
                    false => "not a folder",
                },
                dir: self,
            }),
            _ => Ok(self),
        }
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How it was found.
    pub(crate) fn source(&self) -> Source {
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

/// The most cells of a shape whose tables are built into the program.
pub(crate) const MAX_BUILTIN_CELLS: usize = 9;

/// How a shape's boards are answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Walking a table of next moves: every shape of up to 12 cells.
    Table,
    /// IDA* over pattern databases: larger shapes.
    Search,
}

impl Method {
    /// How boards of `shape` are answered.
    pub fn of(shape: Shape) -> Method {
        match shape.cells() <= crate::bfs::MAX_TABLE_CELLS {
            true => Method::Table,
            false => Method::Search,
        }
    }
}

/// Whether the data of `shape` is built into the program.
pub(crate) fn is_builtin(shape: Shape) -> bool {
    shape.cells() <= MAX_BUILTIN_CELLS
}

/// A data file: the table of next moves or the pattern databases that
/// serve a shape's goals in a metric. One type says, for the solver, `eight`
/// and `eight-gen` alike, what the file is called, the command that makes
/// it, and what making it costs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFile {
    /// The boards' shape. (Pattern databases of the single-tile metric are
    /// those of its database shape, toward the goal with
    /// the blank at its database blank.)
    pub shape: Shape,
    /// How moves are counted.
    pub metric: Metric,
    /// The goal's blank cell; `None` for a table of every goal (the
    /// built-in ones).
    pub blank: Option<usize>,
    /// The databases' group sizes; `None` for a table.
    pub sizes: Option<Vec<usize>>,
    /// Whether it is one of the compact 4x4 databases built into the
    /// program ([`DataFile::builtin_databases`]).
    built_in: bool,
    /// Whether the databases know the blank's cell ([`DataFile::with_walls`]).
    walls: bool,
}

impl DataFile {
    /// The table of `shape`'s goals with the blank at `blank` (of every
    /// goal if `None`), counting in `metric`.
    pub fn table(shape: Shape, metric: Metric, blank: Option<usize>) -> DataFile {
        DataFile {
            shape,
            metric,
            blank,
            sizes: None,
            built_in: false,
            walls: false,
        }
    }

    /// The compact 4x4 databases built into the program toward the goal
    /// with the blank at `blank` (0, 1 or 5): the groups of
    /// `builtin_groups`, in nibbles, compressed, kept in `generated/`.
    pub fn builtin_databases(blank: usize) -> DataFile {
        DataFile {
            shape: Shape::FIFTEEN,
            metric: Metric::Stm,
            blank: Some(blank),
            sizes: Some(builtin_groups(blank).iter().map(Vec::len).collect()),
            built_in: true,
            walls: false,
        }
    }

    /// Whether it is one of the compact databases built into the program.
    pub fn is_builtin_databases(&self) -> bool {
        self.built_in
    }

    /// The pattern databases of groups of `sizes` that serve `shape`'s goals
    /// with the blank at `blank`, counting in `metric`.
    pub fn databases(shape: Shape, metric: Metric, sizes: &[usize], blank: usize) -> DataFile {
        DataFile {
            shape,
            metric,
            blank: Some(blank),
            sizes: Some(sizes.to_vec()),
            built_in: false,
            walls: false,
        }
    }

    /// The same databases, knowing the blank's cell too: each placement
    /// keeps the cells of the blank its tiles wall in, which need two
    /// more moves (`eight-gen --walls`, for 5x5). The same name: a search
    /// reads either. On Korf and Felner's 24-puzzle instances they search
    /// 0.33 to 0.80 times the positions, at 0.5 to 0.75 times the rate.
    pub fn with_walls(mut self) -> DataFile {
        self.walls = true;
        self
    }

    /// Whether the databases know the blank's cell.
    pub fn walls(&self) -> bool {
        self.walls
    }

    /// The data-folder file that serves `shape`'s goals with the blank at
    /// `blank` in `metric` unless told otherwise: its table (up to 12
    /// cells), else its databases of the [default
    /// partition](DataFile::default_partition).
    pub fn usual(shape: Shape, metric: Metric, blank: usize) -> DataFile {
        match Method::of(shape) {
            Method::Table => DataFile::table(shape, metric, Some(blank)),
            Method::Search => {
                DataFile::databases(shape, metric, &default_partition(shape, metric), blank)
            }
        }
    }

    /// Whether the table of every board of `shape` is built into the
    /// program (up to 9 cells).
    pub fn is_builtin(shape: Shape) -> bool {
        is_builtin(shape)
    }

    /// The group sizes of the databases `eight-gen` makes for `shape` in
    /// `metric` when none are asked for.
    pub fn default_partition(shape: Shape, metric: Metric) -> Vec<usize> {
        default_partition(shape, metric)
    }

    /// Reads group sizes written as `7-8` or `5-5-5`.
    ///
    /// # Errors
    ///
    /// Fails if a size is not a number.
    pub fn parse_sizes(text: &str) -> Result<Vec<usize>, PartitionError> {
        crate::pdb::parse_sizes(text)
    }

    /// Group sizes written as `eight-gen --partition` reads them: `7-8`.
    pub fn join_sizes(sizes: &[usize]) -> String {
        join_sizes(sizes)
    }

    /// Checks that `sizes` split the tiles of `shape`'s databases (on the
    /// shape with no more rows than columns) into groups a file holds.
    ///
    /// # Errors
    ///
    /// Fails unless the sizes are at least one each and add up to the
    /// tiles, and each group's placements fit in a file.
    pub fn check_sizes(shape: Shape, sizes: &[usize]) -> Result<(), PartitionError> {
        crate::pdb::partition(&Board::goal(database_shape(shape)), sizes).map(|_| ())
    }

    /// About how many bytes making a database of a group of `k` tiles of
    /// `shape` needs at its peak, knowing the blank's cell or not.
    pub fn build_memory(shape: Shape, k: usize, walls: bool) -> u64 {
        crate::pdb::build_memory(shape, k, walls)
    }

    /// Whether a proof of this file is recorded when it is made: only for
    /// data-folder files (the program's own files are proven by its
    /// tests).
    pub fn proof_recorded(&self) -> bool {
        proof_recorded(self.shape)
    }

    /// The shape and blank cell of the databases that serve this file's
    /// shape and `blank`: the shape with no more rows than columns, and
    /// the blank's representative of its class of symmetric cells.
    pub fn database_goal(shape: Shape, blank: usize) -> (Shape, usize) {
        (database_shape(shape), database_blank(shape, blank))
    }

    /// The file's name: `3x3.table` and `3x3-mtm.table` (every goal),
    /// `3x4-blank11.table`, `3x4-mtm-blank11.table`, `4x4-7-8-blank15.pdb`,
    /// `4x4-mtm-7-7-1-blank15.pdb`.
    pub fn name(&self) -> String {
        let metric = match self.metric {
            Metric::Stm => "",
            Metric::Mtm => "-mtm",
        };
        let shape = self.shape;
        if self.built_in {
            return builtin_pdb_file(shape, self.blank.unwrap_or(0));
        }
        match (&self.sizes, self.blank) {
            (None, None) => format!("{shape}{metric}.table"),
            (None, Some(blank)) => format!("{shape}{metric}-blank{blank}.table"),
            (Some(sizes), blank) => {
                let blank = blank.unwrap_or(shape.cells() - 1);
                let (shape, blank) = match self.metric {
                    // A symmetry class's databases are made once, on the
                    // shape with no more rows than columns.
                    Metric::Stm => (database_shape(shape), database_blank(shape, blank)),
                    Metric::Mtm => (shape, blank),
                };
                format!("{shape}{metric}-{}-blank{blank}.pdb", join_sizes(sizes))
            }
        }
    }

    /// The command that makes the file into `dir` (`--out` unless it is
    /// the usual data folder).
    pub fn command(&self, dir: &DataDir) -> String {
        self.command_to(match dir.source() {
            Source::Given => Some(dir.path()),
            _ => None,
        })
    }

    /// The command that makes the file into `out`, else into the usual data
    /// folder.
    pub fn command_to(&self, out: Option<&Path>) -> String {
        if self.built_in {
            let out = out.map(|out| format!(" --out {}", out.display()));
            return format!(
                "cargo run --release --bin eight-gen --{}",
                out.unwrap_or_default()
            );
        }
        let mut command = String::from("eight-gen");
        if self.metric == Metric::Mtm {
            command += " --metric mtm";
        }
        command += &format!(" --shape {}", self.shape);
        if let Some(blank) = self.blank {
            command += &format!(" --blank {blank}");
        }
        if let Some(sizes) = &self.sizes
            && *sizes != default_partition(self.shape, self.metric)
        {
            command += &format!(" --partition {}", join_sizes(sizes));
        }
        if self.walls {
            command += " --walls";
        }
        if let Some(out) = out {
            command += &format!(" --out {}", out.display());
        }
        command
    }

    /// What making it takes on a 2-core machine, for messages: measured
    /// with `/usr/bin/time eight-gen --shape ...`.
    pub fn cost(&self) -> &'static str {
        let largest = self.sizes.iter().flatten().copied().max().unwrap_or(0);
        let sevens = self.sizes.iter().flatten().filter(|&&k| k == 7).count();
        if self.walls {
            // 5x5 6-6-6-6: 4.1-4.3 min and 6.5-7.5 GB (two runs beside other
            // work).
            return "about 4 minutes and 7.5 GB of memory";
        }
        match (self.metric, Method::of(self.shape), self.shape.cells()) {
            // 2x5: 0.3 s; 2x6: 26.7 s and 870 MB.
            (Metric::Stm, Method::Table, ..=10) => "under a second",
            (Metric::Stm, Method::Table, _) => "about 25 s and 0.9 GB of memory",
            // 2x5: 0.4 s; 3x4: 40-43 s and 1.5 GB; 2x6: 37 s and 1.3 GB.
            (Metric::Mtm, Method::Table, ..=10) => "under a second",
            (Metric::Mtm, Method::Table, _) => "under a minute and 1.5 GB of memory",
            // 4x4 7-7-1: 127 s and 2.0 GB; 2x7: 9.5 s; 3x5: 7.4 s.
            (Metric::Mtm, Method::Search, 16) => "about 2 minutes and 2 GB of memory",
            (Metric::Mtm, Method::Search, ..=15) => "about 10 to 15 s",
            // 3x6 5-5-5-2: 4.7 s; 4x5 5-5-5-4: 10.2 s and 170 MB; 2x11
            // 5-5-5-5-1: 50 s and 0.4 GB; 4x6 5-5-5-5-3: 50 s and 0.8 GB;
            // 5x5 5-5-5-5-4: 68 s and 1.0 GB.
            (Metric::Mtm, Method::Search, ..=21) => "under 30 s",
            (Metric::Mtm, Method::Search, ..=24) => "about a minute and 0.8 GB of memory",
            (Metric::Mtm, Method::Search, _) => "about 70 s and 1 GB of memory",
            // 3x7 6-7-7: 11.6 min beside other work, 3.5 GB; 4x5 7-7-5: 4.1 min
            // and 2.3 GB; 2x10 6-6-7 as 4x5 6-6-7: 2.8 min and 2.0 GB; 2x11
            // 5-5-5-6: 21 s and 0.3 GB; 4x6 5-6-6-6: 92 s and 1.0 GB; 5x5
            // 6-6-6-6: 3.0 min and 1.5 GB; 2x9 5-6-6: 6 s (below).
            (Metric::Stm, Method::Search, 21) => "about 10 minutes and 3.5 GB of memory",
            (Metric::Stm, Method::Search, 20) if sevens == 2 => {
                "about 4 minutes and 2.3 GB of memory"
            }
            (Metric::Stm, Method::Search, 20) => "about 3 minutes and 2 GB of memory",
            (Metric::Stm, Method::Search, 22) => "under 25 s",
            (Metric::Stm, Method::Search, 24) => "about 1.5 minutes and 1 GB of memory",
            (Metric::Stm, Method::Search, 25) => "about 3 minutes and 1.5 GB of memory",
            // 4x4 or 2x8 7-8: 2.2 min and 1.6 GB; 3x5 7-7: 20.7 s; 2x7 6-7: 7.4 s.
            (Metric::Stm, Method::Search, _) if largest >= 8 => {
                "about 2 minutes and 1.6 GB of memory"
            }
            (Metric::Stm, Method::Search, _) if largest == 7 => "under 25 s",
            (Metric::Stm, Method::Search, _) => "seconds",
        }
    }
}

/// The group sizes of the pattern databases of `shape` toward the goal
/// with the blank at `blank` that `dir` holds, in no particular order.
pub(crate) fn partitions_made(dir: &DataDir, shape: Shape, blank: usize) -> Vec<Vec<usize>> {
    let (head, tail) = (format!("{shape}-"), format!("-blank{blank}.pdb"));
    let Ok(entries) = std::fs::read_dir(dir.path()) else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let sizes = name.strip_prefix(&head)?.strip_suffix(&tail)?;
            crate::pdb::parse_sizes(sizes)
                .ok()
                .filter(|sizes| sizes.iter().sum::<usize>() == shape.cells() - 1)
        })
        .collect()
}

/// How strong pattern databases of groups of `sizes` on `shape` are, for
/// choosing among those at hand: their entries in all (ties to the
/// largest group, then the sizes themselves, so that the choice never
/// depends on the order files are listed in). More entries tell more
/// placements apart, and the search goes faster: 25 random 4x4 boards
/// (`eight --random 25 --seed 5 --shape 4x4`) take 2.29-2.43 s on 2 cores
/// over 5-5-5 (1.6 million entries), 0.37-0.42 s over the built-in 6-6-3
/// (11.5 million); Korf's 100 take 0.60-0.66 s over 6-6-3, 0.155-0.179 s
/// over 7-8 (577 million).
pub(crate) fn strength(shape: Shape, sizes: &[usize]) -> (u64, usize, Vec<usize>) {
    let entries = sizes
        .iter()
        .map(|&k| crate::rank::placements(shape.cells(), k))
        .sum();
    let largest = sizes.iter().copied().max().unwrap_or(0);
    (entries, largest, sizes.to_vec())
}

/// Group sizes written as `7-8`.
pub(crate) fn join_sizes(sizes: &[usize]) -> String {
    sizes
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join("-")
}

/// The most placements of a group of the databases made by default: the
/// 8 tiles of a 16-cell board have 519 million, 6 of 25 cells 128 million,
/// 7 of 20 cells 391 million, 7 of 25 cells 2.4 billion.
const MOST_PLACEMENTS: u64 = 600_000_000;

/// The group sizes of the pattern databases searched by default. In the
/// single-tile metric, the fewest groups of at most 600 million placements
/// each, as even as can be, the smaller first (7-8 for the 4x4 board,
/// 6-6-6-6 for 5x5), but on 4x5 as large as can be, the rest in the last:
/// 7-7-5, over which 20 random 4x5 boards take 2.7 minutes against 4.6
/// over 6-6-7, and 20 random 5x4 boards 12 minutes against more than 30
/// (docs/twenty-four.md). The same does not pay on narrow boards: 20
/// random 2x9 boards take 157 s over 5-6-6, 349 s over 7-7-3. In the
/// multi-tile metric, whose databases keep the blank's cell, the tiles in
/// order seven at a time on 16 cells (7-7-1: on 30 random 4x4 boards 0.12
/// s of CPU a board, against 0.73 to 0.99 s over 6-6-3; docs/metric.md),
/// six at a time on fewer (6-6-2 on 3x5, whose 7-7 take 101 s and 1 GB to
/// make against 13 s).
pub(crate) fn default_partition(shape: Shape, metric: Metric) -> Vec<usize> {
    let tiles = shape.cells() - 1;
    match metric {
        Metric::Stm => {
            let largest = (1..tiles)
                .take_while(|&k| crate::rank::placements(shape.cells(), k) <= MOST_PLACEMENTS)
                .last()
                .unwrap_or(1);
            let sides = (
                shape.rows().min(shape.cols()),
                shape.rows().max(shape.cols()),
            );
            match sides {
                (4, 5) => full_groups(tiles, largest),
                _ => even_groups(tiles, largest),
            }
        }
        Metric::Mtm => full_groups(
            tiles,
            match shape.cells() {
                16 => 7,
                // Seven items of 25 cells are 2.4 billion placements a group.
                17.. => 5,
                _ => 6,
            },
        ),
    }
}

/// The sizes of the fewest groups of at most `largest` of `tiles` tiles, as
/// even as can be, the smaller first: 17 tiles by at most 4 are 3-3-3-4-4.
pub(crate) fn even_groups(tiles: usize, largest: usize) -> Vec<usize> {
    let groups = tiles.div_ceil(largest.max(1));
    (0..groups)
        .map(|g| tiles / groups + usize::from(g >= groups - tiles % groups))
        .collect()
}

/// The sizes of groups of `size` of `tiles` tiles, the rest in the last:
/// 19 tiles by 7 are 7-7-5.
fn full_groups(tiles: usize, size: usize) -> Vec<usize> {
    (0..tiles)
        .step_by(size.max(1))
        .map(|first| (tiles - first).min(size))
        .collect()
}

/// The shape whose pattern databases serve `shape`: itself, or its
/// transpose, whichever has no more rows than columns (7x2 boards are
/// searched with the databases of 2x7).
pub(crate) fn database_shape(shape: Shape) -> Shape {
    match shape.rows() <= shape.cols() {
        true => shape,
        false => shape.transposed(),
    }
}

/// The blank cell of the databases' goal that serves `shape`'s goals with
/// the blank at `blank`: the first cell a symmetry maps it onto, on the
/// [databases' shape](database_shape). The 4x4 board has three: 0 (corner),
/// 1 (edge) and 5 (middle).
pub(crate) fn database_blank(shape: Shape, blank: usize) -> usize {
    let db_shape = database_shape(shape);
    Symmetry::all()
        .filter(|s| s.shape(shape) == db_shape)
        .map(|s| s.cell(shape, blank))
        .min()
        .unwrap_or(blank)
}

/// The name of the compact pattern databases of `shape` toward the goal
/// with the blank at `blank` built into the program (from `generated/`).
pub(crate) fn builtin_pdb_file(shape: Shape, blank: usize) -> String {
    format!("{shape}-blank{blank}.pdbz")
}

/// The compact pattern databases built into the program for `shape`'s goal
/// with the blank at `blank`, if any (4x4 goals with the blank at 0, 1 and
/// 5, which serve every 4x4 goal).
pub(crate) fn builtin_pdb(shape: Shape, blank: usize) -> Option<&'static [u8]> {
    builtin_file(&builtin_pdb_file(shape, blank)).filter(|bytes| !bytes.is_empty())
}

/// The groups of tiles of the compact 4x4 databases built into the program,
/// toward the goal with the blank at `blank` (0, 1 or 5): 6-6-3, chosen by
/// measurement. Where one group walls the blank's cell in, its entries count
/// the moves that let the blank back ([`PdbTable`](crate::pdb::PdbTable)).
///
/// - The corner: the two left columns but for the corner and the bottom
///   cell, the two right columns but for the bottom row, and the rest of
///   the bottom row. Korf's 100: 177,637 nodes an instance, against 496,305
///   for the blocks below, which leave the corner open.
/// - The edge and the middle: two 2x3 blocks on the right and the left
///   column, the blank's cell swapped for the corner. 100 random boards
///   toward each: 378,066 and 103,866 nodes, against 452,476 to 1,180,696
///   for eight others on the edge and 149,463 to 415,912 for four others in
///   the middle.
pub(crate) fn builtin_groups(blank: usize) -> Vec<Vec<u8>> {
    let goal = Board::canonical(Shape::FIFTEEN, blank);
    let groups: [&[u8]; 3] = match blank {
        0 => [&[1, 4, 5, 8, 9, 12], &[2, 3, 6, 7, 10, 11], &[13, 14, 15]],
        _ => [&[1, 2, 3, 5, 6, 7], &[9, 10, 11, 13, 14, 15], &[4, 8, 12]],
    };
    groups
        .iter()
        .map(|cells| {
            cells
                .iter()
                .map(|&cell| match usize::from(cell) == blank {
                    true => goal.cells()[0],
                    false => goal.cells()[usize::from(cell)],
                })
                .collect()
        })
        .collect()
}

/// Whether the data of `shape` comes from the data folder, where it is
/// proven once and trusted after while unchanged, its proof recorded beside
/// it (recorded beside it as `NAME.proof`); built-in data is proven when it is made.
pub(crate) fn proof_recorded(shape: Shape) -> bool {
    !is_builtin(shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are the contract with the files on disk, and commands with
    /// `eight-gen`'s arguments: one of each kind, in both metrics.
    #[test]
    fn names_and_commands_of_every_kind_of_file() {
        let shape = |text: &str| text.parse::<Shape>().unwrap();
        let given = DataDir::at("/d");
        let cases = [
            (
                DataFile::table(shape("3x3"), Metric::Stm, None),
                "3x3.table",
                "eight-gen --shape 3x3",
            ),
            (
                DataFile::table(shape("3x3"), Metric::Mtm, None),
                "3x3-mtm.table",
                "eight-gen --metric mtm --shape 3x3",
            ),
            (
                DataFile::usual(shape("3x4"), Metric::Stm, 11),
                "3x4-blank11.table",
                "eight-gen --shape 3x4 --blank 11",
            ),
            (
                DataFile::usual(shape("5x5"), Metric::Stm, 0).with_walls(),
                "5x5-6-6-6-6-blank0.pdb",
                "eight-gen --shape 5x5 --blank 0 --walls",
            ),
            (
                DataFile::usual(shape("3x4"), Metric::Mtm, 11),
                "3x4-mtm-blank11.table",
                "eight-gen --metric mtm --shape 3x4 --blank 11",
            ),
            (
                DataFile::usual(shape("4x4"), Metric::Stm, 15),
                "4x4-7-8-blank0.pdb",
                "eight-gen --shape 4x4 --blank 15",
            ),
            (
                DataFile::databases(shape("7x2"), Metric::Stm, &[3, 3, 3, 4], 13),
                "2x7-3-3-3-4-blank0.pdb",
                "eight-gen --shape 7x2 --blank 13 --partition 3-3-3-4",
            ),
            (
                DataFile::usual(shape("4x4"), Metric::Mtm, 15),
                "4x4-mtm-7-7-1-blank15.pdb",
                "eight-gen --metric mtm --shape 4x4 --blank 15",
            ),
        ];
        for (file, name, command) in cases {
            assert_eq!(file.name(), name);
            assert_eq!(file.command_to(None), command);
            assert_eq!(file.command(&given), format!("{command} --out /d"));
        }
        for (text, sizes) in [
            ("2x7", &[6, 7][..]),
            ("3x5", &[7, 7]),
            ("2x8", &[7, 8]),
            ("4x4", &[7, 8]),
            ("2x9", &[5, 6, 6]),
            ("4x5", &[7, 7, 5]),
            ("5x4", &[7, 7, 5]),
            ("2x10", &[6, 6, 7]),
            ("3x7", &[6, 7, 7]),
            ("2x11", &[5, 5, 5, 6]),
            ("4x6", &[5, 6, 6, 6]),
            ("5x5", &[6, 6, 6, 6]),
        ] {
            assert_eq!(default_partition(shape(text), Metric::Stm), sizes, "{text}");
        }
        assert_eq!(default_partition(shape("2x8"), Metric::Mtm), [7, 7, 1]);
        assert_eq!(default_partition(shape("3x5"), Metric::Mtm), [6, 6, 2]);
        assert_eq!(default_partition(shape("2x7"), Metric::Mtm), [6, 6, 1]);
    }
}
