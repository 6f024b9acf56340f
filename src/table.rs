//! Tables of next moves: the walk that answers a board, and the proof that a
//! table's moves are right.
//!
//! A [`Table`] reads a file of [next moves](crate::file) in place from any
//! bytes. A board is answered by following its codes to the goal, at most
//! [`Shape::diameter_bound`] moves, each one checked to stay on the board.
//!
//! # The proof
//!
//! A checksum shows that a file is what its writer wrote, not that the moves
//! are right. [`prove`] shows that from the codes alone: following them
//! defines a distance for every board (the moves to the goal), and the codes
//! are right exactly when
//!
//! 1. every board reaches the goal by them (no loop, no move off the board);
//! 2. no neighbour of a board is more than one step closer than the board's
//!    own next move: then every distance is the true shortest one, since
//!    along any shortest path the distance falls by at most one a move;
//! 3. no smaller letter than the code's leads one step closer: then the
//!    answers are the lexicographically smallest of the shortest.
//!
//! It is one search over the tree the codes make, as fast as making them.

use std::fmt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::thread;

pub use crate::answer::{Proof, TableError};
use crate::answer::{Solution, SolveError};
use crate::bfs::{
    self, AHEAD, Node, UNSEEN, code_at, code_or_zero, expand, neighbors, prefetch, unpack,
};
use crate::board::{Board, board_rank_and_parity, board_rank_and_parity_of, connected};
use crate::file::{Decoded, FileError, HeaderError, Huge, Kind, RawFile};
use crate::rank::{PackedMoves, cells_rank, pack, rank_delta};
use crate::shape::{MAX_CELLS, Move, Shape};

/// Boards a section answers by walking before its answers are derived
/// (see [`Table::write_answer`]): deriving costs about as much as walking
/// this many.
pub const DERIVE_AFTER: u64 = 1 << 13;

/// Boards a section answers by walks all the way to the goal before the
/// answers of the boards near it are found (see [`Table::solve_packed`]).
/// Finding them costs about 0.9 M instructions on 3x3 (callgrind), and
/// saves a walk about 14 steps of about 90 instructions: they pay after
/// about 1,500 boards, half of them solvable.
const NEAR_AFTER: u64 = 1 << 11;

/// How near the goal those boards are, in moves: on 3x3, 4,767 to 6,053
/// boards (by the goal's blank). Fewest instructions on 100,000 cases of
/// random boards, found after 1,024 boards (callgrind, the whole program):
/// 180.5 M at 14, 181.0 M at 15, 185.9 M at 12, 216.6 M with none.
const NEAR_DEPTH: u32 = 14;

/// The most moves an answer packed in a `u64` holds: 2 bits each over a
/// marker bit.
const MAX_PACKED: u32 = 31;

/// A board of the tree the codes of a section make, and its answer.
#[derive(Clone, Copy)]
struct Root {
    /// The board, 4 bits a cell, its blank and its rank.
    board: u64,
    blank: usize,
    rank: u64,
    /// Its answer, as a [`Packed`] answer.
    answer: u64,
    /// The code of the move back to the board before, never a child.
    back: u8,
}

/// The tree the codes of a section make, walked outward from its goal: a
/// board's children are the boards whose next move leads to it. Boards are
/// packed 4 bits a cell and moved as walks move them ([`PackedMoves`]), `P`
/// the cells a move along a column passes.
struct Tree<'a> {
    codes: &'a [u8],
    moves: &'a PackedMoves,
    goal_rank: u64,
}

impl<'a> Tree<'a> {
    /// The tree of `codes` toward `goal`, and its root.
    fn new(goal: &Board, codes: &'a [u8], moves: &'a PackedMoves) -> (Tree<'a>, Root) {
        let goal_rank = cells_rank(goal.cells());
        let root = Root {
            board: pack(goal.cells()),
            blank: goal.blank(),
            rank: goal_rank,
            answer: 1,
            back: u8::MAX,
        };
        let tree = Tree {
            codes,
            moves,
            goal_rank,
        };
        (tree, root)
    }

    /// Hands each child of `root` to `each`, with its answer: the move to
    /// `root`'s board, then `root`'s answer.
    #[inline(always)]
    fn children<const P: usize>(&self, root: &Root, mut each: impl FnMut(&Root)) {
        // A longer answer than fits is never made, a table proven or not.
        if root.answer >= 1 << (2 * MAX_PACKED) {
            return;
        }
        for mv in Move::ALL {
            if mv.code() == root.back {
                continue;
            }
            let (mut board, mut blank) = (root.board, root.blank);
            let Some(delta) = self.moves.apply::<P>(&mut board, &mut blank, mv.code()) else {
                continue;
            };
            let rank = root.rank.wrapping_add_signed(delta);
            if leads_back(self.codes, self.goal_rank, rank, mv) {
                let back = mv.opposite().code();
                each(&Root {
                    board,
                    blank,
                    rank,
                    answer: root.answer << 2 | u64::from(back),
                    back,
                });
            }
        }
    }
}

/// Whether the board of `rank`, one move `mv` from a board, is that board's
/// child in the tree the codes make: its next move leads back, and it is
/// not the goal (whose code means nothing).
#[inline(always)]
fn leads_back(codes: &[u8], goal_rank: u64, rank: u64, mv: Move) -> bool {
    rank != goal_rank && comes_back(codes, rank / 2, mv)
}

/// Whether the next move of the board of `entry`, one move `mv` from a
/// board, leads back to that board.
#[inline(always)]
fn comes_back(codes: &[u8], entry: u64, mv: Move) -> bool {
    code_at(codes, entry) == mv.opposite().code()
}

