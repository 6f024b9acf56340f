//! The tables of the multi-tile metric: made by the one breadth-first
//! search ([`crate::bfs`]) over jumps ([`codes_until`]), and proven by
//! that search made anew ([`prove`]).

use crate::answer::Proof;
use crate::bfs::{Codes, Layer, Node, Rule, blank_of, entries, layers_until};
use crate::board::{Board, board_rank};
use crate::mtm::{Jumps, code_at};
use crate::rank::{PackedMoves, cells_rank, pack, with_passes};
use crate::shape::{Move, SMALL_CELLS};
use crate::stop::Stop;

/// The jumps of the blank on packed boards: the moves of the multi-tile
/// metric's tables. A board's code is settled as it is expanded, by
/// [`PackedJumps::next_code`]: a table keeps each board's depth modulo 3, which tells
/// a neighbour one move closer from the others, as a jump changes the
/// distance by one at most. `P` is [`PackedMoves::passes`].
struct PackedJumps<'a, const P: usize> {
    moves: &'a PackedMoves,
    n: usize,
    /// The code of the shortest jump each way, by the move's code.
    first: [u8; 4],
}

impl<const P: usize> PackedJumps<'_, P> {
    /// The first jump from `node` in code order for which `stop` says
    /// yes, as its code and direction; `stop` hears of each jump until
    /// then.
    #[inline(always)]
    fn until(
        &self,
        (board, rank): Node,
        mut stop: impl FnMut(u8, Move, Node) -> bool,
    ) -> Option<(u8, Move)> {
        let blank = blank_of(board, self.n);
        for mv in Move::ALL {
            let (mut board, mut at, mut rank) = (board, blank, rank);
            let mut code = self.first[usize::from(mv.code())];
            while let Some(delta) = self.moves.apply::<P>(&mut board, &mut at, mv.code()) {
                rank = rank.wrapping_add_signed(delta);
                if stop(code, mv, (board, rank)) {
                    return Some((code, mv));
                }
                code += 1;
            }
        }
        None
    }

    /// Of the jumps of `node`, `d` moves from the goal (`d > 0`), the
    /// code of the one that starts its canonical answer (see the
    /// [module](crate::mtm)): the one home of that rule, which the tables'
    /// search writes and their proof makes anew. `at(next, k)` says
    /// whether `next` is `k` moves from the goal, for the nodes one or two
    /// jumps from `node`; `None` if no jump leads one move closer.
    #[inline(always)]
    fn next_code(&self, node: Node, d: u32, at: impl Fn(Node, u32) -> bool) -> Option<u8> {
        let mut chosen: Option<(Move, u8)> = None;
        self.until(node, |code, mv, next| {
            if chosen.is_some_and(|(chosen, _)| chosen != mv) {
                return true;
            }
            if !at(next, d - 1) {
                return false;
            }
            chosen = Some((mv, code));
            // At the goal nothing follows, and nothing is smaller; else
            // the first letter of the answer after the jump is the
            // smallest direction of its jumps one move closer.
            d == 1
                || self
                    .until(next, |_, _, further| at(further, d - 2))
                    .is_some_and(|(_, letter)| letter < mv)
        });
        chosen.map(|(_, code)| code)
    }
}

impl<const P: usize> Rule for PackedJumps<'_, P> {
    type Node = Node;

    #[inline(always)]
    fn entry(&self, (_, rank): Node) -> u64 {
        rank / 2
    }

    #[inline(always)]
    fn neighbors(&self, node: Node, mut each: impl FnMut(u8, Node)) {
        self.until(node, |_, _, next| {
            each(0, next);
            false
        });
    }

    #[inline(always)]
    fn settle(&self, node: Node, d: u32, at: impl Fn(Node, u32) -> bool) -> Option<u8> {
        (d > 0).then(|| {
            self.next_code(node, d, at)
                .expect("a board the search reached has a jump one move closer")
        })
    }
}

/// The codes of a table of the multi-tile metric toward `goal` (a
/// canonical goal), two to a byte (the even entry in the low half; the
/// goal's is 0), and the longest answer; `progress` hears of each layer;
/// `None` once `stop` is asked for.
///
/// # Panics
///
/// Panics if the board has more than 12 cells.
pub(crate) fn codes_until(
    goal: &Board,
    progress: &mut dyn FnMut(&Layer),
    stop: &Stop,
) -> Option<Codes> {
    let shape = goal.shape();
    assert!(
        shape.cells() <= crate::bfs::MAX_TABLE_CELLS,
        "a table's shape"
    );
    let moves = PackedMoves::new(shape);
    let jumps = Jumps::new(shape);
    let first = Move::ALL.map(|mv| jumps.first_code(mv));
    let start = (pack(goal.cells()), cells_rank(goal.cells()));
    let len = entries(shape);
    let n = shape.cells();
    let found = with_passes!(moves.passes(), P => {
        let jumps = PackedJumps::<P> { moves: &moves, n, first };
        layers_until(&jumps, len, start, progress, stop)
    })?;
    let packed = found
        .bytes
        .chunks(2)
        .map(|pair| {
            pair.iter()
                .rev()
                .fold(0, |byte, &code| byte << 4 | code & 15)
        })
        .collect();
    Some(Codes {
        packed,
        entries: len,
        max_depth: found.histogram.len() as u32 - 1,
    })
}

