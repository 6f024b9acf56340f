//! `--random`: boards drawn uniformly, from a seed that draws the same boards
//! on every machine ([`eight::random`]).

use std::io::{self, BufWriter, Write};

use anyhow::{Context, Result, anyhow};
use eight::Board;
use eight::Solvers;
use eight::random::{Draw, Near};

/// Writes `count` boards, one a line, in the input format: drawn uniformly
/// from all boards that can reach `goal`, or `near` it.
pub fn write(
    count: u64,
    seed: Option<u64>,
    near: Option<Near>,
    goal: Board,
    solvers: &mut Solvers,
    verbose: bool,
) -> Result<u8> {
    let seed = seed.unwrap_or_else(Draw::seed);
    if verbose {
        let _ = io::stderr()
            .lock()
            .write_all(format!("eight: --seed {seed}\n").as_bytes());
    }
    let draw = match near {
        None => Draw::new(goal, seed),
        Some(Near::Walk(moves)) => Draw::walk(goal, seed, moves),
        Some(Near::Depth(depth)) => {
            let solver = solvers.get_table(&goal)?;
            Draw::at_depth(goal, seed, depth, &solver)
                .map_err(|err| anyhow!("--depth {depth}: {err}"))?
        }
    };
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let cannot = || "cannot write stdout";
    for board in draw.take(usize::try_from(count).unwrap_or(usize::MAX)) {
        writeln!(out, "{board}").context(cannot())?;
    }
    out.flush().context(cannot())?;
    Ok(crate::ANSWERED)
}
