//! The one breadth-first search: from a goal, layer by layer, over the
//! graph of a [`Rule`] (single steps on boards, jumps on boards, jumps on
//! placements of a group's tiles), a byte an entry; the tables of both
//! metrics and the multi-tile metric's databases are made by it, and the
//! proof of a table (`table::prove`) shares its layers.
//!
//! For the single-tile metric ([`Steps`]): a board first met at depth
//! `d + 1` from a board at depth `d` by the blank moving `m` goes back
//! toward the goal by `m.opposite()`; of all such moves, from all its
//! neighbours at depth `d`, the code keeps the smallest. Following the
//! smallest such move at every step gives, of all shortest paths, the
//! lexicographically smallest: any shortest path that starts with a
//! smaller letter would need a neighbour at depth `d`, which would have
//! given that letter. The multi-tile metric's rule settles a board's code
//! as its layer is expanded, once every board closer has its depth
//! (`mtm::bfs::PackedJumps::next_code`).
//!
//! A board that reaches the goal is identified by its entry,
//! [`board_rank`](crate::board::board_rank)` / 2` (see [`crate::file`]). A
//! layer holds boards packed into a `u64`, four bits a cell; large layers
//! are expanded on every core, with the per-entry state in atomics so that
//! the result does not depend on how the work was split.