/// The distance of every board from `goal` (a canonical goal), by table
/// entry, as its table's proof finds them.
#[cfg(test)]
pub(crate) fn distances(goal: &Board) -> Vec<u8> {
    let codes = codes_until(goal, &mut |_| {}, &Stop::new()).expect("no stop");
    let mut distance = vec![crate::bfs::UNSEEN; codes.entries as usize];
    distance[(board_rank(goal) / 2) as usize] = 0;
    let n = goal.shape().cells();
    tree(
        &Jumps::new(goal.shape()),
        goal,
        &codes.packed,
        u32::MAX,
        |step| distance[(cells_rank(&step.cells[..n]) / 2) as usize] = step.depth as u8,
    );
    distance
}

/// A board met in [`tree`].
pub(crate) struct Step<'a> {
    /// Its cells.
    pub(crate) cells: &'a [u8; SMALL_CELLS],
    /// Its moves from the goal.
    pub(crate) depth: u32,
}

/// Visits the tree the codes of a section toward `goal` (a canonical
/// goal) make, from the goal outward: each board after the board its code
/// leads to, one move further, up to `limit` moves. Boards whose codes
/// loop or leave the board are never met.
pub(crate) fn tree(
    jumps: &Jumps,
    goal: &Board,
    codes: &[u8],
    limit: u32,
    mut visit: impl FnMut(Step<'_>),
) {
    let goal_rank = board_rank(goal);
    let mut cells = [0u8; SMALL_CELLS];
    cells[..goal.cells().len()].copy_from_slice(goal.cells());
    // Each board with the code of the jump that led to it from its parent
    // (none for the goal): the jump back to the parent is never a child's.
    let mut stack = vec![(cells, goal.blank(), goal_rank, 0u32, None)];
    while let Some((cells, blank, rank, depth, came)) = stack.pop() {
        if depth == limit {
            continue;
        }
        for &code in jumps.from(blank) {
            if came.is_some_and(|came| code == jumps.undo(came)) {
                continue;
            }
            let (after, at, next) = jumps.reach(&cells, blank, rank, code);
            let back = jumps.undo(code);
            if next / 2 != goal_rank / 2 && code_at(codes, next / 2) == back {
                visit(Step {
                    cells: &after,
                    depth: depth + 1,
                });
                stack.push((after, at, next, depth + 1, Some(code)));
            }
        }
    }
}

/// Proves the codes of a section toward `goal` (a canonical goal) right,
/// as the databases are: the search that makes them, made anew
/// ([`codes_until`]), gives every code the same. The search is the
/// generator's, tested board by board against a plain search; it costs
/// what making the table costs (about 25 s and 1.3 GB on 12 cells).
/// Returns the longest answer.
///
/// # Errors
///
/// The first code found wrong.
///
/// # Panics
///
/// Panics if `codes` are not one a board, two to a byte.
pub(crate) fn prove(jumps: &Jumps, goal: &Board, codes: &[u8]) -> Result<u32, Proof> {
    let made = codes_until(goal, &mut |_| {}, &Stop::new()).expect("a search with no stop ends");
    assert_eq!(codes.len(), made.packed.len(), "one code a board");
    let Some(byte) = codes
        .iter()
        .zip(&made.packed)
        .position(|(got, made)| got != made)
    else {
        return Ok(made.max_depth);
    };
    let low = (codes[byte] ^ made.packed[byte]) & 15 != 0;
    let entry = 2 * byte as u64 + u64::from(!low);
    let (cells, blank, _) = jumps.board_of(entry, goal);
    let board = Board::from_cell_array(goal.shape(), cells);
    let (got, canonical) = (
        code_at(codes, entry),
        jumps.jump(code_at(&made.packed, entry)),
    );
    if !jumps.fits(blank, got) {
        return Err(Proof::NoJump { board, code: got });
    }
    let got = jumps.jump(got);
    Err(Proof::NotCanonical {
        board,
        got: got.mv,
        got_len: got.len,
        canonical: canonical.mv,
        canonical_len: canonical.len,
    })
}
