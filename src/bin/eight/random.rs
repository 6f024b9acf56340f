//! `--random`: boards drawn uniformly, from a seed that draws the same boards
//! on every machine.

use std::io::{self, BufWriter, Write};

use anyhow::{Context, Result, anyhow, bail};
use eight::Board;
use eight::stream::Solvers;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Writes `count` boards, one a line, in the input format: drawn uniformly
/// from all boards that can reach `goal`, or, with `depth`, from those whose
/// shortest answer is exactly `depth` moves.
pub fn write(
    count: u64,
    seed: Option<u64>,
    depth: Option<u32>,
    goal: Board,
    solvers: &mut Solvers,
    verbose: bool,
) -> Result<u8> {
    let seed = seed.unwrap_or_else(|| rand::rng().random());
    if verbose {
        let _ = io::stderr()
            .lock()
            .write_all(format!("eight: --seed {seed}\n").as_bytes());
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let shape = goal.shape();
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let cannot = || "cannot write stdout";
    match depth {
        None => {
            for _ in 0..count {
                writeln!(out, "{}", solvable(&goal, &mut rng)).context(cannot())?;
            }
        }
        Some(depth) => {
            let solver = solvers.get(&goal)?;
            let table = solver.table().ok_or_else(|| {
                anyhow!(
                    "--depth {depth}: {shape} boards are searched, not answered from a table of \
                     every board, so the boards of an exact depth cannot be drawn uniformly; \
                     --depth works for shapes of up to 12 cells"
                )
            })?;
            let boards = table.at_distance(&goal, depth)?;
            if boards.is_empty() {
                let farthest = table.max_depth(&goal).unwrap_or(0);
                bail!(
                    "--depth {depth}: no {shape} board is {depth} moves from the goal; the \
                     farthest are {farthest}"
                );
            }
            for _ in 0..count {
                let board = &boards[rng.random_range(0..boards.len())];
                writeln!(out, "{board}").context(cannot())?;
            }
        }
    }
    out.flush().context(cannot())?;
    Ok(crate::ANSWERED)
}

/// A board drawn uniformly from those that can reach `goal`: the cells
/// shuffled, and if the board cannot reach the goal, the tiles of its first
/// two cells without the blank swapped. The swap pairs each board that
/// cannot with one that can, one to one, so every board that can is drawn
/// as often.
fn solvable(goal: &Board, rng: &mut ChaCha8Rng) -> Board {
    let shape = goal.shape();
    let mut cells: Vec<u8> = (0..shape.cells() as u8).collect();
    cells.shuffle(rng);
    let board = Board::from_cells(shape, &cells).expect("a shuffle holds every tile once");
    if board.solvable_to(goal) {
        return board;
    }
    let tiles: Vec<usize> = (0..cells.len())
        .filter(|&c| cells[c] != 0)
        .take(2)
        .collect();
    cells.swap(tiles[0], tiles[1]);
    Board::from_cells(shape, &cells).expect("a swap holds every tile once")
}
