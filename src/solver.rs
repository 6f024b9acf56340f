//! The shape policy, in one place: per shape, how its boards are answered,
//! its default goal, and its data files; and one [`Solver`] over tables and
//! searches, with one answer type.
//!
//! | cells | shapes | method | data |
//! |---|---|---|---|
//! | 4 to 9 | 2x2, 2x3, 3x2, 2x4, 4x2, 3x3 | a [table](crate::table) of next moves | built into the program |
//! | 10, 12 | 2x5, 5x2, 2x6, 3x4, 4x3, 6x2 | a table of next moves | one file per goal's blank cell in the data folder, made by `eight-gen --shape` |
//! | 14 to 16 | 2x7, 7x2, 3x5, 5x3, 2x8, 4x4, 8x2 | [IDA*](crate::ida) over [pattern databases](crate::pdb) | in the data folder, made by `eight-gen --shape` |

use std::path::PathBuf;

use crate::board::Board;
use crate::data::{self, DataDir};
use crate::file::FileError;
use crate::ida::Searcher;
use crate::map::{self, Mapping, OpenError, Stamp, Watch};
use crate::mtm::{Metric, MtmSearcher, MtmTable};
use crate::pdb::{PdbError, PdbTable};
use crate::shape::{Move, Shape};
use crate::table::{Table, TableError};
use crate::trust;

use crate::answer::{Solution, SolveError, Verdict, Walk};
use crate::data::{
    Method, build_command, builtin_pdb, database_blank, database_shape, default_partition,
    is_builtin, join_sizes, mtm_build_command, mtm_pdb_file, mtm_table_file, pdb_file, table_file,
};

/// The sizes of a set of databases' groups.
fn group_sizes<D: AsRef<[u8]>>(table: &PdbTable<D>) -> Vec<usize> {
    (0..table.len()).map(|g| table.tiles(g).len()).collect()
}

/// Opens and maps a data file, or says what is missing and how to make it.
fn map_data(
    path: &std::path::Path,
    what: &str,
    build: &str,
    cost: &'static str,
) -> Result<Mapping, DataError> {
    map_file(path, build).map_err(|err| match err {
        DataError::Open {
            problem: OpenError::Missing,
            ..
        } => DataError::Missing {
            what: what.to_string(),
            path: path.to_path_buf(),
            build: build.to_string(),
            cost,
        },
        err => err,
    })
}

