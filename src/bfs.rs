//! The reverse breadth-first search that makes next-move codes, and the
//! layered search machinery it shares with the proof of a table
//! (`table::prove`).
//!
//! From a goal, the search visits every board that can reach it, layer by
//! layer. A board first met at depth `d + 1` from a board at depth `d` by the
//! blank moving `m` goes back toward the goal by `m.opposite()`; of all such
//! moves, from all its neighbours at depth `d`, the code keeps the smallest.
//! Following the smallest such move at every step gives, of all shortest
//! paths, the lexicographically smallest: any shortest path that starts with
//! a smaller letter would need a neighbour at depth `d`, which would have
//! given that letter.
//!
//! A board that reaches the goal is identified by its entry,
//! [`board_rank`](crate::board::board_rank)` / 2` (see [`crate::file`]). A
//! layer holds boards packed into a `u64`, four bits a cell; large layers
//! are expanded on every core, with the per-entry state in atomics so that
//! the result does not depend on how the work was split.

use std::sync::atomic::{AtomicU8, Ordering};

use crate::board::Board;
use crate::file::{self, Codec, NewSection, RankScheme};
use crate::mem::prefetch;
use crate::progress::Step;
use crate::rank::{PackedMoves, cells_rank, factorial, pack};
use crate::shape::{Move, SMALL_CELLS, Shape};
use crate::stop::Stop;

/// The most cells a board may have for a table of every board: `n! / 2`
/// entries must fit in memory.
pub const MAX_TABLE_CELLS: usize = 12;

/// An entry no search has reached.
pub(crate) const UNSEEN: u8 = u8::MAX;

/// Layers smaller than this are expanded on the calling thread.
const PARALLEL_LAYER: usize = 1 << 15;

/// Sections of at most this many bytes of codes are compressed hardest:
/// every table built into the program; larger ones (the data folder's)
/// at [`LARGE_LEVEL`], which is many times faster.
const SMALL_SECTION: u64 = 1 << 20;

/// The zstd level of sections of up to a megabyte of codes.
pub const SMALL_LEVEL: i32 = 19;

/// The zstd level of larger sections.
pub const LARGE_LEVEL: i32 = 9;

/// The cells of a packed board of `n` cells, and the blank's cell.
#[inline]
pub(crate) fn unpack(packed: u64, n: usize) -> ([u8; SMALL_CELLS], usize) {
    let mut cells = [0u8; SMALL_CELLS];
    let mut blank = 0;
    for (i, cell) in cells.iter_mut().enumerate().take(n) {
        *cell = (packed >> (4 * i) & 15) as u8;
        if *cell == 0 {
            blank = i;
        }
    }
    (cells, blank)
}

/// Whether fetching entries ahead pays for the work: for arrays of `entries`
/// bytes larger than the caches. Smaller ones are read from the caches at
/// once, and the work to fetch ahead doubles the work of a board.
pub(crate) fn fetch_pays(entries: u64) -> bool {
    entries > 1 << 23
}

/// Boards ahead in a layer whose entries are fetched before their turn.
pub(crate) const AHEAD: usize = 8;

/// A board in a layer: its cells packed by [`pack`], and its rank.
pub(crate) type Node = (u64, u64);

/// Runs `work` on parts of `layer`, on every core when the layer is large;
/// returns the boards each part found for the next layer, in the order of
/// the parts, and each part's result. `work` is told whether it runs alone,
/// so that it may skip what only sharing needs.
pub(crate) fn expand<R: Send>(
    layer: &[Node],
    work: impl Fn(&[Node], &mut Vec<Node>, bool) -> R + Sync,
) -> (Vec<Node>, Vec<R>) {
    let threads = crate::split::threads();
    if layer.len() < PARALLEL_LAYER || threads == 1 {
        let mut next = Vec::new();
        let result = work(layer, &mut next, true);
        return (next, vec![result]);
    }
    // More parts than threads, taken in turn, keep every core busy while
    // the parts run at different speeds.
    let parts: Vec<&[Node]> = layer.chunks(layer.len().div_ceil(threads * 8)).collect();
    let done = crate::split::each(parts.len(), threads, |index| {
        let mut next = Vec::new();
        let result = work(parts[index], &mut next, false);
        (next, result)
    });
    let mut next = Vec::with_capacity(layer.len());
    let mut results = Vec::with_capacity(parts.len());
    for (found, result) in done {
        next.extend_from_slice(&found);
        results.push(result);
    }
    (next, results)
}

