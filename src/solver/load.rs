//! The loading policy, per shape and metric: which data answers a goal,
//! built in or from the data folder, and how it is opened.

use std::path::PathBuf;
use std::sync::Arc;

use crate::answer::{Damage, Problem};
use crate::board::Board;
use crate::data::{
    self, DataDir, DataFile, Method, builtin_pdb, database_blank, database_shape,
    default_partition, is_builtin, join_sizes,
};
use crate::file::Codec;
use crate::file::FileError;
use crate::ida::Searcher;
use crate::metric::Metric;
use crate::mtm::MtmSearcher;
use crate::pdb::{PatternDb, PdbError, PdbTable};
use crate::shape::Shape;
use crate::solver::open::{damaged, group_sizes, map_data, map_file, map_present, prove_once};
use crate::solver::{Data, DataError, Engine, Options, Origin, Proving, Solver};
use crate::table::{Table, TableError};
use crate::trust;

/// The tiles of a group of the databases made at start on a board beyond
/// 16 cells: 303,600 placements each on 5x5, whose six groups a 5x5 run
/// makes in about 0.4 s (0.35-0.50 s a process, start to exit).
const NEAR_GROUP: usize = 4;

/// The nodes of a search over databases made at start after which it gives
/// up on the board: a few seconds.
const NEAR_NODES: u64 = 5_000_000;

impl Solver {
    /// The built-in table of `shape`.
    ///
    /// # Errors
    ///
    /// Fails if `shape` has no built-in table, or it does not load.
    pub fn builtin(shape: Shape) -> Result<Solver, DataError> {
        Solver::builtin_table(shape, Metric::Stm)
    }

    /// The built-in table of `shape` in `metric`.
    fn builtin_table(shape: Shape, metric: Metric) -> Result<Solver, DataError> {
        let name = DataFile::table(shape, metric, None).name();
        let bytes = data::builtin_file(&name)
            .filter(|_| is_builtin(shape))
            .unwrap_or(&[]);
        let mut table = Table::of_metric(Data::Static(bytes), metric).map_err(|problem| {
            DataError::Builtin {
                shape,
                problem: problem.into(),
            }
        })?;
        if let Some(decoded) = data::builtin_decoded(&name) {
            table = table.with_decoded(decoded);
        }
        Ok(Solver::from_table(table, Origin::Builtin))
    }

    /// A solver walking the table file at `path`, of either metric, mapped
    /// and checked in full before it answers: every checksum, and the proof
    /// that every move is right. `build` is the command that makes it anew,
    /// for messages.
    ///
    /// # Errors
    ///
    /// Fails if the file cannot be opened or mapped, or is damaged or wrong.
    pub fn open_table(path: &std::path::Path, build: &str) -> Result<Solver, DataError> {
        let map = map_file(path, build)?;
        let table = Table::new(Data::Mapped(map))
            .and_then(|table| table.verify().map(|()| table))
            .map_err(|problem| DataError::Damaged {
                path: path.to_path_buf(),
                problem: problem.into(),
                build: build.to_string(),
            })?;
        Ok(Solver::from_table(
            table,
            Origin::File {
                path: path.to_path_buf(),
                build: build.to_string(),
            },
        ))
    }