use std::ops::Range;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::board::Board;
use crate::file::{self, Codec, NewSection, RankScheme};
use crate::mem::prefetch;
use crate::progress::Step;
use crate::rank::{PackedMoves, cells_rank, factorial, pack, with_passes};
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
/// returns the nodes each part found for the next layer, in the order of
/// the parts, and each part's result. `work` is told whether it runs alone,
/// so that it may skip what only sharing needs.
pub(crate) fn expand<N: Copy + Send + Sync, R: Send>(
    layer: &[N],
    work: impl Fn(&[N], &mut Vec<N>, bool) -> R + Sync,
) -> (Vec<N>, Vec<R>) {
    let threads = crate::split::threads();
    if layer.len() < PARALLEL_LAYER || threads == 1 {
        let mut next = Vec::new();
        let result = work(layer, &mut next, true);
        return (next, vec![result]);
    }
    // More parts than threads, taken in turn, keep every core busy while
    // the parts run at different speeds.
    let parts: Vec<&[N]> = layer.chunks(layer.len().div_ceil(threads * 8)).collect();
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

/// Nodes of a layer worked on between two looks at a stop.
const STOP_CHECK: usize = 1 << 14;

/// The moves of a graph the search walks, layer by layer from a start:
/// single steps on boards (a table of the single-tile metric), jumps on
/// boards (the multi-tile metric), jumps on placements of some tiles (its
/// pattern databases). Each node has an entry, its index in the search's
/// array of one byte an entry.
pub(crate) trait Rule: Sync {
    /// A node: what its moves start from.
    type Node: Copy + Send + Sync;

    /// Whether an entry keeps its whole depth (a database's count), rather
    /// than its depth modulo 3 beside a code (a table's).
    const WHOLE_DEPTH: bool = false;

    /// The entry of `node`.
    fn entry(&self, node: Self::Node) -> u64;

    /// Hands `each` every node one move from `node`, with the code that
    /// node keeps of the move back (the smallest of all its neighbours
    /// one move closer is kept), 0 where the rule keeps no code that way.
    fn neighbors(&self, node: Self::Node, each: impl FnMut(u8, Self::Node));

    /// The code of `node`, `d` moves from the start, known once every node
    /// closer has its depth (`at(next, k)`: whether `next` is `k` moves
    /// from the start, for a neighbour of `node` or of one of its
    /// neighbours); `None` keeps the code claimed.
    #[inline(always)]
    fn settle(
        &self,
        _node: Self::Node,
        _d: u32,
        _at: impl Fn(Self::Node, u32) -> bool,
    ) -> Option<u8> {
        None
    }
}

/// An entry's byte for a node `d` moves from the start: its depth modulo
/// 3 in bits 4-5 beside a code of 4 bits, or its whole depth.
#[inline(always)]
fn tag<R: Rule>(d: u32) -> u8 {
    match R::WHOLE_DEPTH {
        true => u8::try_from(d)
            .ok()
            .filter(|&d| d < UNSEEN)
            .expect("depths fit a byte"),
        false => ((d % 3) << 4) as u8,
    }
}

/// The bits of an entry's byte that [`tag`] sets.
#[inline(always)]
fn tag_mask<R: Rule>() -> u8 {
    match R::WHOLE_DEPTH {
        true => u8::MAX,
        false => 0b11_0000,
    }
}

/// What [`layers_until`] found: every entry's byte ([`UNSEEN`] where no
/// move reached it; else as [`Rule::WHOLE_DEPTH`] says, the code in the
/// low 4 bits), and the nodes at each depth.
pub(crate) struct Layers {
    pub(crate) bytes: Vec<u8>,
    pub(crate) histogram: Vec<u64>,
}

/// The breadth-first search of `rule`'s graph from `start`, over entries
/// `0..len`: layer by layer, each claiming the nodes one move further
/// that no layer claimed before (with the smallest code of the move back),
/// then settling each node's code as it is expanded. Each layer is a list
/// of nodes. `progress` hears of each layer; `None` once `stop` is asked
/// for (looked at every [`STOP_CHECK`] nodes). Large layers are expanded
/// on every core, with the entries in atomics, so that the result does
/// not depend on how the work was split.
///
/// A table keeps a node's depth modulo 3: every move changes a node's
/// distance by one at most, so a neighbour of a node at depth `d` is at
/// `d - 1`, `d` or `d + 1`, which differ modulo 3; one byte a board halves
/// both the memory and the random reads of a depth array beside a code
/// array.
pub(crate) fn layers_until<R: Rule>(
    rule: &R,
    len: u64,
    start: R::Node,
    progress: impl FnMut(&Layer),
    stop: &Stop,
) -> Option<Layers> {
    let fetch_ahead = fetch_pays(len);
    let mut layer = vec![start];
    search(rule, len, start, progress, stop, |state, d| {
        layer = claim_next(rule, &layer, state, d, fetch_ahead, stop);
        layer.len() as u64
    })
}

/// [`layers_until`] for a graph whose nodes are their entries, each layer
/// found by a pass over every entry in order rather than kept in a list:
/// no memory beyond the entries, and nodes taken in order lie near their
/// neighbours, which a list's order forgets.
pub(crate) fn scan_until<R: Rule<Node = u64>>(
    rule: &R,
    len: u64,
    start: u64,
    progress: impl FnMut(&Layer),
    stop: &Stop,
) -> Option<Layers> {
    search(rule, len, start, progress, stop, |state, d| {
        let here = tag::<R>(d);
        let alone = crate::split::threads() == 1;
        let found = in_parts(len, |entries| {
            let mut found = 0;
            for entry in entries {
                if entry % STOP_CHECK as u64 == 0 && stop.is_stopped() {
                    break;
                }
                if state[entry as usize].load(Ordering::Relaxed) & tag_mask::<R>() == here {
                    visit(rule, state, entry, d, alone, |_| found += 1);
                }
            }
            found
        });
        found.into_iter().sum()
    })
}

/// Runs `work` on parts of `0..len`, on every core, more parts than cores
/// taken in turn; returns their results in order.
fn in_parts<R: Send>(len: u64, work: impl Fn(Range<u64>) -> R + Sync) -> Vec<R> {
    let threads = crate::split::threads();
    let part = len.div_ceil(threads as u64 * 8).max(1);
    crate::split::each(len.div_ceil(part) as usize, threads, |index| {
        let from = index as u64 * part;
        work(from..len.min(from + part))
    })
}

/// The layers of a search from `start`: `next_layer(entries, d)` claims
/// the nodes one move from the layer at depth `d` and says how many.
fn search<R: Rule>(
    rule: &R,
    len: u64,
    start: R::Node,
    mut progress: impl FnMut(&Layer),
    stop: &Stop,
    mut next_layer: impl FnMut(&[AtomicU8], u32) -> u64,
) -> Option<Layers> {
    let state: Vec<AtomicU8> = (0..len).map(|_| AtomicU8::new(UNSEEN)).collect();
    state[rule.entry(start) as usize].store(tag::<R>(0), Ordering::Relaxed);
    let mut histogram = vec![1u64];
    let mut reached = 1u64;
    progress(&Layer {
        depth: 0,
        boards: 1,
        reached,
        total: len,
    });
    for d in 0u32.. {
        let found = next_layer(&state, d);
        if stop.is_stopped() {
            return None;
        }
        if found == 0 {
            break;
        }
        reached += found;
        histogram.push(found);
        progress(&Layer {
            depth: d + 1,
            boards: found,
            reached,
            total: len,
        });
    }
    Some(Layers {
        bytes: state.into_iter().map(AtomicU8::into_inner).collect(),
        histogram,
    })
}

/// Settles the nodes of `layer`, `d` moves from the start, and returns
/// the nodes one move further that no layer claimed before.
fn claim_next<R: Rule>(
    rule: &R,
    layer: &[R::Node],
    state: &[AtomicU8],
    d: u32,
    fetch_ahead: bool,
    stop: &Stop,
) -> Vec<R::Node> {
    let (next, _) = expand(layer, |part, next, alone| {
        for (i, &node) in part.iter().enumerate() {
            if i % STOP_CHECK == 0 && stop.is_stopped() {
                return;
            }
            // The entries of a node further on, fetched while this one is
            // worked on: on large graphs each is a trip to memory.
            if let Some(&ahead) = part.get(i + AHEAD).filter(|_| fetch_ahead) {
                rule.neighbors(ahead, |_, found| {
                    prefetch(state, rule.entry(found) as usize)
                });
            }
            visit(rule, state, node, d, alone, |found| next.push(found));
        }
    });
    next
}

/// Settles `node`, `d` moves from the start, and claims each node one
/// move further that no layer claimed before with the next depth's tag
/// and the smallest code back, handing `claimed` those met first. `alone`:
/// no other thread claims at once.
#[inline(always)]
fn visit<R: Rule>(
    rule: &R,
    state: &[AtomicU8],
    node: R::Node,
    d: u32,
    alone: bool,
    mut claimed: impl FnMut(R::Node),
) {
    let (here, claim, mask) = (tag::<R>(d), tag::<R>(d + 1), tag_mask::<R>());
    let byte = |node: R::Node| &state[rule.entry(node) as usize];
    let at = |node: R::Node, k: u32| byte(node).load(Ordering::Relaxed) & mask == tag::<R>(k);
    if let Some(code) = rule.settle(node, d, at) {
        byte(node).store(here | code, Ordering::Relaxed);
    }
    rule.neighbors(node, |code, found| {
        let entry = byte(found);
        let mine = claim | code;
        let mut seen = entry.load(Ordering::Relaxed);
        loop {
            // Met first: claim it for the next layer. Met again from this
            // layer: keep the smaller code. Met from the layer before:
            // nothing.
            let better = match seen {
                UNSEEN => true,
                seen => seen & mask == claim && mine < seen,
            };
            if !better {
                break;
            }
            if alone {
                // No other thread: a plain store, not a locked exchange.
                entry.store(mine, Ordering::Relaxed);
                if seen == UNSEEN {
                    claimed(found);
                }
                break;
            }
            match entry.compare_exchange_weak(seen, mine, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => {
                    if seen == UNSEEN {
                        claimed(found);
                    }
                    break;
                }
                Err(now) => seen = now,
            }
        }
    });
}

/// Single steps of the blank on packed boards: the moves of the
/// single-tile metric's tables, each neighbour keeping the move back.
/// `P` is [`PackedMoves::passes`].
pub(crate) struct Steps<'a, const P: usize> {
    pub(crate) moves: &'a PackedMoves,
    pub(crate) n: usize,
}