/// One layer of a search, as reported to a progress callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layer {
    /// The layer's depth.
    pub depth: u32,
    /// Boards in it.
    pub boards: u64,
    /// Boards in it and every layer before.
    pub reached: u64,
    /// All boards that reach the goal.
    pub total: u64,
}

/// What the search found for one goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// The codes, one byte per entry `rank / 2` (see [`crate::file`]).
    pub codes: Vec<u8>,
    /// `histogram[d]` is the number of boards at distance `d` from the goal.
    pub histogram: Vec<u64>,
}

impl Search {
    /// The longest shortest path to the goal.
    pub fn max_depth(&self) -> u32 {
        self.histogram.len().saturating_sub(1) as u32
    }
}

/// The entries of a table for `shape`: one per board that can reach a goal,
/// `n! / 2`.
pub fn entries(shape: Shape) -> u64 {
    factorial(shape.cells()) / 2
}

/// Boards of a layer worked on between two looks at a stop.
const STOP_CHECK: usize = 1 << 16;

/// Runs the reverse search from `goal`, telling `progress` about each
/// layer, or `None` once `stop` is asked for (looked at every
/// [`STOP_CHECK`] boards of a layer). Large layers are searched on every
/// core.
///
/// Each entry is one byte: `0xFF` until the board is reached, then its
/// depth modulo 3 in bits 2-3 and its code in bits 0-1. The modulus is
/// enough: every move changes the parity of the board's distance, so a
/// neighbour of a board at depth `d` is at `d - 1` or `d + 1`, which differ
/// modulo 3. One byte a board halves both the memory
/// and the random reads of a depth array beside a code array.
///
/// # Panics
///
/// Panics if the board has more than [`MAX_TABLE_CELLS`] cells.
pub(crate) fn search_until(
    goal: &Board,
    mut progress: impl FnMut(&Layer),
    stop: &Stop,
) -> Option<Search> {
    let shape = goal.shape();
    let n = shape.cells();
    assert!(
        n <= MAX_TABLE_CELLS,
        "a table of every {shape} board does not fit in memory"
    );
    let total = entries(shape);
    let state: Vec<AtomicU8> = (0..total).map(|_| AtomicU8::new(UNSEEN)).collect();
    let goal_rank = cells_rank(goal.cells());
    state[(goal_rank / 2) as usize].store(0, Ordering::Relaxed);
    let mut layer = vec![(pack(goal.cells()), goal_rank)];
    let mut histogram = vec![1u64];
    let mut reached = 1u64;
    progress(&Layer {
        depth: 0,
        boards: 1,
        reached,
        total,
    });
    let fetch_ahead = fetch_pays(total);
    let moves = PackedMoves::new(shape);
    let mut d = 0u32;
    while !layer.is_empty() {
        let tag = (((d + 1) % 3) << 2) as u8;
        let run = (&layer[..], &state[..], tag, fetch_ahead, stop);
        let next = match moves.passes() {
            1 => claim_next::<1>(&moves, n, run),
            2 => claim_next::<2>(&moves, n, run),
            3 => claim_next::<3>(&moves, n, run),
            4 => claim_next::<4>(&moves, n, run),
            _ => claim_next::<5>(&moves, n, run),
        };
        if stop.is_stopped() {
            return None;
        }
        if !next.is_empty() {
            reached += next.len() as u64;
            histogram.push(next.len() as u64);
            progress(&Layer {
                depth: d + 1,
                boards: next.len() as u64,
                reached,
                total,
            });
        }
        layer = next;
        d += 1;
    }
    Some(Search {
        codes: state
            .into_iter()
            .map(|entry| entry.into_inner() & 3)
            .collect(),
        histogram,
    })
}