/// Every answer of a section, packed: answer `i` is the board of entry `i`'s
/// moves, the first in the lowest 2 bits, over a marker bit that tells the
/// length. Derived by a depth-first walk of the tree the codes make, from
/// the goal: each board's answer is handed down to the boards whose next
/// move leads to it, so every answer is written once and none is read back.
/// Boards are packed 4 bits a cell and moved as walks move them
/// ([`PackedMoves`]), `P` the cells a move along a column passes.
///
/// The walk's first `SPLIT_DEPTH` moves are taken here; the subtrees below
/// them are shared out among the cores, each taking the next one left. (A
/// worker that derives the answers keeps the others waiting for them.)
fn derive_answers<const P: usize>(goal: &Board, codes: &[u8], moves: &PackedMoves) -> Huge<u64> {
    /// How deep the walk goes before it shares out the subtrees: a few
    /// hundred of them on 3x3, for an even share.
    const SPLIT_DEPTH: u32 = 10;
    /// The tree, and the answers found in it. The answers are atomic only
    /// so that the walks share them: no two write one entry.
    struct Walk<'a> {
        tree: Tree<'a>,
        answers: &'a [AtomicU64],
    }
    impl Walk<'_> {
        /// Writes the answer of `root`'s board.
        #[inline(always)]
        fn write(&self, root: &Root) {
            self.answers[(root.rank / 2) as usize].store(root.answer, Ordering::Relaxed);
        }

        /// The whole subtree of `root`.
        fn visit<const P: usize>(&self, root: &Root) {
            self.write(root);
            self.tree
                .children::<P>(root, |child| self.visit::<P>(child));
        }

        /// The tree down to `depth` more moves; the boards there go to
        /// `roots`, not walked.
        fn visit_to<const P: usize>(&self, root: &Root, depth: u32, roots: &mut Vec<Root>) {
            if depth == 0 {
                return roots.push(*root);
            }
            self.write(root);
            self.tree
                .children::<P>(root, |child| self.visit_to::<P>(child, depth - 1, roots));
        }
    }
    let mut answers = Huge::zeroed(bfs::entries(goal.shape()) as usize);
    let (tree, goal) = Tree::new(goal, codes, moves);
    let walk = Walk {
        tree,
        answers: answers.atomics(),
    };
    let mut roots = Vec::new();
    walk.visit_to::<P>(&goal, SPLIT_DEPTH, &mut roots);
    let next = AtomicUsize::new(0);
    let share = || {
        while let Some(root) = roots.get(next.fetch_add(1, Ordering::Relaxed)) {
            walk.visit::<P>(root);
        }
    };
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    thread::scope(|scope| {
        for _ in 1..cores.min(4) {
            // A thread that cannot be started leaves its share to the rest.
            let _ = thread::Builder::new().spawn_scoped(scope, share);
        }
        share();
    });
    answers
}

/// The answers of the boards within a few moves of a section's goal, by
/// entry (the rank halved): a bit an entry says which boards are in, and
/// their answers follow in the order of their entries. A walk that comes
/// upon one of these boards stops there, its answer known.
struct Near {
    bits: Vec<u64>,
    /// Per word of `bits`, the bits set in the words before it.
    before: Vec<u32>,
    answers: Vec<u64>,
}

impl Near {
    /// No boards at all: the walks go to the goal.
    const NONE: Near = Near {
        bits: Vec::new(),
        before: Vec::new(),
        answers: Vec::new(),
    };

    /// The boards within `depth` moves of `goal` in the tree of `codes`.
    fn new<const P: usize>(goal: &Board, codes: &[u8], moves: &PackedMoves, depth: u32) -> Near {
        fn visit<const P: usize>(
            tree: &Tree,
            root: &Root,
            depth: u32,
            found: &mut Vec<(u64, u64)>,
        ) {
            found.push((root.rank / 2, root.answer));
            if depth > 0 {
                tree.children::<P>(root, |child| visit::<P>(tree, child, depth - 1, found));
            }
        }
        let words = bfs::entries(goal.shape()).div_ceil(64) as usize;
        let (tree, root) = Tree::new(goal, codes, moves);
        let mut found = Vec::new();
        visit::<P>(&tree, &root, depth, &mut found);
        let mut near = Near {
            bits: vec![0u64; words],
            before: Vec::with_capacity(words),
            answers: vec![0; found.len()],
        };
        for &(entry, _) in &found {
            near.bits[(entry / 64) as usize] |= 1 << (entry % 64);
        }
        let mut count = 0;
        for word in &near.bits {
            near.before.push(count);
            count += word.count_ones();
        }
        for &(entry, answer) in &found {
            let slot = near.slot(entry);
            near.answers[slot] = answer;
        }
        near
    }

    /// Whether the board of `entry` is in.
    #[inline(always)]
    fn has(&self, entry: u64) -> bool {
        self.bits
            .get((entry / 64) as usize)
            .is_some_and(|word| word >> (entry % 64) & 1 != 0)
    }

    /// The answer of the board of `entry`, if it is in.
    #[inline(always)]
    fn get(&self, entry: u64) -> Option<u64> {
        self.has(entry).then(|| self.answers[self.slot(entry)])
    }

    /// Where the answer of the board of `entry` is, if it is in.
    #[inline(always)]
    fn slot(&self, entry: u64) -> usize {
        let word = (entry / 64) as usize;
        let below = self.bits[word] & ((1u64 << (entry % 64)) - 1);
        (self.before[word] + below.count_ones()) as usize
    }
}

/// The near answers of sections that have none (yet).
static NO_NEAR: Near = Near::NONE;

/// Appends the letters of a packed answer to `out`, four a step, and a
/// newline after them if `line`; returns its length. An answer never
/// derived (0) is empty.
#[inline(always)]
fn spell(answer: u64, line: bool, out: &mut Vec<u8>) -> usize {
    /// The letters of each byte of four 2-bit codes, the lowest first, as
    /// the bytes of a word.
    const SPELLING: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut byte = 0;
        while byte < 256 {
            let mut i = 0;
            while i < 4 {
                table[byte] |= (b"dlru"[(byte >> (2 * i)) & 3] as u32) << (8 * i);
                i += 1;
            }
            byte += 1;
        }
        table
    };
    let len = Packed(answer).len();
    // Every letter the word may hold, eight a word, then the answer's
    // length kept: the words go out whole, with no buffer read back and no
    // copy of variable length (a call) a board.
    let start = out.len();
    out.reserve(4 * 8 + 1);
    for k in 0..4 {
        let byte = |i: usize| ((answer >> (8 * (2 * k + i))) & 0xFF) as usize;
        let word = u64::from(SPELLING[byte(0)]) | u64::from(SPELLING[byte(1)]) << 32;
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.truncate(start + len);
    if line {
        out.push(b'\n');
    }
    len
}

/// The most walks [`Table::solve_group`] takes at once: enough loads in
/// flight to cover a trip to memory.
pub const GROUP: usize = 16;

/// The most walks [`Table::solve_packed`] keeps going at once: enough to
/// fill the time one step waits for the step before it.
const LANES: usize = 8;

/// An answer packed in a `u64`: 2 bits a move ([`Move::code`]), the first
/// lowest, over a marker bit that tells the length. Every answer of up to
/// 31 moves fits, every 3x3 answer among them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packed(u64);

impl Packed {
    /// The number of moves.
    pub fn len(self) -> usize {
        (63 - self.0.max(1).leading_zeros() as usize) / 2
    }

    /// Whether there are no moves: the board is the goal.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The moves, in order.
    pub fn moves(self) -> impl Iterator<Item = Move> {
        (0..self.len()).map(move |i| Move::from_code((self.0 >> (2 * i)) as u8))
    }

    /// Appends the letters of the moves to `out`.
    pub fn write(self, out: &mut Vec<u8>) {
        spell(self.0, false, out);
    }
}

/// A walk of [`Table::solve_packed`] under way, or an idle lane.
#[derive(Clone, Copy)]
struct Lane<'c> {
    codes: &'c [u8],
    near: &'c Near,
    /// The board, 4 bits a cell, its blank and its rank.
    board: u64,
    blank: usize,
    rank: u64,
    goal_rank: u64,
    /// The moves so far, packed as [`Packed`] without its marker.
    answer: u64,
    steps: u32,
    /// Where the answer goes; `usize::MAX` for an idle lane.
    slot: usize,
}