/// Opens and maps the file at `path`; `build` makes it anew, for messages.
fn map_file(path: &std::path::Path, build: &str) -> Result<Mapping, DataError> {
    let open = |problem| DataError::Open {
        path: path.to_path_buf(),
        problem,
        build: build.to_string(),
    };
    let file = map::open(path).map_err(open)?;
    // SAFETY: see `map::map`: every reader here checks what it follows
    // against bounds, and callers check `map::changed` after use (the
    // stream after every batch of answers, the search as it goes).
    unsafe { map::map(&file, path) }.map_err(open)
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
fn prove_once(
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
        return Err(Damage::Changed);
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
pub enum Data {
    /// Built into the program.
    Static(&'static [u8]),
    /// A file's memory map.
    Mapped(Mapping),
    /// In memory.
    Owned(Vec<u8>),
}

impl Data {
    /// The watch on the file mapped, if the bytes are a file's.
    fn watch(&self) -> Option<&Watch> {
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
        problem: TableError,
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
    },
    /// The file cannot be opened or mapped.
    #[error("{}: {problem}; make it anew with `{build}`", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        problem: OpenError,
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

/// What is wrong with a data file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Damage {
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

/// Where a solver's data comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Origin {
    /// Built into the program.
    Builtin,
    /// A file, and the command that makes it anew.
    File {
        /// The file.
        path: PathBuf,
        /// The command that makes it anew.
        build: String,
    },
}

/// One interface over the two ways of answering: a table walk or a search.
#[derive(Debug)]
pub struct Solver {
    engine: Engine,
    origin: Origin,
}

#[derive(Debug)]
enum Engine {
    Table(Table<Data>),
    Search(Searcher<Data>),
    /// A table of the multi-tile metric.
    Jumps(MtmTable<Data>),
    /// A search in the multi-tile metric.
    JumpSearch(MtmSearcher),
}

impl Solver {
    /// The built-in table of `shape`.
    ///
    /// # Errors
    ///
    /// Fails if `shape` has no built-in table, or it does not load.
    pub fn builtin(shape: Shape) -> Result<Solver, DataError> {
        let name = table_file(shape, None);
        let bytes = data::builtin_file(&name)
            .filter(|_| is_builtin(shape))
            .unwrap_or(&[]);
        let mut table = Table::new(Data::Static(bytes))
            .map_err(|problem| DataError::Builtin { shape, problem })?;
        if let Some(decoded) = data::builtin_decoded(&name) {
            table = table.with_decoded(decoded);
        }
        Ok(Solver::from_table(table, Origin::Builtin))
    }

    /// A solver walking the table file at `path`, mapped and checked in
    /// full before it answers: every checksum, and the proof that every
    /// move is right. `build` is the command that makes it anew, for
    /// messages.
    ///
    /// # Errors
    ///
    /// Fails if the file cannot be opened or mapped, or is damaged or wrong.
    pub fn open_table(path: &std::path::Path, build: &str) -> Result<Solver, DataError> {
        let map = map_file(path, build)?;
        let damaged = |problem| DataError::Damaged {
            path: path.to_path_buf(),
            problem: Damage::Table(problem),
            build: build.to_string(),
        };
        let multi_tile = crate::file::RawFile::new(map.as_ref())
            .is_ok_and(|file| file.kind() == crate::file::Kind::NextJumps);
        let engine = match multi_tile {
            true => MtmTable::new(Data::Mapped(map))
                .and_then(|table| table.verify().map(|()| Engine::Jumps(table))),
            false => Table::new(Data::Mapped(map))
                .and_then(|table| table.verify().map(|()| Engine::Table(table))),
        }
        .map_err(damaged)?;
        Ok(Solver {
            engine,
            origin: Origin::File {
                path: path.to_path_buf(),
                build: build.to_string(),
            },
        })
    }

    /// A solver walking `table`.
    pub fn from_table(table: Table<Data>, origin: Origin) -> Solver {
        Solver {
            engine: Engine::Table(table),
            origin,
        }
    }

    /// A solver searching with `searcher`.
    pub fn from_search(searcher: Searcher<Data>, origin: Origin) -> Solver {
        let watch = searcher.table().file().data().watch().cloned();
        Solver {
            engine: Engine::Search(searcher.watching(watch)),
            origin,
        }
    }

    /// The watch on the file the solver reads in place, if it reads one.
    fn watch(&self) -> Option<&Watch> {
        let data = match &self.engine {
            Engine::Table(table) => table.file().data(),
            Engine::Search(searcher) => searcher.table().file().data(),
            Engine::Jumps(table) => table.file().data(),
            Engine::JumpSearch(_) => return None,
        };
        data.watch()
    }

    /// The file the solver reads in place, if its bytes may have changed
    /// since it was loaded (see [`map::Watch`]): answers made from it since
    /// cannot be trusted, and a solver loaded anew reads the file as it is
    /// now.
    pub fn changed(&self) -> Option<&std::path::Path> {
        self.watch()
            .filter(|watch| watch.changed())
            .map(Watch::path)
    }

    /// Whether a solver loaded anew would read other data: the file it
    /// reads [changed](Solver::changed), or its path names another file
    /// now (remade by `eight-gen`, or removed).
    pub fn stale(&self) -> bool {
        self.watch()
            .is_some_and(|watch| watch.changed() || watch.replaced())
    }

    /// The solver for `shape` toward goals with the blank at `blank`: the
    /// built-in table, or the data folder's table or databases (with groups
    /// of `sizes`, or the shape's [default](default_partition)), memory-mapped
    /// and checked cheaply (see [`Table::new`] and [`PdbTable::new`]), then
    /// proven before their first answer unless a proof of the file as it is
    /// now is recorded: a 2x5 table in milliseconds,
    /// a 12-cell table in about 25 s, the 4x4 7-8 databases in minutes.
    ///
    /// The data is read from a map of the file: see [`map::map`] for what
    /// that means if the file changes while it is in use, and check
    /// [`map::changed`] after using the solver.
    ///
    /// # Errors
    ///
    /// Fails with what is wrong and the command that makes the data.
    pub fn load(
        shape: Shape,
        blank: usize,
        dir: &DataDir,
        sizes: Option<&[usize]>,
    ) -> Result<Solver, DataError> {
        Solver::load_proving(shape, blank, dir, sizes, |_| {})
    }

    /// As [`Solver::load`], telling `progress` how far the proof of a file
    /// has come when one is made.
    ///
    /// # Errors
    ///
    /// As [`Solver::load`].
    pub fn load_proving(
        shape: Shape,
        blank: usize,
        dir: &DataDir,
        sizes: Option<&[usize]>,
        mut progress: impl FnMut(&Proving<'_>),
    ) -> Result<Solver, DataError> {
        Solver::open(shape, blank, dir, sizes, Some(&mut progress))
    }

    /// The solver of `shape`'s goals with the blank at `blank` in the
    /// [multi-tile metric](Metric): the built-in table (up to 9 cells), the
    /// data folder's (10 to 12 cells, proven at its first use as
    /// [`Solver::load_proving`] does), else a search with no data
    /// ([`MtmSearcher`]).
    ///
    /// # Errors
    ///
    /// Fails if the data folder's table is damaged or wrong.
    pub fn load_mtm(
        shape: Shape,
        blank: usize,
        dir: &DataDir,
        mut progress: impl FnMut(&Proving<'_>),
    ) -> Result<Solver, DataError> {
        let search = match Solver::builtin_for(shape, blank, Metric::Mtm) {
            Some(Ok(solver)) if !solver.searches() => return Ok(solver),
            Some(solver) => solver?,
            None => unreachable!("every shape has a search of the multi-tile metric"),
        };
        let build = mtm_build_command(shape, blank, dir);
        if Method::of(shape) == Method::Search {
            return Solver::load_mtm_databases(shape, blank, dir, &build, &mut progress)
                .map(|found| found.unwrap_or(search));
        }
        let path = dir.path().join(mtm_table_file(shape, Some(blank)));
        let map = match map_file(&path, &build) {
            Err(DataError::Open {
                problem: OpenError::Missing,
                ..
            }) => return Ok(search),
            map => map?,
        };
        let watch = map.watch().clone();
        let damaged = |problem| DataError::Damaged {
            path: path.clone(),
            problem,
            build: build.clone(),
        };
        let table = MtmTable::new(Data::Mapped(map)).map_err(|e| damaged(Damage::Table(e)))?;
        let goal = Board::canonical(shape, blank);
        if !table.serves(&goal) {
            return Err(damaged(Damage::Mismatch {
                expected: format!(
                    "the {shape} table of the multi-tile metric for goals with the blank at cell {blank}"
                ),
                got: format!("the {} table of other goals", table.shape()),
            }));
        }
        prove_once(&watch, &mut progress, |_| {
            table.verify().map_err(Damage::Table)
        })
        .map_err(damaged)?;
        Ok(Solver {
            engine: Engine::Jumps(table),
            origin: Origin::File { path, build },
        })
    }

    /// The solver of `shape`'s goals with the blank at `blank`, counting in
    /// `metric`, from what is built into the program alone: the tables of
    /// up to 9 cells, the 4x4 databases, and the multi-tile metric's search
    /// of larger shapes, which needs no data; `None` where only the data
    /// folder's data answers.
    ///
    /// # Errors
    ///
    /// Fails if the program's own data does not load: it was built wrongly.
    pub fn builtin_for(
        shape: Shape,
        blank: usize,
        metric: Metric,
    ) -> Option<Result<Solver, DataError>> {
        match (metric, is_builtin(shape)) {
            (Metric::Stm, true) => Some(Solver::builtin(shape)),
            (Metric::Stm, false) => {
                let (db_shape, rep) = (database_shape(shape), database_blank(shape, blank));
                builtin_pdb(db_shape, rep).map(|_| Solver::builtin_search(db_shape, rep))
            }
            (Metric::Mtm, true) => {
                let name = mtm_table_file(shape, None);
                let bytes = data::builtin_file(&name).unwrap_or(&[]);
                let table = MtmTable::new(Data::Static(bytes))
                    .map_err(|problem| DataError::Builtin { shape, problem });
                Some(table.map(|table| Solver {
                    engine: Engine::Jumps(match data::builtin_decoded(&name) {
                        Some(decoded) => table.with_decoded(decoded),
                        None => table,
                    }),
                    origin: Origin::Builtin,
                }))
            }
            (Metric::Mtm, false) => Some(Ok(Solver {
                engine: Engine::JumpSearch(MtmSearcher::new(shape)),
                origin: Origin::Builtin,
            })),
        }
    }

    /// The data folder's databases of the multi-tile metric of `shape` for
    /// goals with the blank at `blank` (see [`Solver::load_mtm`]), proven at
    /// their first use; `None` if there are none.
    fn load_mtm_databases(
        shape: Shape,
        blank: usize,
        dir: &DataDir,
        build: &str,
        progress: &mut dyn FnMut(&Proving<'_>),
    ) -> Result<Option<Solver>, DataError> {
        let sizes = crate::mtm::default_partition(shape);
        let path = dir.path().join(mtm_pdb_file(shape, &sizes, blank));
        let map = match map_file(&path, build) {
            Err(DataError::Open {
                problem: OpenError::Missing,
                ..
            }) => return Ok(None),
            map => map?,
        };
        let watch = map.watch().clone();
        let damaged = |problem| DataError::Damaged {
            path: path.clone(),
            problem,
            build: build.to_string(),
        };
        let (goal, databases) = crate::mtm::read_databases(map.as_ref())
            .map_err(|e| damaged(Damage::Pdb(PdbError::File(e))))?;
        let groups: Vec<usize> = databases.iter().map(|db| db.tiles().len() - 1).collect();
        if goal != Board::canonical(shape, blank) || groups != sizes {
            return Err(damaged(Damage::Mismatch {
                expected: format!(
                    "the {shape} pattern databases of the multi-tile metric ({}) for goals with the blank at cell {blank}",
                    join_sizes(&sizes)
                ),
                got: format!(
                    "those of the {} goal with the blank at cell {} ({})",
                    goal.shape(),
                    goal.blank(),
                    join_sizes(&groups)
                ),
            }));
        }
        prove_once(&watch, progress, |report| {
            crate::mtm::prove_databases(&goal, &databases, report).map_err(Damage::Pdb)
        })
        .map_err(damaged)?;
        Ok(Some(Solver {
            engine: Engine::JumpSearch(MtmSearcher::new(shape).with_databases(&goal, databases)),
            origin: Origin::File {
                path,
                build: build.to_string(),
            },
        }))
    }

    /// The solver of [`Solver::load`], its data-folder file proven unless
    /// `progress` is `None`.
    fn open(
        shape: Shape,
        blank: usize,
        dir: &DataDir,
        sizes: Option<&[usize]>,
        progress: Option<&mut dyn FnMut(&Proving<'_>)>,
    ) -> Result<Solver, DataError> {
        match (is_builtin(shape), Method::of(shape)) {
            (true, _) => Solver::builtin(shape),
            (false, Method::Table) => Solver::load_table(shape, blank, dir, progress),
            (false, Method::Search) => Solver::load_search(shape, blank, dir, sizes, progress),
        }
    }

    /// What would answer `shape`'s goals with the blank at `blank` from
    /// `dir`, as [`Solver::describe`] says it, and whether a data-folder
    /// file is not proven yet. The data is opened and checked cheaply but
    /// not proven, so that telling costs no proof; no solver comes out of it.
    ///
    /// # Errors
    ///
    /// As [`Solver::load`], but for the proof.
    pub fn describe_data(
        shape: Shape,
        blank: usize,
        dir: &DataDir,
        sizes: Option<&[usize]>,
    ) -> Result<String, DataError> {
        let solver = Solver::open(shape, blank, dir, sizes, None)?;
        let mut text = solver.describe();
        if let Some(watch) = solver.watch() {
            match trust::recorded(watch.path(), &watch.stamp()) {
                Some(at) if at == trust::record_path(watch.path()) => {}
                Some(at) => text += &format!(" (proven, recorded in {})", at.display()),
                None => text += " (not proven yet: it will be at its first use)",
            }
        }
        Ok(text)
    }

    /// The data folder's table of `shape` for goals with the blank at
    /// `blank`, proven unless `progress` is `None`.
    fn load_table(
        shape: Shape,
        blank: usize,
        dir: &DataDir,
        progress: Option<&mut dyn FnMut(&Proving<'_>)>,
    ) -> Result<Solver, DataError> {
        let build = build_command(shape, blank, None, dir);
        let what = format!("the {shape} table for goals with the blank at cell {blank}");
        let path = dir.path().join(table_file(shape, Some(blank)));
        let cost = data::build_cost(shape, Metric::Stm, &[]);
        let map = map_data(&path, &what, &build, cost)?;
        let watch = map.watch().clone();
        let damaged = |problem| DataError::Damaged {
            path: path.clone(),
            problem,
            build: build.clone(),
        };
        let table = Table::new(Data::Mapped(map)).map_err(|e| damaged(Damage::Table(e)))?;
        if table.shape() != shape || !table.blanks().any(|b| b == blank) {
            let blanks: Vec<String> = table.blanks().map(|b| b.to_string()).collect();
            return Err(damaged(Damage::Mismatch {
                expected: what,
                got: format!(
                    "the {} table for goals with the blank at cell {}",
                    table.shape(),
                    blanks.join(", ")
                ),
            }));
        }
        if let Some(progress) = progress {
            prove_once(&watch, progress, |_| table.verify().map_err(Damage::Table))
                .map_err(damaged)?;
        }
        Ok(Solver::from_table(table, Origin::File { path, build }))
    }

    /// The pattern databases that serve `shape`'s goals with the blank at
    /// `blank`: the data folder's (with groups of `sizes`, or the shape's
    /// default), else, unless `sizes` were asked for, those built into the
    /// program; proven unless `progress` is `None`.
    fn load_search(
        shape: Shape,
        blank: usize,
        dir: &DataDir,
        sizes: Option<&[usize]>,
        progress: Option<&mut dyn FnMut(&Proving<'_>)>,
    ) -> Result<Solver, DataError> {
        let (db_shape, rep) = (database_shape(shape), database_blank(shape, blank));
        let default = default_partition(db_shape);
        // Without sizes asked for: the strongest databases made for this
        // class, or built in; the default's command if there are none.
        let builtin = builtin_pdb(db_shape, rep).map(|_| {
            let groups = data::builtin_groups(rep);
            groups.iter().map(Vec::len).collect::<Vec<usize>>()
        });
        let strongest = match sizes {
            Some(_) => None,
            None => data::partitions_made(dir, db_shape, rep)
                .into_iter()
                .chain(builtin.clone())
                .max_by_key(|sizes| data::strength(db_shape, sizes)),
        };
        if strongest.is_some() && strongest == builtin {
            return Solver::builtin_search(db_shape, rep);
        }
        let wanted = sizes.or(strongest.as_deref()).unwrap_or(&default);
        let build = build_command(shape, blank, Some(wanted), dir);
        let what = format!(
            "the {db_shape} pattern databases ({}) for goals with the blank at cell {rep}",
            join_sizes(wanted)
        );
        let mut needed = format!(
            "the {shape} pattern databases ({}) for goals with the blank at cell {blank}",
            join_sizes(wanted)
        );
        if (db_shape, rep) != (shape, blank) {
            needed += &format!(
                " (those of {db_shape} goals with the blank at cell {rep}, which a symmetry maps \
                 them onto)"
            );
        }
        let cost = data::build_cost(shape, Metric::Stm, wanted);
        let path = dir.path().join(pdb_file(db_shape, wanted, rep));
        let map = match map_data(&path, &needed, &build, cost) {
            Err(DataError::Missing { .. })
                if sizes.is_none() && builtin_pdb(db_shape, rep).is_some() =>
            {
                return Solver::builtin_search(db_shape, rep);
            }
            map => map?,
        };
        let watch = map.watch().clone();
        let damaged = |problem| DataError::Damaged {
            path: path.clone(),
            problem,
            build: build.clone(),
        };
        let table = PdbTable::new(Data::Mapped(map)).map_err(|e| damaged(Damage::Pdb(e)))?;
        let groups = group_sizes(&table);
        let goal = table.goal();
        if *goal != Board::canonical(db_shape, rep) || groups != wanted {
            return Err(damaged(Damage::Mismatch {
                expected: what,
                got: format!(
                    "the {} pattern databases ({}) for goals with the blank at cell {}",
                    goal.shape(),
                    join_sizes(&groups),
                    goal.blank()
                ),
            }));
        }
        if let Some(progress) = progress {
            prove_once(&watch, progress, |report| {
                table.prove(report).map_err(Damage::Pdb)
            })
            .map_err(damaged)?;
        }
        Ok(Solver::from_search(
            Searcher::new(table),
            Origin::File { path, build },
        ))
    }

    /// The pattern databases built into the program for `shape`'s goals with
    /// the blank at `rep`, a class's first cell.
    fn builtin_search(shape: Shape, rep: usize) -> Result<Solver, DataError> {
        let bytes = builtin_pdb(shape, rep).unwrap_or(&[]);
        let problem = |error| DataError::Builtin {
            shape,
            problem: TableError::File(error),
        };
        let table = PdbTable::new(Data::Static(bytes)).map_err(|error| match error {
            PdbError::File(error) => problem(error),
            other => problem(FileError::Decode {
                part: crate::file::Part::Body,
                reason: other.to_string(),
            }),
        })?;
        Ok(Solver::from_search(Searcher::new(table), Origin::Builtin))
    }

    /// Checks all of the solver's data: every checksum, and for tables the
    /// proof that every move is right.
    ///
    /// # Errors
    ///
    /// Fails with what is wrong, and the command that makes the data anew.
    pub fn verify(&self) -> Result<(), DataError> {
        let damage = match (&self.engine, &self.origin) {
            (Engine::Table(table), _) => table.verify().map_err(Damage::Table),
            // The program's own databases are what `eight-gen --check`
            // proved when it was built.
            (Engine::Search(searcher), Origin::Builtin) => {
                searcher.table().verify().map_err(Damage::Pdb)
            }
            (Engine::Search(searcher), Origin::File { .. }) => {
                searcher.table().prove(|_, _| {}).map_err(Damage::Pdb)
            }
            (Engine::Jumps(table), _) => table.verify().map_err(Damage::Table),
            // Walking distances and databases counted in memory need no
            // proof; databases read from a file are made anew.
            (Engine::JumpSearch(searcher), _) => {
                searcher.prove_databases_read().map_err(Damage::Pdb)
            }
        };
        damage.map_err(|problem| match &self.origin {
            Origin::Builtin => DataError::Builtin {
                shape: self.shape(),
                problem: match problem {
                    Damage::Table(error) => error,
                    _ => unreachable!("built-in data is a table"),
                },
            },
            Origin::File { path, build } => DataError::Damaged {
                path: path.clone(),
                problem,
                build: build.clone(),
            },
        })
    }

    /// The shape of the boards it answers.
    pub fn shape(&self) -> Shape {
        match &self.engine {
            Engine::Table(table) => table.shape(),
            Engine::Search(searcher) => searcher.goal().shape(),
            Engine::Jumps(table) => table.shape(),
            Engine::JumpSearch(searcher) => searcher.shape(),
        }
    }

    /// How it counts moves.
    pub fn metric(&self) -> Metric {
        match &self.engine {
            Engine::Table(_) | Engine::Search(_) => Metric::Stm,
            Engine::Jumps(_) | Engine::JumpSearch(_) => Metric::Mtm,
        }
    }

    /// The table it walks, if it walks one.
    pub fn table(&self) -> Option<&Table<Data>> {
        match &self.engine {
            Engine::Table(table) => Some(table),
            _ => None,
        }
    }

    /// Every board whose shortest answer toward `goal` is exactly `depth`
    /// moves in the solver's [metric](Solver::metric), in no particular
    /// order; `None` if it searches (it has no table of every board).
    pub fn at_distance(&self, goal: &Board, depth: u32) -> Option<Result<Vec<Board>, SolveError>> {
        match &self.engine {
            Engine::Table(table) => Some(table.at_distance(goal, depth)),
            Engine::Jumps(table) => Some(table.at_distance(goal, depth)),
            _ => None,
        }
    }

    /// The longest shortest answer toward goals with the blank where
    /// `goal` has it, if the solver walks a table.
    pub fn max_depth(&self, goal: &Board) -> Option<u32> {
        match &self.engine {
            Engine::Table(table) => table.max_depth(goal),
            Engine::Jumps(table) => table.max_depth(goal),
            _ => None,
        }
    }

    /// Whether it searches (rather than walks a table): each answer takes
    /// milliseconds, not nanoseconds.
    pub fn searches(&self) -> bool {
        matches!(self.engine, Engine::Search(_) | Engine::JumpSearch(_))
    }

    /// Where its data comes from.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// How it answers, for messages: `the built-in 3x3 table` or the
    /// file.
    pub fn describe(&self) -> String {
        let what = match &self.engine {
            Engine::Table(_) => format!("the {} table", self.shape()),
            Engine::Jumps(_) => format!("the {} table of the multi-tile metric", self.shape()),
            Engine::JumpSearch(searcher) => match searcher.databases_read() {
                Some(groups) => format!(
                    "IDA* in the multi-tile metric over the {} pattern databases ({groups})",
                    self.shape()
                ),
                None => format!(
                    "IDA* in the multi-tile metric over walking distances and pattern databases on {}",
                    self.shape()
                ),
            },
            Engine::Search(searcher) => format!(
                "IDA* over the {} pattern databases ({})",
                self.shape(),
                join_sizes(
                    &searcher
                        .table()
                        .file()
                        .header()
                        .sections
                        .iter()
                        .map(|s| s.tiles.len())
                        .collect::<Vec<_>>()
                )
            ),
        };
        match &self.origin {
            Origin::Builtin => format!("{what} built into the program"),
            Origin::File { path, .. } => format!("{what} in {}", path.display()),
        }
    }

    /// Whether it answers boards toward `goal`.
    pub fn serves(&self, goal: &Board) -> bool {
        match &self.engine {
            Engine::Table(table) => table.serves(goal),
            Engine::Search(searcher) => searcher.serves(goal),
            Engine::Jumps(table) => table.serves(goal),
            Engine::JumpSearch(searcher) => goal.shape() == searcher.shape(),
        }
    }

    /// Solves `start` toward the shape's usual goal.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_each`].
    pub fn solve(&self, start: &Board) -> Result<Solution, SolveError> {
        self.solve_to(start, &Board::goal(self.shape()))
    }

    /// Solves `start` toward `goal`.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_each`].
    pub fn solve_to(&self, start: &Board, goal: &Board) -> Result<Solution, SolveError> {
        let mut moves = Vec::new();
        Ok(match self.solve_each(start, goal, |mv| moves.push(mv))? {
            Some(_) => Solution::Moves(moves),
            None => Solution::Unsolvable,
        })
    }

    /// Solves `start` toward `goal`, appending the letters of the answer to
    /// `out`; the number of moves, or `None` if unsolvable. The fastest way
    /// to write many answers (see [`Table::write_answer`]).
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_each`].
    pub fn write_answer(
        &self,
        start: &Board,
        goal: &Board,
        out: &mut Vec<u8>,
    ) -> Result<Option<usize>, SolveError> {
        match &self.engine {
            Engine::Table(table) => table.write_answer(start, goal, out),
            Engine::Jumps(table) => table.write_answer(start, goal, out),
            _ => self.solve_each(start, goal, |mv| out.push(mv.letter() as u8)),
        }
    }

    /// Answers a run of boards toward one goal a line each into `out`, as
    /// [`Table::write_answers`] does; `false`, writing nothing, where that
    /// does not apply (searches, tables whose answers are not derived).
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_each`].
    pub fn write_answers(
        &self,
        starts: &[Board],
        goal: &Board,
        out: &mut Vec<u8>,
    ) -> Result<bool, SolveError> {
        match &self.engine {
            Engine::Table(table) => table.write_answers(starts, goal, out),
            Engine::Jumps(table) => table.write_answers(starts, goal, out),
            _ => Ok(false),
        }
    }

    /// Judges moves someone found from `start` toward `goal`, written as
    /// blank letters (`d l r u`): legal or not, at the goal or not, and how
    /// much longer than the shortest answer.
    ///
    /// # Errors
    ///
    /// As [`Solver::judge_walk`].
    pub fn judge(
        &self,
        start: &Board,
        goal: &Board,
        letters: &[u8],
    ) -> Result<Verdict, SolveError> {
        let mut walk = Walk::new(*start);
        walk.follow(letters);
        self.judge_walk(&walk, goal)
    }

    /// Judges moves someone found, followed from their start board (see
    /// [`Walk`]) toward `goal`.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_each`], and [`SolveError::ShorterThanShortest`]
    /// if the moves reach the goal in fewer moves than the data's shortest
    /// answer.
    pub fn judge_walk(&self, walk: &Walk, goal: &Board) -> Result<Verdict, SolveError> {
        let start = walk.start();
        if start.shape() != goal.shape() {
            return Err(SolveError::Shape {
                expected: goal.shape(),
                got: start.shape(),
            });
        }
        if !start.solvable_to(goal) {
            return Ok(Verdict::Unsolvable);
        }
        let illegal = match self.metric() {
            Metric::Stm => walk.illegal(),
            Metric::Mtm => walk.illegal_run(),
        };
        if let Some(move_number) = illegal {
            return Ok(Verdict::IllegalMove(move_number));
        }
        if walk.board() != goal {
            return Ok(Verdict::NotAtGoal);
        }
        let shortest = self.solve_each(start, goal, |_| {})?.unwrap_or(0);
        let moves = match self.metric() {
            Metric::Stm => walk.moves(),
            Metric::Mtm => walk.runs(),
        };
        match moves.checked_sub(shortest) {
            Some(0) => Ok(Verdict::Optimal),
            Some(k) => Ok(Verdict::LongerBy(k)),
            None => Err(SolveError::ShorterThanShortest { moves, shortest }),
        }
    }

    /// Solves `start` toward `goal`, handing each move of the answer to
    /// `emit`; the number of moves, or `None` if unsolvable.
    ///
    /// # Errors
    ///
    /// Fails if a board is of another shape, the solver has no data for the
    /// goal, or the data is wrong ([`SolveError::is_data_error`]).
    pub fn solve_each(
        &self,
        start: &Board,
        goal: &Board,
        mut emit: impl FnMut(Move),
    ) -> Result<Option<usize>, SolveError> {
        match &self.engine {
            Engine::Table(table) => table.solve_each(start, goal, emit),
            Engine::Jumps(table) => table.solve_each(start, goal, emit),
            Engine::JumpSearch(searcher) => Ok(searcher.solve_to(start, goal)?.map(|moves| {
                moves.iter().copied().for_each(&mut emit);
                Metric::Mtm.count(&moves.iter().map(|m| m.letter() as u8).collect::<Vec<_>>())
            })),
            Engine::Search(searcher) => {
                let (solution, _) = searcher.solve_to(start, goal)?;
                Ok(solution.moves().map(|moves| {
                    moves.iter().copied().for_each(&mut emit);
                    moves.len()
                }))
            }
        }
    }
}