/// The boards one move from the boards of `layer` that no layer claimed
/// before, each claimed with `tag` (the next depth, modulo 3) and the move
/// back, the smallest if several boards of the layer reach it; returns them.
/// `P` is [`PackedMoves::passes`].
fn claim_next<const P: usize>(
    moves: &PackedMoves,
    n: usize,
    (layer, state, tag, fetch_ahead, stop): (&[Node], &[AtomicU8], u8, bool, &Stop),
) -> Vec<Node> {
    let (next, _) = expand(layer, |part, next, alone| {
        for (i, &node) in part.iter().enumerate() {
            if i % STOP_CHECK == 0 && stop.is_stopped() {
                return;
            }
            // The entries of a board further on, fetched while this one is
            // worked on: on large shapes each is a trip to memory.
            if let Some(&ahead) = part.get(i + AHEAD).filter(|_| fetch_ahead) {
                for (_, rank) in neighbors::<P>(moves, n, ahead).into_iter().flatten() {
                    prefetch(state, (rank / 2) as usize);
                }
            }
            for (mv, found) in Move::ALL.into_iter().zip(neighbors::<P>(moves, n, node)) {
                let Some((board, rank)) = found else {
                    continue;
                };
                let entry = &state[(rank / 2) as usize];
                let claimed = tag | mv.opposite().code();
                let mut seen = entry.load(Ordering::Relaxed);
                loop {
                    // Met first: claim it for the next layer. Met again from
                    // this layer: keep the smaller code. Met from the layer
                    // before: nothing.
                    let better = match seen {
                        UNSEEN => true,
                        seen => seen & 0b1100 == tag && claimed < seen,
                    };
                    if !better {
                        break;
                    }
                    if alone {
                        // No other thread: a plain store, not a locked
                        // exchange.
                        entry.store(claimed, Ordering::Relaxed);
                        if seen == UNSEEN {
                            next.push((board, rank));
                        }
                        break;
                    }
                    match entry.compare_exchange_weak(
                        seen,
                        claimed,
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    ) {
                        Ok(_) => {
                            if seen == UNSEEN {
                                next.push((board, rank));
                            }
                            break;
                        }
                        Err(now) => seen = now,
                    }
                }
            }
        }
    });
    next
}

/// The boards one move from `node`, by the move's code (`None` where the
/// blank would leave the board), with their ranks: stepped packed, with no
/// branch on the move ([`PackedMoves::apply`]). `P` is
/// [`PackedMoves::passes`].
#[inline(always)]
pub(crate) fn neighbors<const P: usize>(
    moves: &PackedMoves,
    n: usize,
    (board, rank): Node,
) -> [Option<Node>; 4] {
    let blank = blank_of(board, n);
    let step = |code: u8| {
        let (mut next, mut at) = (board, blank);
        let delta = moves.apply::<P>(&mut next, &mut at, code)?;
        Some((next, rank.wrapping_add_signed(delta)))
    };
    [step(0), step(1), step(2), step(3)]
}

/// The blank's cell on a board of `n` cells packed by [`pack`]: its
/// nibble is the only zero one.
#[inline(always)]
fn blank_of(board: u64, n: usize) -> usize {
    const LOW: u64 = 0x1111_1111_1111_1111;
    // The nibbles past the board are made not zero.
    let cells = board | (!0u64).checked_shl(4 * n as u32).unwrap_or(0);
    let any = (cells | cells >> 1 | cells >> 2 | cells >> 3) & LOW;
    ((any ^ LOW).trailing_zeros() / 4) as usize
}

/// One goal's codes packed and compressed, ready to be placed in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Frame {
    goal: Board,
    entries: u64,
    max_depth: u32,
    raw_len: u64,
    bytes: Vec<u8>,
}

impl Frame {
    /// Packs and compresses the codes of one goal.
    fn new(goal: Board, search: &Search) -> Frame {
        let packed = pack_codes(&search.codes);
        let level = match packed.len() as u64 <= SMALL_SECTION {
            true => SMALL_LEVEL,
            false => LARGE_LEVEL,
        };
        Frame {
            goal,
            entries: search.codes.len() as u64,
            max_depth: search.max_depth(),
            raw_len: packed.len() as u64,
            bytes: file::compress(&packed, level),
        }
    }
}