impl Lane<'_> {
    /// A lane with no walk: at its goal, and answering nothing.
    const IDLE: Lane<'static> = Lane {
        codes: &[],
        near: &NO_NEAR,
        board: 0,
        blank: 0,
        rank: 0,
        goal_rank: 0,
        answer: 0,
        steps: 0,
        slot: usize::MAX,
    };
}

/// Follows the codes one layer further from `layer`, the boards at depth
/// `d`: returns the boards at `d + 1` (those whose code leads back into the
/// layer) and, per part of the layer, the first thing found wrong. `P` is
/// [`PackedMoves::passes`].
fn prove_layer<const P: usize>(
    moves: &PackedMoves,
    shape: Shape,
    layer: &[Node],
    d: u32,
    dist: &[AtomicU8],
    codes: &[u8],
    fetch_ahead: bool,
) -> (Vec<Node>, Vec<Option<Proof>>) {
    let n = shape.cells();
    expand(layer, |part, next, _| {
        for (i, &node) in part.iter().enumerate() {
            // What a board further on reads, fetched ahead (see
            // `bfs::search`).
            if let Some(&ahead) = part.get(i + AHEAD).filter(|_| fetch_ahead) {
                for (_, rank) in neighbors::<P>(moves, n, ahead).into_iter().flatten() {
                    let entry = (rank / 2) as usize;
                    prefetch(dist, entry);
                    prefetch(codes, entry / 4);
                }
            }
            let code = code_at(codes, node.1 / 2);
            for (mv, found) in Move::ALL.into_iter().zip(neighbors::<P>(moves, n, node)) {
                let Some((board, rank)) = found else {
                    continue;
                };
                let entry = rank / 2;
                let seen = dist[entry as usize].load(Ordering::Relaxed);
                if d > 0 && seen != UNSEEN {
                    let board = || Board::from_permutation(shape, &unpack(node.0, n).0[..n]);
                    if u32::from(seen) + 1 < d {
                        return Some(Proof::NotShortest {
                            board: board(),
                            depth: d,
                        });
                    }
                    // Moves come in letter order: the first such is the
                    // smallest.
                    if u32::from(seen) + 1 == d && mv.code() < code {
                        return Some(Proof::NotSmallest {
                            board: board(),
                            got: Move::from_code(code),
                            smaller: mv,
                        });
                    }
                }
                // The neighbour whose next move leads here is one step
                // further; only this board can be its parent. (The goal is
                // seen from the start.)
                if seen == UNSEEN && comes_back(codes, entry, mv) {
                    dist[entry as usize].store(d as u8 + 1, Ordering::Relaxed);
                    next.push((board, rank));
                }
            }
        }
        None
    })
}

/// Proves the packed 2-bit `codes` of a table toward `goal` right, as the
/// [module](self) docs say; returns the number of boards at each distance.
///
/// # Errors
///
/// Fails with the first thing found wrong.
///
/// # Panics
///
/// Panics if `codes` are not `ceil(n! / 8)` bytes, one code per entry.
pub fn prove(goal: &Board, codes: &[u8]) -> Result<Vec<u64>, Proof> {
    let shape = goal.shape();
    let total = bfs::entries(shape);
    assert_eq!(codes.len() as u64, total.div_ceil(4), "one code per entry");
    let bound = shape.diameter_bound();
    let dist: Vec<AtomicU8> = (0..total).map(|_| AtomicU8::new(UNSEEN)).collect();
    dist[(cells_rank(goal.cells()) / 2) as usize].store(0, Ordering::Relaxed);
    let mut layer = vec![(pack(goal.cells()), cells_rank(goal.cells()))];
    let mut histogram = vec![1u64];
    let fetch_ahead = bfs::fetch_pays(total);
    let moves = PackedMoves::new(shape);
    let mut d = 0u32;
    while !layer.is_empty() {
        if d > bound {
            return Err(Proof::TooLong { bound });
        }
        let (next, found) = match moves.passes() {
            1 => prove_layer::<1>(&moves, shape, &layer, d, &dist, codes, fetch_ahead),
            2 => prove_layer::<2>(&moves, shape, &layer, d, &dist, codes, fetch_ahead),
            3 => prove_layer::<3>(&moves, shape, &layer, d, &dist, codes, fetch_ahead),
            4 => prove_layer::<4>(&moves, shape, &layer, d, &dist, codes, fetch_ahead),
            _ => prove_layer::<5>(&moves, shape, &layer, d, &dist, codes, fetch_ahead),
        };
        if let Some(proof) = found.into_iter().flatten().next() {
            return Err(proof);
        }
        if !next.is_empty() {
            histogram.push(next.len() as u64);
        }
        layer = next;
        d += 1;
    }
    let reached: u64 = histogram.iter().sum();
    match reached == total {
        true => Ok(histogram),
        false => Err(Proof::Unreached {
            boards: total - reached,
        }),
    }
}