    /// A solver walking the data folder's table `map` of `path`, which
    /// `build` makes, in `metric`, for `shape`'s goals with the blank at
    /// `blank`; proven unless `progress` is `None`.
    fn table_from(
        map: crate::map::Mapping,
        path: PathBuf,
        build: String,
        (shape, blank, metric): (Shape, usize, Metric),
        progress: Option<&mut dyn FnMut(&Proving<'_>)>,
    ) -> Result<Solver, DataError> {
        let watch = map.watch().clone();
        let damaged = damaged(&path, &build);
        let table =
            Table::of_metric(Data::Mapped(map), metric).map_err(|e| damaged(Damage::from(e)))?;
        if !table.serves(&Board::canonical(shape, blank)) {
            let blanks: Vec<String> = table.blanks().map(|b| b.to_string()).collect();
            return Err(damaged(
                Problem::Mismatch {
                    expected: describe_table(shape, metric, &blank.to_string()),
                    got: describe_table(table.shape(), metric, &blanks.join(", ")),
                }
                .into(),
            ));
        }
        if let Some(progress) = progress {
            prove_once(&watch, progress, |_| table.verify().map_err(Damage::from))
                .map_err(damaged)?;
        }
        Ok(Solver::from_table(table, Origin::File { path, build }))
    }

    /// The solver toward `goal` (and every goal with its blank cell),
    /// counting in `options`' metric: what is built in, else the data
    /// folder's table or pattern databases (in the single-tile metric, of
    /// the groups asked for if any, else the strongest made or built in),
    /// memory-mapped and checked cheaply (see `Table::new` and
    /// `PdbTable::new`), then proven before their first answer unless a
    /// proof of the file as it is now is recorded, the options' host told
    /// how far the proof has come: a 2x5 table in milliseconds, a 12-cell
    /// table in about 25 s (37 s in the multi-tile metric), the 4x4 7-8
    /// databases in minutes. In the multi-tile metric a shape with no data
    /// in the folder is searched with no data (`MtmSearcher`). With no data
    /// folder, what is built in answers.
    ///
    /// The data is read from a map of the file: see `crate::map::map`
    /// for what that means if the file changes while it is in use, and
    /// check [`Solver::changed`] after using the solver.
    ///
    /// # Errors
    ///
    /// Fails with what is wrong and the command that makes the data.
    pub fn open(goal: &Board, options: &Options) -> Result<Solver, DataError> {
        let (shape, blank) = (goal.shape(), goal.blank());
        let dir = match &options.data {
            Ok(dir) => dir,
            // Without a data folder, what is built in still answers.
            Err(err) => {
                return Solver::builtin_for(shape, blank, options.metric)
                    .ok_or_else(|| err.clone())?;
            }
        };
        let host = options.host;
        let mut proven = false;
        let mut progress = |proving: &Proving<'_>| {
            proven = true;
            host.proving(proving);
        };
        let sizes = options.partition.as_deref();
        let solver = Solver::open_in(
            shape,
            blank,
            options.metric,
            dir,
            sizes,
            Some(&mut progress),
        )?;
        // Data proven as it loaded is not proven twice.
        if options.verify && !proven {
            solver.verify()?;
        }
        let mut line = format!("{shape} boards: {}", solver.describe());
        if sizes.is_none()
            && let Some(faster) = solver.faster(goal, dir)
        {
            line += &format!(" ({faster})");
        }
        host.loaded(&line);
        Ok(solver)
    }

