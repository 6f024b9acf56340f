//! `eight-gen`: makes the tables and pattern databases `eight` answers
//! from, or checks the committed ones.

#[path = "eight/args.rs"]
mod args;
#[path = "eight/gen_args.rs"]
mod gen_args;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use eight::data::{self, DataDir, DataFile, Method};
use eight::generate;
use eight::{Metric, Shape, Stop};
use indicatif::{ProgressBar, ProgressStyle};

use crate::gen_args::Args;

fn main() -> ExitCode {
    let args = match args::parse::<Args>("eight-gen", std::env::args_os().collect()) {
        Ok(args) => args,
        Err(code) => return ExitCode::from(code),
    };
    match run(&args) {
        Ok(code) => code,
        Err(err) => {
            say(&format!("eight-gen: {err:#}"));
            ExitCode::from(2)
        }
    }
}

/// One file to make: what it holds, where it goes, and the command that
/// makes it.
struct Target {
    file: DataFile,
    path: PathBuf,
    command: String,
    /// Data-folder data, proven before its first use, not committed.
    data_folder: bool,
}

impl Target {
    /// Whether `eight` trusts the file on a recorded proof.
    fn proof_recorded(&self) -> bool {
        self.data_folder && self.file.proof_recorded()
    }
}

use crate::args::say;

fn run(args: &Args) -> Result<ExitCode> {
    if args.show_where {
        if let Some(why) = args::unwritable_stdout() {
            bail!("cannot write stdout: {why}");
        }
        let dir = DataDir::locate()?;
        io::stdout()
            .lock()
            .write_all(format!("data folder: {dir}\n").as_bytes())
            .context("cannot write stdout")?;
        return Ok(ExitCode::SUCCESS);
    }
    let shape = match args.fifteen {
        true => Some(Shape::FIFTEEN),
        false => args.shape,
    };
    let targets = targets(args, shape)?;
    let mut failed = false;
    for target in &targets {
        let started = Instant::now();
        let bytes = make(args, target)?;
        if args.check {
            failed |= !check(target, &bytes, args.quiet);
            continue;
        }
        generate::publish(&target.path, &bytes)?;
        if target.proof_recorded() {
            record_proof(&target.path, &bytes, args.quiet);
        }
        if !args.quiet {
            say(&format!(
                "wrote {} ({} bytes) in {:.1} s",
                target.path.display(),
                bytes.len(),
                started.elapsed().as_secs_f64()
            ));
        }
    }
    Ok(match failed {
        true => ExitCode::from(1),
        false => ExitCode::SUCCESS,
    })
}