/// A table of next moves, read in place from any bytes: a `Vec<u8>`, a
/// [memory map](crate::map), or a table built into the program.
///
/// [`Table::new`] checks the header cheaply; a goal's codes are checked
/// against their checksum and decompressed the first time a board is solved
/// toward it, so a query touches only the section it needs, and proven
/// right then too if the table was made with [`Table::proving`]. The tables
/// built into the program were decoded when it was built, and are read in
/// place. [`Table::verify`] checks and proves every section.
pub struct Table<D> {
    file: RawFile<D>,
    shape: Shape,
    /// The section of each blank cell, if the table has one.
    section_of: [Option<u8>; MAX_CELLS],
    codes: Vec<OnceLock<Result<Decoded, TableError>>>,
    /// Every section's codes, decoded when the program was built (see
    /// [`Table::with_decoded`]): read in place instead of `codes`.
    /// With the bytes of one section: a division a walk saved.
    decoded: Option<(&'static [u8], usize)>,
    /// Prove each section before its first use.
    prove: bool,
    /// `neighbors[cell][move code]`: where the blank goes.
    neighbors: [[Option<u8>; 4]; MAX_CELLS],
    /// The goal of each section, its rank and its parity.
    goals: Vec<Board>,
    goal_ranks: Vec<u64>,
    goal_parities: Vec<usize>,
    /// The most moves a walk may take.
    bound: u32,
    /// Whether walks in groups pay (see [`Table::groups_pay`]).
    groups_pay: bool,
    /// The moves of walks that go interleaved (see [`Table::solve_packed`]).
    packed_moves: Box<PackedMoves>,
    /// Per section, per cell: the parity of the cell's distance from the
    /// goal's blank, so that solvability costs no division.
    distance_parity: Vec<[u8; MAX_CELLS]>,
    /// Each section's answers, derived once enough boards ask (see
    /// [`Table::write_answer`]).
    answers: Vec<OnceLock<Huge<u64>>>,
    /// Each section's near answers, found once enough boards ask (see
    /// [`Table::solve_packed`]).
    near: Vec<OnceLock<Near>>,
    /// Boards asked of each section so far.
    asked: Vec<AtomicU64>,
}

impl<D: AsRef<[u8]>> Table<D> {
    /// Reads a table from `data`, checking its magic, version, header
    /// checksum and layout: one section per goal, each a canonical goal, in
    /// increasing order of the blank's cell, with one entry per board.
    ///
    /// # Errors
    ///
    /// Fails with the first thing wrong with the header.
    pub fn new(data: D) -> Result<Table<D>, TableError> {
        let file = RawFile::of_kind(data, Kind::NextMoves)?;
        let shape = file.shape();
        let bound = shape.diameter_bound();
        let entries = bfs::entries(shape);
        let mut section_of = [None; MAX_CELLS];
        let mut goals = Vec::new();
        let mut previous = None;
        for (index, section) in file.header().sections.iter().enumerate() {
            let blank = section.goal.iter().position(|&t| t == 0).unwrap_or(0);
            let invalid = |error: HeaderError| TableError::File(FileError::Header(error));
            if section.goal != Board::canonical(shape, blank).cells() || !section.tiles.is_empty() {
                return Err(invalid(HeaderError::Goal { section: index }));
            }
            if previous.is_some_and(|p| p >= blank) {
                return Err(invalid(HeaderError::Order { section: index }));
            }
            previous = Some(blank);
            if section.entries != entries || section.raw_len != entries.div_ceil(4) {
                return Err(invalid(HeaderError::Entries {
                    section: index,
                    expected: entries,
                    got: section.entries,
                    len: section.raw_len,
                }));
            }
            if section.max_depth > bound {
                return Err(invalid(HeaderError::Depth {
                    section: index,
                    got: section.max_depth,
                    shape,
                    bound,
                }));
            }
            section_of[blank] = Some(index as u8);
            goals.push(Board::canonical(shape, blank));
        }
        let count = goals.len();
        let distance_parity = goals
            .iter()
            .map(|goal| {
                let mut parity = [0u8; MAX_CELLS];
                for (cell, p) in parity.iter_mut().enumerate().take(shape.cells()) {
                    *p = (shape.distance(cell, goal.blank()) % 2) as u8;
                }
                parity
            })
            .collect();
        let codes = goals.iter().map(|_| OnceLock::new()).collect::<Vec<_>>();
        let goal_ranks = goals.iter().map(|g| board_rank_and_parity(g).0).collect();
        let goal_parities = goals.iter().map(Board::parity).collect();
        Ok(Table {
            file,
            shape,
            section_of,
            codes,
            decoded: None,
            prove: false,
            neighbors: shape.neighbor_table(),
            goals,
            goal_ranks,
            goal_parities,
            bound,
            groups_pay: entries.div_ceil(4) > 1 << 20,
            packed_moves: Box::new(PackedMoves::new(shape)),
            distance_parity,
            answers: (0..count).map(|_| OnceLock::new()).collect(),
            near: (0..count).map(|_| OnceLock::new()).collect(),
            asked: (0..count).map(|_| AtomicU64::new(0)).collect(),
        })
    }

    /// This table, reading its codes from `decoded`, its sections' decoded
    /// back to back, instead of decoding them: for a table built into the
    /// program, whose sections were decoded (their zstd checksums checked)
    /// when it was built. A query on a 3x3 board then starts a quarter of a
    /// millisecond sooner, most of it a decoder starting with cold caches.
    /// `decoded` of another length than the sections' is not used: each
    /// section is then checked and decoded on first use, as in a file.
    /// [`Table::verify`] checks and proves the sections either way.
    pub(crate) fn with_decoded(mut self, decoded: &'static [u8]) -> Table<D> {
        let len: u64 = self.file.header().sections.iter().map(|s| s.raw_len).sum();
        if decoded.len() as u64 == len {
            // Every section holds as many entries (`new` checked it).
            self.decoded = Some((decoded, decoded.len() / self.goals.len()));
        }
        self
    }

    /// This table, with each section [proven](prove) right before its first
    /// use: for tables from files, which a checksum cannot vouch for. A
    /// section of the 3x3 board takes a few milliseconds.
    pub fn proving(mut self) -> Table<D> {
        self.prove = true;
        self
    }

    /// Checks the checksum of every section, decodes it and proves it
    /// right, and checks the header's longest answers.
    ///
    /// # Errors
    ///
    /// Fails with the first section damaged or wrong.
    pub fn verify(&self) -> Result<(), TableError> {
        // Every checksum first: a damaged file is told apart in
        // microseconds, before any proof.
        self.file.verify()?;
        for (index, goal) in self.goals.iter().enumerate() {
            let codes = self.file.decompress(index)?;
            let wrong = |proof| TableError::Wrong {
                section: index,
                blank: goal.blank(),
                proof,
            };
            let histogram = prove(goal, &codes).map_err(wrong)?;
            let header = self.file.header().sections[index].max_depth;
            let proven = histogram.len() as u32 - 1;
            if header != proven {
                return Err(wrong(Proof::MaxDepth { header, proven }));
            }
            // Keep the proven codes for the walks to come.
            let _ = self.codes[index].set(Ok(codes));
        }
        Ok(())
    }

    /// The shape of the boards the table answers.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The raw file under the table.
    pub fn file(&self) -> &RawFile<D> {
        &self.file
    }

    /// The cells of the blank of the goals the table has sections for.
    pub fn blanks(&self) -> impl Iterator<Item = usize> + '_ {
        self.goals.iter().map(Board::blank)
    }

    /// Whether the table answers boards toward `goal`: any goal of its
    /// shape whose blank is in the cell of one of its sections.
    pub fn serves(&self, goal: &Board) -> bool {
        goal.shape() == self.shape && self.section_of[goal.blank()].is_some()
    }

    /// Solves `start` toward the usual goal, tiles in order and the blank
    /// last.
    ///
    /// # Errors
    ///
    /// As [`Table::solve_each`].
    pub fn solve(&self, start: &Board) -> Result<Solution, SolveError> {
        self.solve_to(start, &Board::goal(self.shape))
    }

    /// Solves `start` toward any `goal` board.
    ///
    /// # Errors
    ///
    /// As [`Table::solve_each`].
    pub fn solve_to(&self, start: &Board, goal: &Board) -> Result<Solution, SolveError> {
        let mut moves = Vec::new();
        Ok(match self.solve_each(start, goal, |mv| moves.push(mv))? {
            Some(_) => Solution::Moves(moves),
            None => Solution::Unsolvable,
        })
    }