impl<const P: usize> Rule for Steps<'_, P> {
    type Node = Node;

    #[inline(always)]
    fn entry(&self, (_, rank): Node) -> u64 {
        rank / 2
    }

    #[inline(always)]
    fn neighbors(&self, node: Node, mut each: impl FnMut(u8, Node)) {
        for (mv, found) in Move::ALL
            .into_iter()
            .zip(neighbors::<P>(self.moves, self.n, node))
        {
            if let Some(found) = found {
                each(mv.opposite().code(), found);
            }
        }
    }
}

/// Runs the reverse search from `goal` in the single-tile metric, telling
/// `progress` about each layer, or `None` once `stop` is asked for. Large
/// layers are searched on every core.
///
/// # Panics
///
/// Panics if the board has more than [`MAX_TABLE_CELLS`] cells.
pub(crate) fn search_until(
    goal: &Board,
    progress: impl FnMut(&Layer),
    stop: &Stop,
) -> Option<Search> {
    let shape = goal.shape();
    let n = shape.cells();
    assert!(
        n <= MAX_TABLE_CELLS,
        "a table of every {shape} board does not fit in memory"
    );
    let moves = PackedMoves::new(shape);
    let start = (pack(goal.cells()), cells_rank(goal.cells()));
    let found = with_passes!(moves.passes(), P => {
        let steps = Steps::<P> { moves: &moves, n };
        layers_until(&steps, entries(shape), start, progress, stop)
    })?;
    Some(Search {
        codes: found.bytes.into_iter().map(|byte| byte & 3).collect(),
        histogram: found.histogram,
    })
}