/// The files the arguments ask for.
fn targets(args: &Args, shape: Option<Shape>) -> Result<Vec<Target>> {
    let out_flag = |dir: &Path| format!(" --out {}", dir.display());
    let Some(shape) = shape else {
        if args.blank.is_some() || args.partition.is_some() || args.walls {
            bail!("--blank, --partition and --walls go with --shape");
        }
        let dir = args.out.clone().map_or_else(generated, Ok)?;
        let flag = args.out.as_deref().map(out_flag).unwrap_or_default();
        let command = format!("cargo run --release --bin eight-gen --{flag}");
        let metrics = match args.metric {
            Some(metric) => vec![metric],
            None => vec![Metric::Stm, Metric::Mtm],
        };
        let stm = metrics.contains(&Metric::Stm);
        let tables = metrics.into_iter().flat_map(|metric| {
            Shape::all()
                .filter(|&shape| data::DataFile::is_builtin(shape))
                .map(|shape| {
                    let file = DataFile::table(shape, metric, None);
                    Target {
                        path: dir.join(file.name()),
                        file,
                        command: command.clone(),
                        data_folder: false,
                    }
                })
                .collect::<Vec<_>>()
        });
        // Compact 4x4 databases for the goals of each symmetry class.
        let databases = [0, 1, 5].into_iter().map(|blank| {
            let file = DataFile::builtin_databases(blank);
            Target {
                path: dir.join(file.name()),
                file,
                command: command.clone(),
                data_folder: false,
            }
        });
        return Ok(tables.chain(databases.filter(|_| stm)).collect());
    };
    let builtin = data::DataFile::is_builtin(shape);
    let method = Method::of(shape);
    if args.walls && shape != Shape::TWENTY_FOUR {
        bail!("--walls: only the databases of 5x5 boards know the blank's cell");
    }
    if args.partition.is_some() && method != Method::Search {
        bail!(
            "--partition: {shape} boards are answered from a table, not searched with pattern \
             databases (only boards of 14 to 25 cells are)"
        );
    }
    let dir = match (&args.out, builtin) {
        (Some(dir), _) => dir.clone(),
        (None, true) => generated()?,
        (None, false) => DataDir::locate()?.path().to_path_buf(),
    };
    let flag = args.out.as_deref().map(out_flag).unwrap_or_default();
    let out = args.out.as_deref();
    let cells = shape.cells();
    let blanks: Vec<usize> = match args.blank.as_deref() {
        _ if builtin => (0..cells).collect(),
        None => vec![cells - 1],
        Some("all") => (0..cells).collect(),
        Some(text) => match text.parse::<usize>() {
            Ok(blank) if blank < cells => vec![blank],
            _ => bail!(
                "--blank {text}: a {shape} board has cells 0 to {}, or write all",
                cells - 1
            ),
        },
    };
    if args.metric == Some(Metric::Mtm) {
        let metric_flag = " --metric mtm";
        if method == Method::Search {
            let sizes = DataFile::default_partition(shape, Metric::Mtm);
            return Ok(blanks
                .into_iter()
                .map(|blank| {
                    let file = DataFile::databases(shape, Metric::Mtm, &sizes, blank);
                    Target {
                        path: dir.join(file.name()),
                        command: file.command_to(out),
                        file,
                        data_folder: true,
                    }
                })
                .collect());
        }
        return Ok(match builtin {
            true => vec![Target {
                file: DataFile::table(shape, Metric::Mtm, None),
                path: dir.join(DataFile::table(shape, Metric::Mtm, None).name()),
                command: format!(
                    "cargo run --release --bin eight-gen --{metric_flag} --shape {shape}{flag}"
                ),
                data_folder: false,
            }],
            false => blanks
                .into_iter()
                .map(|blank| {
                    let file = DataFile::table(shape, Metric::Mtm, Some(blank));
                    Target {
                        path: dir.join(file.name()),
                        command: file.command_to(out),
                        file,
                        data_folder: true,
                    }
                })
                .collect(),
        });
    }
    if builtin {
        return Ok(vec![Target {
            file: DataFile::table(shape, Metric::Stm, None),
            path: dir.join(DataFile::table(shape, Metric::Stm, None).name()),
            command: format!("cargo run --release --bin eight-gen -- --shape {shape}{flag}"),
            data_folder: false,
        }]);
    }
    if method == Method::Table {
        return Ok(blanks
            .into_iter()
            .map(|blank| {
                let file = DataFile::table(shape, Metric::Stm, Some(blank));
                Target {
                    path: dir.join(file.name()),
                    command: file.command_to(out),
                    file,
                    data_folder: true,
                }
            })
            .collect());
    }
    // Search shapes: one set of databases per symmetry class of the blank,
    // on the shape with no more rows than columns.
    let db_shape = DataFile::database_goal(shape, 0).0;
    let sizes = match &args.partition {
        Some(text) => DataFile::parse_sizes(text).map_err(|e| anyhow!("--partition: {e}"))?,
        None => DataFile::default_partition(db_shape, Metric::Stm),
    };
    DataFile::check_sizes(db_shape, &sizes).map_err(|e| anyhow!("--partition: {e}"))?;
    check_memory(db_shape, &sizes, args.walls)?;
    // Each class's databases once, named in the command by the first blank
    // asked for of that class, as the user wrote the shape.
    let mut reps: Vec<(usize, usize)> = blanks
        .iter()
        .map(|&blank| (DataFile::database_goal(shape, blank).1, blank))
        .collect();
    reps.sort_unstable();
    reps.dedup_by_key(|(rep, _)| *rep);
    Ok(reps
        .into_iter()
        .map(|(_, blank)| {
            let mut file = DataFile::databases(shape, Metric::Stm, &sizes, blank);
            if args.walls {
                file = file.with_walls();
            }
            Target {
                path: dir.join(file.name()),
                command: file.command_to(out),
                file,
                data_folder: true,
            }
        })
        .collect())
}

/// The folder of the data built into `eight`, `generated/` of its source
/// tree: the working folder must be that tree, so that an installed
/// `eight-gen` run anywhere else writes no `generated/` of its own.
fn generated() -> Result<PathBuf> {
    let manifest = std::fs::read_to_string("Cargo.toml").unwrap_or_default();
    let source_tree = manifest
        .lines()
        .any(|line| line.split_whitespace().collect::<String>() == "name=\"eight\"");
    if !source_tree {
        let here = std::env::current_dir().unwrap_or_default();
        bail!(
            "without --shape (or with a shape of up to 9 cells), eight-gen makes the tables built \
             into eight, into generated/ of its source tree, and {} is not one: run it there, or \
             give --out DIR. Data for eight's data folder is made with --shape RxC for 10 to 25 \
             cells (eight --where says what each shape needs)",
            here.display()
        );
    }
    Ok(PathBuf::from("generated"))
}

/// Refuses databases that cannot be built in this machine's memory, before
/// anything is allocated.
fn check_memory(shape: Shape, sizes: &[usize], walls: bool) -> Result<()> {
    let need: u64 = sizes
        .iter()
        .map(|&k| DataFile::build_memory(shape, k, walls))
        .max()
        .unwrap_or(0);
    let have = available_memory();
    if need > have {
        let gib = |bytes: u64| bytes as f64 / (1u64 << 30) as f64;
        bail!(
            "--partition {}: the largest group ({} tiles) needs about {:.1} GiB of memory to \
             build, and this machine has {:.1} GiB available; use smaller groups",
            DataFile::join_sizes(sizes),
            sizes.iter().max().unwrap_or(&0),
            gib(need),
            gib(have)
        );
    }
    Ok(())
}