/// Searches from the canonical goals of `shape` with the blank at each of
/// `blanks` and writes the table file (see [`crate::file`]). Small shapes'
/// goals are searched on every core at once, large shapes' one at a time,
/// each on every core. `progress` hears of each layer of large shapes as
/// it is done, and of each goal when it is done, in order. The bytes
/// depend only on the shape and the blanks.
///
/// # Panics
///
/// Panics if the board has more than 12 cells, or `blanks`
/// are not distinct cells of the shape in increasing order.
#[cfg(test)]
pub fn generate(shape: Shape, blanks: &[usize], progress: impl FnMut(Step<'_>)) -> Vec<u8> {
    generate_until(shape, blanks, progress, &Stop::new()).expect("a making with no stop ends")
}

/// [`generate`], or `None` once `stop` is asked for.
pub(crate) fn generate_until(
    shape: Shape,
    blanks: &[usize],
    mut progress: impl FnMut(Step<'_>),
    stop: &Stop,
) -> Option<Vec<u8>> {
    assert!(
        blanks.windows(2).all(|w| w[0] < w[1]) && blanks.iter().all(|&b| b < shape.cells()),
        "distinct blank cells in increasing order"
    );
    let goals: Vec<Board> = blanks
        .iter()
        .map(|&blank| Board::canonical(shape, blank))
        .collect();
    let frames: Vec<Frame> = match entries(shape) < PARALLEL_LAYER as u64 * 8 {
        true => {
            // Small shapes: a goal a core at once, each searched whole.
            let threads = crate::split::threads();
            let results = crate::split::each(goals.len(), threads, |index| {
                let goal = goals[index];
                search_until(&goal, |_| {}, stop).map(|found| (Frame::new(goal, &found), found))
            });
            // A goal not searched was stopped.
            results
                .into_iter()
                .enumerate()
                .map(|(index, result)| {
                    let (frame, found) = result?;
                    // Each goal done, its depth the longest answer.
                    progress(Step {
                        part: "goals",
                        done: index as u64 + 1,
                        total: goals.len() as u64,
                        depth: Some(found.max_depth()),
                    });
                    Some(frame)
                })
                .collect::<Option<_>>()?
        }
        // Large shapes: each goal on every core, its layers told.
        false => {
            let total = entries(shape);
            let mut layer = |layer: &Layer| {
                progress(Step {
                    part: "boards",
                    done: layer.reached,
                    total,
                    depth: Some(layer.depth),
                })
            };
            goals
                .iter()
                .map(|goal| Some(Frame::new(*goal, &search_until(goal, &mut layer, stop)?)))
                .collect::<Option<_>>()?
        }
    };
    let sections: Vec<NewSection<'_>> = frames
        .iter()
        .map(|frame| NewSection {
            goal: frame.goal,
            tiles: Vec::new(),
            entries: frame.entries,
            max_depth: frame.max_depth,
            raw_len: frame.raw_len,
            bytes: &frame.bytes,
        })
        .collect();
    let mut out = Vec::new();
    file::write(
        &mut out,
        shape,
        RankScheme::LehmerHalf,
        Codec::Zstd2Bit,
        &sections,
    )
    .expect("writing into memory cannot fail");
    Some(out)
}

/// Packs one code per byte (the low two bits) into 2-bit codes, four to a
/// byte.
pub fn pack_codes(codes: &[u8]) -> Vec<u8> {
    codes
        .chunks(4)
        .map(|chunk| {
            chunk
                .iter()
                .enumerate()
                .fold(0u8, |byte, (i, &code)| byte | ((code & 3) << (2 * i)))
        })
        .collect()
}

/// The code of entry `index` in packed codes.
#[inline]
pub(crate) fn code_at(packed: &[u8], index: u64) -> u8 {
    (packed[(index / 4) as usize] >> (2 * (index % 4))) & 3
}

/// [`code_at`], or code 0 past the end: for walks with no branch but their
/// bound, which a wrong rank reaches.
#[inline]
pub(crate) fn code_or_zero(packed: &[u8], index: u64) -> u8 {
    let byte = packed.get((index / 4) as usize).copied().unwrap_or(0);
    (byte >> (2 * (index % 4))) & 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_codes_read_back() {
        let codes: Vec<u8> = (0..37usize).map(|i| ((i * 7 + i / 3) % 4) as u8).collect();
        let packed = pack_codes(&codes);
        assert_eq!(packed.len(), codes.len().div_ceil(4));
        for (i, &code) in codes.iter().enumerate() {
            assert_eq!(code_at(&packed, i as u64), code);
            assert_eq!(code_or_zero(&packed, i as u64), code);
        }
        // Past the last byte, code 0; within it, what the padding holds.
        for i in 40..44 {
            assert_eq!(code_or_zero(&packed, i), 0);
        }
    }

    #[test]
    fn the_blank_of_a_packed_board_is_its_zero_nibble() {
        for n in 4..=16 {
            for blank in 0..n {
                let cells: Vec<u8> = (0..n)
                    .map(|cell| {
                        if cell == blank {
                            0
                        } else {
                            1 + (cell % 15) as u8
                        }
                    })
                    .collect();
                assert_eq!(blank_of(pack(&cells), n), blank, "{cells:?}");
            }
        }
    }

    #[test]
    fn packed_boards_read_back() {
        let board = Board::goal(Shape::FIFTEEN);
        let (cells, blank) = unpack(pack(board.cells()), 16);
        assert_eq!(&cells[..], board.cells());
        assert_eq!(blank, 15);
    }
}