/// The codes of a table of the single-tile metric toward `goal`, packed 2
/// bits an entry, and the longest answer; `None` once `stop` is asked for.
pub(crate) fn codes_until(
    goal: &Board,
    progress: &mut dyn FnMut(&Layer),
    stop: &Stop,
) -> Option<Codes> {
    let search = search_until(goal, progress, stop)?;
    Some(Codes {
        packed: pack_codes(&search.codes),
        entries: search.codes.len() as u64,
        max_depth: search.max_depth(),
    })
}

/// A table's codes toward one goal, packed as its file keeps them.
pub(crate) struct Codes {
    /// The codes, as the section holds them before compression.
    pub(crate) packed: Vec<u8>,
    /// Entries, one a board that reaches the goal.
    pub(crate) entries: u64,
    /// The longest answer.
    pub(crate) max_depth: u32,
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
pub(crate) fn blank_of(board: u64, n: usize) -> usize {
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
    /// Compresses the codes of one goal.
    fn new(goal: Board, codes: &Codes) -> Frame {
        let level = match codes.packed.len() as u64 <= SMALL_SECTION {
            true => SMALL_LEVEL,
            false => LARGE_LEVEL,
        };
        Frame {
            goal,
            entries: codes.entries,
            max_depth: codes.max_depth,
            raw_len: codes.packed.len() as u64,
            bytes: file::compress(&codes.packed, level),
        }
    }
}

/// What makes a table's codes toward one goal, told of each layer: the
/// single-tile metric's [`codes_until`] or the multi-tile metric's.
pub(crate) type MakeCodes = fn(&Board, &mut dyn FnMut(&Layer), &Stop) -> Option<Codes>;

/// The table of single steps ([`codes_until`], `Codec::Zstd2Bit`) or
/// jumps (`mtm::codes_until`, `Codec::ZstdNibbles`) toward the canonical
/// goals of `shape` with the blank at each of `blanks`, as a file (see
/// [`crate::file`]); `None` once `stop` is asked for. Small shapes' goals
/// are searched on every core at once, large shapes' one at a time, each
/// on every core. `progress` hears of each layer of large shapes as it is
/// done, and of each goal when it is done, in order. The bytes depend
/// only on the shape, the blanks and the metric.
///
/// # Panics
///
/// Panics if the board has more than 12 cells, or `blanks`
/// are not distinct cells of the shape in increasing order.
pub(crate) fn generate_until(
    shape: Shape,
    blanks: &[usize],
    (make, codec): (MakeCodes, Codec),
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
                make(&goal, &mut |_| {}, stop).map(|codes| Frame::new(goal, &codes))
            });
            // A goal not searched was stopped.
            results
                .into_iter()
                .enumerate()
                .map(|(index, frame)| {
                    let frame = frame?;
                    // Each goal done, its depth the longest answer.
                    progress(Step {
                        part: "goals",
                        done: index as u64 + 1,
                        total: goals.len() as u64,
                        depth: Some(frame.max_depth),
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
                .map(|goal| Some(Frame::new(*goal, &make(goal, &mut layer, stop)?)))
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
    file::write(&mut out, shape, RankScheme::LehmerHalf, codec, &sections)
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