    /// Solves `start` toward `goal`, handing each move of the answer to
    /// `emit` in turn; returns the number of moves, or `None` if `goal`
    /// cannot be reached. The fastest way to write many answers.
    ///
    /// The tiles are relabelled so that `goal` becomes the canonical goal
    /// with its blank in the same cell; the moves from the relabelled start
    /// to that canonical goal are the moves from `start` to `goal`.
    ///
    /// # Errors
    ///
    /// Fails if a board is of another shape, the table has no section for
    /// the goal's blank, or the section is damaged or wrong; `emit` may have
    /// been handed some moves by then.
    pub fn solve_each(
        &self,
        start: &Board,
        goal: &Board,
        emit: impl FnMut(Move),
    ) -> Result<Option<usize>, SolveError> {
        let Some((index, start, rank)) = self.place(start, goal)? else {
            return Ok(None);
        };
        Ok(Some(self.walk(&start, rank, index, emit)?))
    }

    /// Solves `start` toward `goal` as [`Table::solve_each`] does, appending
    /// the letters of the answer to `out`; the number of moves, or `None` if
    /// unsolvable. The fastest way to answer many boards.
    ///
    /// Once [`DERIVE_AFTER`] boards have asked a section, its answers are
    /// derived, all at once, from its codes: a board's answer is its next
    /// move followed by the answer of the board it leads to, so one pass
    /// over the tree the codes make, outward from the goal, gives every
    /// answer, packed in a `u64` (2 bits a move, over a marker bit). A board
    /// is then answered by one load and four letters a step, instead of a
    /// chain of loads a move. This costs a few milliseconds and 8 bytes a
    /// board (1.45 MB for a 3x3 goal), paid only by inputs large enough to
    /// pay for it, and only for sections whose answers fit in 31 moves
    /// (2x2, 2x3, 3x3). The derivation runs on up to 4 threads, one a core.
    ///
    /// # Errors
    ///
    /// As [`Table::solve_each`]; `out` may hold some letters by then.
    pub fn write_answer(
        &self,
        start: &Board,
        goal: &Board,
        out: &mut Vec<u8>,
    ) -> Result<Option<usize>, SolveError> {
        let Some((index, start, rank)) = self.place(start, goal)? else {
            return Ok(None);
        };
        if let Some(answers) = self.answers(index)? {
            return Ok(Some(spell(answers[(rank / 2) as usize], false, out)));
        }
        Ok(Some(self.walk(&start, rank, index, |mv| {
            out.push(mv.letter() as u8)
        })?))
    }

    /// Answers a run of boards toward one goal, a line each (the letters,
    /// or `unsolvable`), into `out`, once the section's answers are derived
    /// (see [`Table::write_answer`]): the ranks of the run come first, each
    /// answer fetched ahead, so that their loads overlap. Returns `false`,
    /// writing nothing, if the answers are not derived yet or a board is of
    /// another shape.
    ///
    /// # Errors
    ///
    /// As [`Table::solve_each`] for the goal.
    pub fn write_answers(
        &self,
        starts: &[Board],
        goal: &Board,
        out: &mut Vec<u8>,
    ) -> Result<bool, SolveError> {
        if starts.iter().any(|s| s.shape() != self.shape) {
            return Ok(false);
        }
        let Ok(index) = self.section(goal, None) else {
            return Ok(false);
        };
        let Some(answers) = self.answers_after(index, starts.len() as u64)? else {
            return Ok(false);
        };
        match self.shape.cells() {
            9 => self.write_derived::<true>(starts, goal, index, answers, out),
            _ => self.write_derived::<false>(starts, goal, index, answers, out),
        }
        Ok(true)
    }

    /// [`Table::write_answers`] from the derived `answers` of section
    /// `index`, on boards of 9 cells if `NINE`: ranked with no look at
    /// their shape, which took a multiplication and a branch a board.
    fn write_derived<const NINE: bool>(
        &self,
        starts: &[Board],
        goal: &Board,
        index: usize,
        answers: &[u64],
        out: &mut Vec<u8>,
    ) {
        let canonical = &self.goals[index];
        let goal_parity = self.goal_parities[index];
        let distance_parity = &self.distance_parity[index];
        const RUN: usize = 32;
        let mut entries = [u64::MAX; RUN];
        let relabel = goal != canonical;
        for run in starts.chunks(RUN) {
            for (start, entry) in run.iter().zip(&mut entries) {
                let start = match relabel {
                    false => *start,
                    true => start.relabelled(goal, canonical),
                };
                let (rank, parity) = board_rank_and_parity_of::<NINE>(&start);
                // The solvability rule of `connected`, from the table.
                let distance = usize::from(distance_parity[start.blank()]);
                *entry = match (parity ^ goal_parity) == distance {
                    true => rank / 2,
                    false => u64::MAX,
                };
                prefetch(answers, *entry as usize);
            }
            for &entry in &entries[..run.len()] {
                match answers.get(entry as usize) {
                    Some(&answer) => {
                        spell(answer, true, out);
                    }
                    None => out.extend_from_slice(b"unsolvable\n"),
                }
            }
        }
    }