/// The memory this machine has available, from /proc/meminfo; a generous
/// guess where that cannot be read.
fn available_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib * 1024)
        })
        .unwrap_or(64 << 30)
}

/// Makes one file's bytes as the library makes them, its progress shown
/// under its file's name: a bar for each part (the boards of a table, or
/// each database's placements).
fn make(args: &Args, target: &Target) -> Result<Vec<u8>> {
    let name = target
        .path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Tables of up to 9 cells take well under a second: no bar.
    let shown = !args.quiet && (target.file.sizes.is_some() || target.file.shape.cells() > 9);
    let mut bar: Option<(String, ProgressBar)> = None;
    let made = generate::make(&target.file, &Stop::new(), |step| {
        if !shown {
            return;
        }
        if bar.as_ref().is_none_or(|(part, _)| part != step.part) {
            if let Some((_, done)) = bar.take() {
                done.finish();
            }
            let new = ProgressBar::new(step.total);
            new.set_style(
                ProgressStyle::with_template(
                    "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}",
                )
                .expect("the template is valid"),
            );
            new.set_prefix(format!("{name}: {}", step.part));
            bar = Some((step.part.to_string(), new));
        }
        if let Some((_, bar)) = &bar {
            bar.set_position(step.done);
            if let Some(depth) = step.depth {
                bar.set_message(format!("depth {depth}"));
            }
        }
    });
    if let Some((_, bar)) = bar {
        bar.finish_and_clear();
    }
    let made = made.map_err(|e| anyhow!("--partition: {e}"))?;
    Ok(made.expect("a making with no stop ends"))
}

/// Compares a fresh generation with the file at `path` (and proves a fresh
/// table right); on a difference, says which command makes it anew.
fn check(target: &Target, fresh: &[u8], quiet: bool) -> bool {
    let (path, command) = (target.path.as_path(), target.command.as_str());
    let commit = match target.data_folder {
        true => "",
        false => " and commit the result",
    };
    // Databases are not proven here: what is not a table is.
    let proven = generate::prove(fresh);
    if let Err(err) = proven {
        say(&format!("eight-gen: a fresh {}: {err}", path.display()));
        return false;
    }
    // A file whose proof is recorded is read back once, for both.
    let on_disk = match target.proof_recorded() {
        true => generate::record_proof(path, fresh).map(|at| at.map(Some)),
        false => file_holds(path, fresh).map(|holds| holds.then_some(None)),
    };
    match on_disk {
        Err(err) => {
            say(&format!(
                "eight-gen: cannot read {}: {err}; run `{command}` to make it",
                path.display()
            ));
            false
        }
        Ok(None) => {
            let len = std::fs::metadata(path).map_or(0, |meta| meta.len());
            say(&format!(
                "eight-gen: {} differs from a fresh generation ({len} bytes on disk, {} made); \
                 run `{command}`{commit}",
                path.display(),
                fresh.len(),
            ));
            false
        }
        Ok(Some(recorded)) => {
            if let Some(at) = recorded {
                report_record(path, Ok(at), quiet);
            }
            if !quiet {
                say(&format!(
                    "{} is up to date ({} bytes)",
                    path.display(),
                    fresh.len()
                ));
            }
            true
        }
    }
}

/// Whether the file at `path` holds exactly `bytes`: a file committed
/// with the source, not trusted on a record, so read whole. A FIFO or a
/// device is refused, not waited on.
fn file_holds(path: &Path, bytes: &[u8]) -> io::Result<bool> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::other("it is not a regular file"));
    }
    Ok(meta.len() == bytes.len() as u64 && std::fs::read(path)? == bytes)
}

/// Records that the data-folder file at `path`, just written, is proven,
/// so that `eight` trusts it at once while it stays unchanged: once it is
/// read back equal to `bytes` under one stamp. A record that cannot be made
/// only means `eight` proves the file at its first use.
fn record_proof(path: &Path, bytes: &[u8], quiet: bool) {
    match generate::record_proof(path, bytes) {
        Ok(Some(at)) => report_record(path, Ok(at), quiet),
        Ok(None) => say(&format!(
            "eight-gen: {} changed as it was written; its proof is not recorded: eight proves \
             it at its first use",
            path.display()
        )),
        Err(err) => report_record(path, Err(err), quiet),
    }
}

/// Says where the proof of `path` was recorded if not beside it, or that it
/// could not be.
fn report_record(path: &Path, recorded: io::Result<PathBuf>, quiet: bool) {
    match recorded {
        Ok(at) if quiet || at.parent() == path.parent() => {}
        Ok(at) => say(&format!(
            "the proof of {} is recorded in {} (its folder cannot be written)",
            path.display(),
            at.display()
        )),
        Err(err) => say(&format!(
            "eight-gen: cannot record the proof of {} ({err}): eight proves it at its first use",
            path.display()
        )),
    }
}