    /// The solver of [`Solver::open`] in the multi-tile metric, its
    /// data-folder file proven unless `progress` is `None`.
    fn open_mtm(
        shape: Shape,
        blank: usize,
        dir: &DataDir,
        progress: Option<&mut dyn FnMut(&Proving<'_>)>,
    ) -> Result<Solver, DataError> {
        let search = match Solver::builtin_for(shape, blank, Metric::Mtm) {
            Some(Ok(solver)) if !solver.searches() => return Ok(solver),
            Some(solver) => solver?,
            None => unreachable!("every shape has a search of the multi-tile metric"),
        };
        let file = DataFile::usual(shape, Metric::Mtm, blank);
        let build = file.command(dir);
        if Method::of(shape) == Method::Search {
            return Solver::open_mtm_databases(shape, blank, dir, &build, progress)
                .map(|found| found.unwrap_or(search));
        }
        let path = dir.path().join(file.name());
        let Some(map) = map_present(&path, &build)? else {
            return Ok(search);
        };
        Solver::table_from(map, path, build, (shape, blank, Metric::Mtm), progress)
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
                if !shape.small() {
                    let file = DataFile::usual(shape, Metric::Stm, blank);
                    let build = file.command_to(None);
                    return Some(Solver::near_search(db_shape, rep, build, file.cost()));
                }
                builtin_pdb(db_shape, rep).map(|_| Solver::builtin_search(db_shape, rep))
            }
            (Metric::Mtm, true) => Some(Solver::builtin_table(shape, Metric::Mtm)),
            (Metric::Mtm, false) => Some(Ok(Solver::new(
                Engine::JumpSearch(match shape.small() {
                    true => MtmSearcher::new(shape),
                    // Databases made at start answer near boards only.
                    false => {
                        let file = DataFile::usual(shape, Metric::Mtm, blank);
                        MtmSearcher::new(shape).near(NEAR_NODES, file.command_to(None), file.cost())
                    }
                }),
                Origin::Builtin,
            ))),
        }
    }

    /// The data folder's databases of the multi-tile metric of `shape` for
    /// goals with the blank at `blank` (see [`Solver::open`]), proven at
    /// their first use unless `progress` is `None`; `None` if there are none.
    fn open_mtm_databases(
        shape: Shape,
        blank: usize,
        dir: &DataDir,
        build: &str,
        progress: Option<&mut dyn FnMut(&Proving<'_>)>,
    ) -> Result<Option<Solver>, DataError> {
        let sizes = default_partition(shape, Metric::Mtm);
        let path = dir
            .path()
            .join(DataFile::databases(shape, Metric::Mtm, &sizes, blank).name());
        let Some(map) = map_present(&path, build)? else {
            return Ok(None);
        };
        let watch = map.watch().clone();
        let damaged = damaged(&path, build);
        let (goal, databases) = crate::mtm::read_databases(Arc::new(Data::Mapped(map)))
            .map_err(|e| damaged(Damage::from(PdbError::File(e))))?;
        let groups: Vec<usize> = databases.iter().map(|db| db.tiles().len() - 1).collect();
        let wanted = (Board::canonical(shape, blank), &sizes[..]);
        same_databases(Metric::Mtm, (&goal, &groups), wanted).map_err(&damaged)?;
        if let Some(progress) = progress {
            prove_once(&watch, progress, |report| {
                crate::mtm::prove_databases(&goal, &databases, report).map_err(Damage::from)
            })
            .map_err(damaged)?;
        }
        let searcher = MtmSearcher::new(shape).with_databases(&goal, databases);
        let origin = Origin::File {
            path,
            build: build.to_string(),
        };
        Ok(Some(Solver::new(
            Engine::JumpSearch(searcher.watching(Some(watch))),
            origin,
        )))
    }

    /// The solver of [`Solver::open`] from `dir`, its data-folder file
    /// proven unless `progress` is `None`.
    fn open_in(
        shape: Shape,
        blank: usize,
        metric: Metric,
        dir: &DataDir,
        sizes: Option<&[usize]>,
        progress: Option<&mut dyn FnMut(&Proving<'_>)>,
    ) -> Result<Solver, DataError> {
        let solver = match (metric, is_builtin(shape), Method::of(shape)) {
            (Metric::Mtm, ..) => Solver::open_mtm(shape, blank, dir, progress),
            (Metric::Stm, true, _) => Solver::builtin(shape),
            (Metric::Stm, false, Method::Table) => Solver::load_table(shape, blank, dir, progress),
            (Metric::Stm, false, Method::Search) => {
                Solver::load_search(shape, blank, dir, sizes, progress)
            }
        }?;
        // A search that stands in for a data-folder file not made yet (the
        // databases made at start, the built-in 4x4 ones, the multi-tile
        // search without its table) waits for that file: made later, it is
        // read by the next solver loaded.
        let stands_in = matches!(solver.origin, Origin::Builtin)
            && solver.searches()
            && !(metric == Metric::Stm && is_builtin(shape));
        Ok(match stands_in {
            true => {
                let file = match (metric, sizes) {
                    (Metric::Stm, Some(sizes)) => DataFile::databases(shape, metric, sizes, blank),
                    _ => DataFile::usual(shape, metric, blank),
                };
                let path = dir.path().join(file.name());
                solver.awaiting(path)
            }
            false => solver,
        })
    }

    /// What [`Solver::open`] would answer `goal` with, as
    /// [`Solver::describe`] says it, whether a data-folder file is not
    /// proven yet, and what would answer faster ([`Solver::faster`]). The
    /// data is opened and checked cheaply but not proven, so that telling
    /// costs no proof; no solver comes out of it, and no one is told.
    ///
    /// # Errors
    ///
    /// As [`Solver::open`], but for the proof; and if there is no data
    /// folder.
    pub fn describe_data(goal: &Board, options: &Options) -> Result<String, DataError> {
        let (shape, blank, metric) = (goal.shape(), goal.blank(), options.metric);
        let dir = options
            .data
            .as_ref()
            .map_err(|err| DataError::from(err.clone()))?;
        let sizes = options.partition.as_deref();
        if metric == Metric::Stm && !shape.small() && sizes.is_none() {
            let (db_shape, rep) = (database_shape(shape), database_blank(shape, blank));
            if data::partitions_made(dir, db_shape, rep).is_empty() {
                // As the databases made at start say it, without making them.
                let sizes = data::even_groups(shape.cells() - 1, NEAR_GROUP);
                let file = DataFile::usual(shape, Metric::Stm, blank);
                return Ok(format!(
                    "IDA* over the {db_shape} pattern databases ({}) made at start, for boards \
                     near the goal ({})",
                    join_sizes(&sizes),
                    makes(&file, dir, FASTER_DATABASES)
                ));
            }
        }
        let solver = Solver::open_in(shape, blank, metric, dir, sizes, None)?;
        let mut text = solver.describe();
        if sizes.is_none()
            && let Some(faster) = solver.faster(goal, dir)
        {
            text += &format!(" ({faster})");
        }
        if let Some(watch) = solver.watch() {
            match trust::recorded(watch.path(), &watch.stamp()) {
                Some(at) if at == trust::record_path(watch.path()) => {}
                Some(at) => text += &format!(" (proven, recorded in {})", at.display()),
                None => text += " (not proven yet: it will be at its first use)",
            }
        }
        Ok(text)
    }

    /// For a solver that searches with what is built in, toward `goal`: the
    /// data-folder file that would answer faster, the command that makes it
    /// into `dir` and what that takes (`` `eight-gen …` makes a table, far
    /// faster, in about 2 s``). For one over data-folder databases other
    /// than those `eight-gen` makes by default and no stronger (made over
    /// older groups, or smaller ones), the command that makes the default
    /// ones. `None` otherwise.
    pub fn faster(&self, goal: &Board, dir: &DataDir) -> Option<String> {
        if !self.searches() {
            return None;
        }
        let file = DataFile::usual(goal.shape(), self.metric(), goal.blank());
        if *self.origin() == Origin::Builtin {
            let what = match (self.metric(), Method::of(goal.shape())) {
                (Metric::Mtm, Method::Table) => "a table, far faster",
                (Metric::Mtm, Method::Search) => "larger databases, faster",
                (Metric::Stm, _) => FASTER_DATABASES,
            };
            return Some(makes(&file, dir, what));
        }
        let Engine::Search(searcher) = &*self.engine else {
            return None;
        };
        let table = searcher.table();
        let shape = table.goal().shape();
        let sizes = default_partition(shape, Metric::Stm);
        let usual = crate::pdb::partition(table.goal(), &sizes).ok()?;
        let made: Vec<&[u8]> = (0..table.len()).map(|g| table.tiles(g)).collect();
        let made_sizes: Vec<usize> = made.iter().map(|tiles| tiles.len()).collect();
        let weaker = data::strength(shape, &made_sizes) <= data::strength(shape, &sizes);
        (weaker && made != usual).then(|| {
            let what = format!("the default groups, {}, faster", join_sizes(&sizes));
            makes(&file, dir, &what)
        })
    }

    /// The data folder's table of `shape` for goals with the blank at
    /// `blank`, proven unless `progress` is `None`.
    fn load_table(
        shape: Shape,
        blank: usize,
        dir: &DataDir,
        progress: Option<&mut dyn FnMut(&Proving<'_>)>,
    ) -> Result<Solver, DataError> {
        let file = DataFile::table(shape, Metric::Stm, Some(blank));
        let build = file.command(dir);
        let what = describe_table(shape, Metric::Stm, &blank.to_string());
        let path = dir.path().join(file.name());
        let map = map_data(&path, &what, &file, &build)?;
        Solver::table_from(map, path, build, (shape, blank, Metric::Stm), progress)
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
        let default = default_partition(db_shape, Metric::Stm);
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
        let file = DataFile::databases(shape, Metric::Stm, wanted, blank);
        let build = file.command(dir);
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
        let path = dir.path().join(file.name());
        let map = match map_data(&path, &needed, &file, &build) {
            Err(DataError::Missing { .. })
                if sizes.is_none() && builtin_pdb(db_shape, rep).is_some() =>
            {
                return Solver::builtin_search(db_shape, rep);
            }
            Err(DataError::Missing { .. }) if sizes.is_none() && !shape.small() => {
                return Solver::near_search(db_shape, rep, build, file.cost());
            }
            map => map?,
        };
        let watch = map.watch().clone();
        let damaged = damaged(&path, &build);
        let table = PdbTable::new(Data::Mapped(map)).map_err(|e| damaged(Damage::from(e)))?;
        let wanted_goal = Board::canonical(db_shape, rep);
        same_databases(
            Metric::Stm,
            (table.goal(), &group_sizes(&table)),
            (wanted_goal, wanted),
        )
        .map_err(&damaged)?;
        if let Some(progress) = progress {
            prove_once(&watch, progress, |report| {
                table.prove(report).map_err(Damage::from)
            })
            .map_err(damaged)?;
        }
        Ok(Solver::from_search(
            Searcher::new(table),
            Origin::File { path, build },
        ))
    }

    /// Pattern databases of groups of [`NEAR_GROUP`] tiles made in memory
    /// for `shape`'s goals with the blank at `rep`, a class's first cell: on
    /// a board beyond 16 cells with no databases in the data folder, they
    /// answer boards near the goal at once, and a board whose search passes
    /// [`NEAR_NODES`] is told to need those `build` makes, at `cost`.
    fn near_search(
        shape: Shape,
        rep: usize,
        build: String,
        cost: &'static str,
    ) -> Result<Solver, DataError> {
        let goal = Board::canonical(shape, rep);
        let sizes = data::even_groups(shape.cells() - 1, NEAR_GROUP);
        let groups = crate::pdb::partition(&goal, &sizes).expect("groups of 4 tiles fit a file");
        let databases: Vec<PatternDb> = groups
            .iter()
            .map(|tiles| PatternDb::generate(&goal, tiles, |_| {}))
            .collect();
        let mut bytes = Vec::new();
        crate::pdb::write(&goal, &databases, Codec::Raw8, &mut bytes)
            .expect("writing into memory cannot fail");
        let table = PdbTable::new(Data::Owned(bytes)).map_err(|error| own_data(shape, error))?;
        Ok(Solver::from_search(
            Searcher::new(table).near(NEAR_NODES, build, cost),
            Origin::Builtin,
        ))
    }

    /// The pattern databases built into the program for `shape`'s goals with
    /// the blank at `rep`, a class's first cell.
    fn builtin_search(shape: Shape, rep: usize) -> Result<Solver, DataError> {
        let bytes = builtin_pdb(shape, rep).unwrap_or(&[]);
        let table = PdbTable::new(Data::Static(bytes)).map_err(|error| own_data(shape, error))?;
        Ok(Solver::from_search(Searcher::new(table), Origin::Builtin))
    }
}

/// Databases of the program's own, built in or made at start, that do not
/// load: the program was built wrongly.
fn own_data(shape: Shape, error: PdbError) -> DataError {
    let problem = match error {
        PdbError::File(error) => error,
        other => FileError::Decode {
            part: crate::file::Part::Body,
            reason: other.to_string(),
        },
    };
    DataError::Builtin {
        shape,
        problem: TableError::File(problem).into(),
    }
}

/// A table's description in messages: `the 3x3 table for goals with the
/// blank at cell 8`, naming the multi-tile metric.
fn describe_table(shape: Shape, metric: Metric, blanks: &str) -> String {
    let of = metric.of_data();
    format!("the {shape} table{of} for goals with the blank at cell {blanks}")
}

/// Refuses databases read (their goal and group sizes) other than those
/// wanted: a file renamed, or made for another goal.
fn same_databases(
    metric: Metric,
    (goal, groups): (&Board, &[usize]),
    (wanted, sizes): (Board, &[usize]),
) -> Result<(), Damage> {
    let describe = |goal: &Board, sizes: &[usize]| {
        let of = metric.of_data();
        format!(
            "the {} pattern databases{of} ({}) for goals with the blank at cell {}",
            goal.shape(),
            join_sizes(sizes),
            goal.blank()
        )
    };
    match *goal == wanted && groups == sizes {
        true => Ok(()),
        false => Err(Problem::Mismatch {
            expected: describe(&wanted, sizes),
            got: describe(goal, groups),
        }
        .into()),
    }
}

/// What the data folder's databases are to those a search has otherwise.
const FASTER_DATABASES: &str = "larger, faster ones";

/// `` `eight-gen …` makes WHAT, in COST``: the command that makes `file`
/// into `dir`, and what making it takes.
fn makes(file: &DataFile, dir: &DataDir, what: &str) -> String {
    format!("`{}` makes {what}, in {}", file.command(dir), file.cost())
}