    /// Solves each of `starts` toward the goal beside it in `goals`, as
    /// [`Table::solve_each`] does, into `answers` (cleared first): one
    /// [`Packed`] answer a start, or `None` if unsolvable. The fastest way to
    /// answer boards toward many goals (`--pairs`).
    ///
    /// A walk is a chain of steps, each waiting for the one before. Here
    /// eight walks go interleaved, so that their steps overlap, and a
    /// lane takes the next board as soon as its walk is done. A step follows
    /// the board packed 4 bits a cell, with no branch on its move. A goal
    /// whose answers are [derived](Table::write_answer) takes them instead.
    ///
    /// Once a few thousand boards have asked a goal of 3 columns or fewer,
    /// the answers of the boards within 14 moves of it are found (the tree
    /// the codes make, walked that deep from the goal: 4,767 to 6,053 boards
    /// on 3x3, in 0.06-0.22 ms). A walk then stops at the first of them it
    /// comes upon: a random 3x3 board takes 8 steps instead of 22.
    ///
    /// Returns `false`, answering nothing, if a board is of another shape,
    /// the table has no section for a goal's blank, or a section's answers
    /// may be longer than 31 moves.
    ///
    /// # Errors
    ///
    /// As [`Table::solve_each`].
    ///
    /// # Panics
    ///
    /// Panics if there are fewer goals than starts.
    pub fn solve_packed(
        &self,
        starts: &[Board],
        goals: &[Board],
        answers: &mut Vec<Option<Packed>>,
    ) -> Result<bool, SolveError> {
        assert!(goals.len() >= starts.len(), "a goal for every start");
        answers.clear();
        let mut asking = [0u64; MAX_CELLS];
        for (start, goal) in starts.iter().zip(goals) {
            let section = self.section_of[goal.blank()].map(usize::from);
            if start.shape() != self.shape
                || goal.shape() != self.shape
                || !section.is_some_and(|index| self.packs(index))
            {
                return Ok(false);
            }
            asking[section.unwrap_or(0)] += 1;
        }
        let mut near = false;
        for (index, &boards) in asking.iter().enumerate().take(self.goals.len()) {
            if boards > 0 {
                near |= self.near_after(index, boards)?;
            }
        }
        answers.resize(starts.len(), None);
        match (self.packed_moves.passes(), near) {
            (1, false) => self.walk_lanes::<1, false>(starts, goals, answers)?,
            (1, true) => self.walk_lanes::<1, true>(starts, goals, answers)?,
            (2, false) => self.walk_lanes::<2, false>(starts, goals, answers)?,
            (2, true) => self.walk_lanes::<2, true>(starts, goals, answers)?,
            // No near answers on boards of 4 columns.
            (3, _) => self.walk_lanes::<3, false>(starts, goals, answers)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The walks of [`Table::solve_packed`], on a board of `P + 1` columns;
    /// `NEAR` if a goal of theirs has near answers, which they then look
    /// for at each step.
    fn walk_lanes<const P: usize, const NEAR: bool>(
        &self,
        starts: &[Board],
        goals: &[Board],
        answers: &mut [Option<Packed>],
    ) -> Result<(), SolveError> {
        // The most steps a walk may take, and each answer can hold.
        let most = self.bound.min(MAX_PACKED);
        let mut lanes = [Lane::IDLE; LANES];
        let mut next = 0;
        let mut busy = 0;
        loop {
            for lane in &mut lanes {
                // Idle lanes are at their goal too.
                if lane.rank == lane.goal_rank || (NEAR && lane.near.has(lane.rank / 2)) {
                    if lane.slot == usize::MAX && next == starts.len() {
                        continue;
                    }
                    if lane.slot != usize::MAX {
                        // The rest of the answer, from the goal or near it.
                        let near = if NEAR {
                            lane.near.get(lane.rank / 2)
                        } else {
                            None
                        };
                        let rest = near.unwrap_or(1);
                        if lane.steps as usize + Packed(rest).len() > most as usize {
                            return Err(self.walk_error(&starts[lane.slot], &goals[lane.slot]));
                        }
                        answers[lane.slot] = Some(Packed(lane.answer | rest << (2 * lane.steps)));
                        busy -= 1;
                    }
                    *lane = self.next_lane(&mut next, starts, goals, answers)?;
                    busy += usize::from(lane.slot != usize::MAX);
                    continue;
                }
                // A rank off the table reads code 0: the walk goes on
                // wrong, and ends too long.
                let code = code_or_zero(lane.codes, lane.rank / 2);
                let delta = self
                    .packed_moves
                    .step::<P>(&mut lane.board, &mut lane.blank, code);
                lane.rank = lane.rank.wrapping_add_signed(delta);
                lane.answer |= u64::from(code) << (2 * lane.steps);
                lane.steps += 1;
                if lane.steps > most {
                    return Err(self.walk_error(&starts[lane.slot], &goals[lane.slot]));
                }
                // Its next code is read after the other lanes' steps.
                prefetch(lane.codes, (lane.rank / 8) as usize);
                if NEAR {
                    prefetch(&lane.near.bits, (lane.rank / 128) as usize);
                }
            }
            if busy == 0 && next == starts.len() {
                return Ok(());
            }
        }
    }

    /// The next board from `next` on that needs a walk, in a [`Lane`]; the
    /// boards before it (unsolvable, or with derived answers) are answered
    /// here. An idle lane once there are none.
    #[inline(never)]
    fn next_lane(
        &self,
        next: &mut usize,
        starts: &[Board],
        goals: &[Board],
        answers: &mut [Option<Packed>],
    ) -> Result<Lane<'_>, SolveError> {
        while *next < starts.len() {
            let slot = *next;
            *next += 1;
            // Shapes and sections were checked for the whole run.
            let (start, goal) = (&starts[slot], &goals[slot]);
            let index = self.section_of[goal.blank()].map_or(0, usize::from);
            let placed = match self.shape.cells() {
                9 => self.place_in::<true>(index, start, goal),
                _ => self.place_in::<false>(index, start, goal),
            };
            let Some((start, blank, rank)) = placed else {
                continue;
            };
            if let Some(derived) = self.answers[index].get() {
                answers[slot] = Some(Packed(derived[(rank / 2) as usize]));
                continue;
            }
            let goal_rank = self.goal_ranks[index];
            if rank == goal_rank {
                answers[slot] = Some(Packed(1));
                continue;
            }
            return Ok(Lane {
                codes: self.codes(index)?,
                near: self.near[index].get().unwrap_or(&NO_NEAR),
                board: start.packed(),
                blank,
                rank,
                goal_rank,
                answer: 0,
                steps: 0,
                slot,
            });
        }
        Ok(Lane::IDLE)
    }

    /// Why the walk from `start` toward `goal` failed, in an interleaved
    /// walk: the one walk again, to say it as [`Table::solve_each`] does.
    #[cold]
    fn walk_error(&self, start: &Board, goal: &Board) -> SolveError {
        let index = match self.place(start, goal) {
            Err(err) => return err,
            Ok(None) => unreachable!("a board walked is solvable"),
            Ok(Some((index, start, rank))) => match self.walk(&start, rank, index, |_| {}) {
                Err(err) => return err.into(),
                Ok(_) => index,
            },
        };
        // The walk is right, and longer than the header says answers are.
        SolveError::Table(TableError::Wrong {
            section: index,
            blank: goal.blank(),
            proof: Proof::Walk {
                board: *start,
                problem: "take more moves than the longest answer the header gives",
            },
        })
    }

    /// Derives the answers toward goals with the blank where `goal` has it
    /// now, whatever the number of boards asked so far (see
    /// [`Table::write_answer`]); `false` if they do not fit in 31 moves.
    /// The work is shared among up to 4 threads, one a core.
    ///
    /// # Errors
    ///
    /// As [`Table::solve_each`] for the goal.
    pub fn derive_answers(&self, goal: &Board) -> Result<bool, SolveError> {
        let index = self.section(goal, None)?;
        Ok(self.answers_after(index, DERIVE_AFTER)?.is_some())
    }

    /// Where `start` stands toward `goal`: the goal's section, `start`
    /// relabelled toward the section's goal, and its rank; `None` if it
    /// cannot reach the goal.
    #[inline(always)]
    fn place(
        &self,
        start: &Board,
        goal: &Board,
    ) -> Result<Option<(usize, Board, u64)>, SolveError> {
        let index = self.section(goal, Some(start))?;
        Ok(self
            .place_in::<false>(index, start, goal)
            .map(|(start, _, rank)| (index, start, rank)))
    }

    /// [`Table::place`] in section `index`, the boards known to be of the
    /// table's shape, of 9 cells if `NINE`: `start` relabelled, its blank
    /// and its rank.
    #[inline(always)]
    fn place_in<const NINE: bool>(
        &self,
        index: usize,
        start: &Board,
        goal: &Board,
    ) -> Option<(Board, usize, u64)> {
        let canonical = &self.goals[index];
        let start = match goal == canonical {
            true => *start,
            false => start.relabelled_of::<NINE>(goal, canonical),
        };
        let (rank, parity) = board_rank_and_parity_of::<NINE>(&start);
        // The solvability rule of `connected`, from the table: no division.
        let blank = start.blank();
        let distance = usize::from(self.distance_parity[index][blank]);
        let reachable = (parity ^ self.goal_parities[index]) == distance;
        reachable.then_some((start, blank, rank))
    }

    /// The section that answers boards toward `goal`, once `goal` and
    /// `start` are found of the table's shape.
    fn section(&self, goal: &Board, start: Option<&Board>) -> Result<usize, SolveError> {
        for board in start.into_iter().chain([goal]) {
            if board.shape() != self.shape {
                return Err(SolveError::Shape {
                    expected: self.shape,
                    got: board.shape(),
                });
            }
        }
        let blank = goal.blank();
        self.section_of[blank]
            .map(usize::from)
            .ok_or(SolveError::NoData {
                shape: self.shape,
                blank,
            })
    }

    /// Whether every answer of section `index` fits a [`Packed`] answer, as
    /// its header says.
    fn packs(&self, index: usize) -> bool {
        self.file.header().sections[index].max_depth <= MAX_PACKED
    }

    /// The answers of section `index`, if derived or worth deriving now.
    #[inline]
    fn answers(&self, index: usize) -> Result<Option<&[u64]>, TableError> {
        self.answers_after(index, 1)
    }

    /// The answers of section `index`, if derived or worth deriving now
    /// that `boards` more boards ask for them.
    fn answers_after(&self, index: usize, boards: u64) -> Result<Option<&[u64]>, TableError> {
        if let Some(answers) = self.answers[index].get() {
            return Ok(Some(answers));
        }
        let asked = self.asked[index].fetch_add(boards, Ordering::Relaxed) + boards;
        // On boards of up to 3 columns (all such boards' answers fit, a
        // header's claim aside).
        let fits = self.packs(index) && self.packed_moves.passes() <= 2;
        if asked < DERIVE_AFTER || !fits {
            return Ok(None);
        }
        let codes = self.codes(index)?;
        let goal = &self.goals[index];
        let moves = &self.packed_moves;
        Ok(Some(self.answers[index].get_or_init(
            || match moves.passes() {
                1 => derive_answers::<1>(goal, codes, moves),
                _ => derive_answers::<2>(goal, codes, moves),
            },
        )))
    }

    /// Finds the near answers of section `index` (see
    /// [`Table::solve_packed`]) if not found yet and worth finding now that
    /// `boards` more boards ask for them; whether they are found.
    fn near_after(&self, index: usize, boards: u64) -> Result<bool, TableError> {
        if self.near[index].get().is_some() {
            return Ok(true);
        }
        let asked = self.asked[index].fetch_add(boards, Ordering::Relaxed) + boards;
        // Boards of 3x3 and smaller: a bit an entry stays small.
        let fits = bfs::entries(self.shape) <= 1 << 20 && self.packed_moves.passes() <= 2;
        if asked < NEAR_AFTER || !fits {
            return Ok(false);
        }
        let codes = self.codes(index)?;
        let goal = &self.goals[index];
        let moves = &self.packed_moves;
        self.near[index].get_or_init(|| match moves.passes() {
            1 => Near::new::<1>(goal, codes, moves, NEAR_DEPTH),
            _ => Near::new::<2>(goal, codes, moves, NEAR_DEPTH),
        });
        Ok(true)
    }

    /// Every board exactly `depth` moves from `goal`, found by following
    /// the codes backwards from the goal, layer by layer: a board is one
    /// step further than its neighbour when its next move leads there. The
    /// boards come in no particular order. Costs a search of the boards up
    /// to that depth: milliseconds on 3x3, up to a minute and gigabytes of
    /// memory on 12 cells.
    ///
    /// # Errors
    ///
    /// Fails as [`Table::solve_each`] does for the goal.
    pub fn at_distance(&self, goal: &Board, depth: u32) -> Result<Vec<Board>, SolveError> {
        /// The boards one move further from the goal than `layer`'s.
        fn next_layer<const P: usize>(
            moves: &PackedMoves,
            n: usize,
            codes: &[u8],
            goal_rank: u64,
            layer: &[Node],
        ) -> Vec<Node> {
            let (next, _) = expand(layer, |part, next, _| {
                for &node in part {
                    for (mv, found) in Move::ALL.into_iter().zip(neighbors::<P>(moves, n, node)) {
                        if let Some((board, rank)) = found
                            && leads_back(codes, goal_rank, rank, mv)
                        {
                            next.push((board, rank));
                        }
                    }
                }
            });
            next
        }
        let index = self.section(goal, None)?;
        let codes = self.codes(index)?;
        let canonical = &self.goals[index];
        let goal_rank = self.goal_ranks[index];
        let n = self.shape.cells();
        let moves = &*self.packed_moves;
        let mut layer = vec![(pack(canonical.cells()), goal_rank)];
        for _ in 0..depth.min(self.bound + 1) {
            layer = match moves.passes() {
                1 => next_layer::<1>(moves, n, codes, goal_rank, &layer),
                2 => next_layer::<2>(moves, n, codes, goal_rank, &layer),
                3 => next_layer::<3>(moves, n, codes, goal_rank, &layer),
                4 => next_layer::<4>(moves, n, codes, goal_rank, &layer),
                _ => next_layer::<5>(moves, n, codes, goal_rank, &layer),
            };
        }
        if depth > self.bound {
            layer.clear();
        }
        Ok(layer
            .into_iter()
            .map(|(packed, _)| {
                let board = Board::from_permutation(self.shape, &unpack(packed, n).0[..n]);
                match goal == canonical {
                    true => board,
                    false => board.relabelled(canonical, goal),
                }
            })
            .collect())
    }

    /// The longest shortest answer toward goals with the blank where
    /// `goal` has it, as the header says.
    pub fn max_depth(&self, goal: &Board) -> Option<u32> {
        let index = usize::from(self.section_of.get(goal.blank()).copied().flatten()?);
        Some(self.file.header().sections[index].max_depth)
    }

    /// Whether [`Table::solve_group`] pays: sections larger than the L2
    /// cache (1 MiB of codes: 10 cells and more), where each step of a walk
    /// waits for memory. Smaller ones are walked faster one by one.
    pub fn groups_pay(&self) -> bool {
        self.groups_pay
    }

    /// Solves each of `starts` toward `goal` as [`Table::solve_each`] does,
    /// its letters into `letters[i]` and its number of moves, or `None` if
    /// unsolvable, into `found[i]`. The walks go in lockstep, each fetching
    /// its next code ahead of use, so that the memory loads of up to
    /// [`GROUP`] walks overlap: on a table larger than the caches, each step
    /// is otherwise a wait for memory.
    ///
    /// # Errors
    ///
    /// As [`Table::solve_each`].
    ///
    /// # Panics
    ///
    /// Panics if there are more than [`GROUP`] starts, or fewer `letters`
    /// or `found` than starts.
    pub fn solve_group(
        &self,
        starts: &[Board],
        goal: &Board,
        letters: &mut [Vec<u8>],
        found: &mut [Option<usize>],
    ) -> Result<(), SolveError> {
        assert!(starts.len() <= GROUP, "at most {GROUP} walks at once");
        /// One walk: the board, its blank and rank, and whether it goes on.
        #[derive(Clone, Copy)]
        struct Walk {
            cells: [u8; MAX_CELLS],
            blank: usize,
            rank: u64,
            steps: u32,
            going: bool,
        }
        let index = self.section(goal, None)?;
        let blank = goal.blank();
        let canonical = &self.goals[index];
        let codes = self.codes(index)?;
        let goal_rank = self.goal_ranks[index];
        let mut walks = [Walk {
            cells: [0; MAX_CELLS],
            blank: 0,
            rank: 0,
            steps: 0,
            going: false,
        }; GROUP];
        let mut going = 0;
        for (i, start) in starts.iter().enumerate() {
            if start.shape() != self.shape {
                return Err(SolveError::Shape {
                    expected: self.shape,
                    got: start.shape(),
                });
            }
            let start = match goal == canonical {
                true => *start,
                false => start.relabelled(goal, canonical),
            };
            letters[i].clear();
            let (rank, parity) = board_rank_and_parity(&start);
            let solvable = connected(
                self.shape,
                parity ^ self.goal_parities[index],
                start.blank(),
                blank,
            );
            found[i] = solvable.then_some(0);
            let walk = &mut walks[i];
            walk.cells[..start.cells().len()].copy_from_slice(start.cells());
            walk.blank = start.blank();
            walk.rank = rank;
            walk.going = solvable;
            going += usize::from(solvable);
        }
        let n = self.shape.cells();
        while going > 0 {
            for (i, walk) in walks[..starts.len()].iter_mut().enumerate() {
                if !walk.going {
                    continue;
                }
                if walk.rank == goal_rank {
                    walk.going = false;
                    going -= 1;
                    found[i] = Some(walk.steps as usize);
                    continue;
                }
                if walk.steps == self.bound {
                    return Err(SolveError::Table(TableError::Wrong {
                        section: index,
                        blank,
                        proof: Proof::Walk {
                            board: starts[i],
                            problem: "do not reach the goal within the longest answer of the board",
                        },
                    }));
                }
                let mv = Move::from_code(code_at(codes, walk.rank / 2));
                let Some(target) = self.neighbors[walk.blank][usize::from(mv.code())] else {
                    return Err(SolveError::Table(TableError::Wrong {
                        section: index,
                        blank,
                        proof: Proof::Walk {
                            board: starts[i],
                            problem: "leave the board",
                        },
                    }));
                };
                let target = usize::from(target);
                walk.rank =
                    walk.rank
                        .wrapping_add_signed(rank_delta(&walk.cells[..n], walk.blank, target));
                walk.cells.swap(walk.blank, target);
                walk.blank = target;
                walk.steps += 1;
                letters[i].push(mv.letter() as u8);
                prefetch(codes, (walk.rank / 8) as usize);
            }
        }
        Ok(())
    }

    /// Follows the codes of section `index` from `start` to its goal,
    /// keeping the rank up to date move by move ([`rank_delta`]).
    fn walk(
        &self,
        start: &Board,
        mut rank: u64,
        index: usize,
        mut emit: impl FnMut(Move),
    ) -> Result<usize, TableError> {
        let codes = self.codes(index)?;
        let goal_rank = self.goal_ranks[index];
        let mut cells = [0u8; MAX_CELLS];
        let cells = &mut cells[..start.cells().len()];
        cells.copy_from_slice(start.cells());
        let mut blank = start.blank();
        let mut steps = 0;
        let wrong = |problem| TableError::Wrong {
            section: index,
            blank: self.goals[index].blank(),
            proof: Proof::Walk {
                board: *start,
                problem,
            },
        };
        while rank != goal_rank {
            if steps == self.bound {
                return Err(wrong(
                    "do not reach the goal within the longest answer of the board",
                ));
            }
            let mv = Move::from_code(code_at(codes, rank / 2));
            let Some(target) = self.neighbors[blank][usize::from(mv.code())] else {
                return Err(wrong("leave the board"));
            };
            let target = usize::from(target);
            rank = rank.wrapping_add_signed(rank_delta(cells, blank, target));
            cells.swap(blank, target);
            blank = target;
            steps += 1;
            emit(mv);
        }
        Ok(steps as usize)
    }

    /// The packed codes of section `index`, checked, decoded (and proven,
    /// if asked) on first use.
    #[inline]
    pub(crate) fn codes(&self, index: usize) -> Result<&[u8], TableError> {
        match self.decoded {
            Some((decoded, len)) if !self.prove => Ok(&decoded[index * len..(index + 1) * len]),
            _ => self.decoded_codes(index),
        }
    }

    /// [`Table::codes`] of a section not built in.
    #[inline(never)]
    fn decoded_codes(&self, index: usize) -> Result<&[u8], TableError> {
        self.codes[index]
            .get_or_init(|| {
                let codes = self.file.decompress(index)?;
                if self.prove {
                    let goal = &self.goals[index];
                    prove(goal, &codes).map_err(|proof| TableError::Wrong {
                        section: index,
                        blank: goal.blank(),
                        proof,
                    })?;
                }
                Ok(codes)
            })
            .as_deref()
            .map_err(Clone::clone)
    }
}

impl<D> fmt::Debug for Table<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("shape", &self.shape)
            .field("sections", &self.goals.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The near answers of every section of every built-in shape that has
    /// them are the derived answers of exactly the boards within
    /// `NEAR_DEPTH` moves of the goal.
    #[test]
    fn near_answers_are_the_derived_ones_within_reach() {
        for shape in Shape::all().filter(|s| s.cells() <= 9 && s.cols() <= 3) {
            let table = Table::new(crate::data::builtin(shape).unwrap()).unwrap();
            let moves = &table.packed_moves;
            for (index, goal) in table.goals.iter().enumerate() {
                if !table.packs(index) {
                    continue;
                }
                let codes = table.codes(index).unwrap();
                let (near, derived) = match moves.passes() {
                    1 => (
                        Near::new::<1>(goal, codes, moves, NEAR_DEPTH),
                        derive_answers::<1>(goal, codes, moves),
                    ),
                    _ => (
                        Near::new::<2>(goal, codes, moves, NEAR_DEPTH),
                        derive_answers::<2>(goal, codes, moves),
                    ),
                };
                let mut within = 0;
                for (entry, &answer) in derived.iter().enumerate() {
                    let entry = entry as u64;
                    // Entries of no board reachable stay 0.
                    let near_enough = answer != 0 && Packed(answer).len() <= NEAR_DEPTH as usize;
                    assert_eq!(near.has(entry), near_enough, "{shape} {goal} entry {entry}");
                    assert_eq!(near.get(entry), near_enough.then_some(answer));
                    within += usize::from(near_enough);
                }
                assert_eq!(near.answers.len(), within, "{shape} {goal}");
                assert!(!near.has(derived.len() as u64 + 64), "past the end");
            }
        }
    }
}
