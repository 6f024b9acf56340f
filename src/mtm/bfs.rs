//! The tables of the multi-tile metric: made by the one breadth-first
//! search ([`crate::bfs`]) over jumps ([`codes_until`]), and proven from
//! their codes alone ([`prove`]).

use crate::answer::Proof;
use crate::bfs::{Codes, Layer, Node, Rule, UNSEEN, blank_of, entries, in_parts, layers_until};
use crate::board::{Board, board_rank};
use crate::mtm::{JumpList, Jumps, code_at, next_code};
use crate::rank::{PackedMoves, cells_rank, pack};
use crate::shape::{Move, SMALL_CELLS};
use crate::stop::Stop;

/// The jumps of the blank on packed boards: the moves of the multi-tile
/// metric's tables. A board's code is settled as it is expanded, by
/// [`next_code`]: a table keeps each board's depth modulo 3, which tells
/// a neighbour one move closer from the others, as a jump changes the
/// distance by one at most. `P` is [`PackedMoves::passes`].
struct PackedJumps<'a, const P: usize> {
    moves: &'a PackedMoves,
    n: usize,
    /// The code of the shortest jump each way, by the move's code.
    first: [u8; 4],
}

impl<const P: usize> PackedJumps<'_, P> {
    /// Hands `each` every jump from `node`, in code order.
    #[inline(always)]
    fn each(&self, (board, rank): Node, mut each: impl FnMut(u8, Move, Node)) {
        let blank = blank_of(board, self.n);
        for mv in Move::ALL {
            let (mut board, mut at, mut rank) = (board, blank, rank);
            let mut code = self.first[usize::from(mv.code())];
            while let Some(delta) = self.moves.apply::<P>(&mut board, &mut at, mv.code()) {
                rank = rank.wrapping_add_signed(delta);
                each(code, mv, (board, rank));
                code += 1;
            }
        }
    }

    /// The jumps from `node`, for [`next_code`].
    fn list(&self, node: Node) -> JumpList<Node> {
        let mut list = ([(0, Move::Down, node); 16], 0);
        self.each(node, |code, mv, next| {
            list.0[list.1] = (code, mv, next);
            list.1 += 1;
        });
        list
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
        self.each(node, |_, _, next| each(0, next));
    }

    #[inline(always)]
    fn settle(&self, node: Node, d: u32, at: impl Fn(Node, u32) -> bool) -> Option<u8> {
        (d > 0).then(|| {
            next_code(node, d, |node| self.list(node), at)
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
    let run = (len, start, progress, stop);
    let n = shape.cells();
    let found = match moves.passes() {
        1 => layers(
            PackedJumps::<1> {
                moves: &moves,
                n,
                first,
            },
            run,
        ),
        2 => layers(
            PackedJumps::<2> {
                moves: &moves,
                n,
                first,
            },
            run,
        ),
        3 => layers(
            PackedJumps::<3> {
                moves: &moves,
                n,
                first,
            },
            run,
        ),
        4 => layers(
            PackedJumps::<4> {
                moves: &moves,
                n,
                first,
            },
            run,
        ),
        _ => layers(
            PackedJumps::<5> {
                moves: &moves,
                n,
                first,
            },
            run,
        ),
    }?;
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

/// The table of the multi-tile metric toward the canonical goals of
/// `shape` with the blank at each of `blanks`, as a file.
#[cfg(test)]
pub fn generate(
    shape: crate::shape::Shape,
    blanks: &[usize],
    progress: impl FnMut(crate::progress::Step<'_>),
) -> Vec<u8> {
    let mtm = (
        codes_until as crate::bfs::MakeCodes,
        crate::file::Codec::ZstdNibbles,
    );
    crate::bfs::generate_until(shape, blanks, mtm, progress, &Stop::new())
        .expect("a making with no stop ends")
}

/// The distance of every board from `goal` (a canonical goal), by table
/// entry, as its table's proof finds them.
#[cfg(test)]
pub(crate) fn distances(goal: &Board) -> Vec<u8> {
    let codes = codes_until(goal, &mut |_| {}, &Stop::new()).expect("no stop");
    prove(&Jumps::new(goal.shape()), goal, &codes.packed)
        .expect("the search's codes are proven")
        .0
}

/// What a search is asked: its entries, its start, who hears of each
/// layer, and its stop.
type Run<'a, 'b> = (u64, Node, &'a mut dyn FnMut(&Layer), &'b Stop);

/// [`layers_until`] over `rule`.
fn layers<R: Rule<Node = Node>>(
    rule: R,
    (len, start, progress, stop): Run<'_, '_>,
) -> Option<crate::bfs::Layers> {
    layers_until(&rule, len, start, progress, stop)
}

/// A board met in [`tree`].
pub(crate) struct Step<'a> {
    /// Its table entry.
    pub(crate) entry: u64,
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
                    entry: next / 2,
                    cells: &after,
                    depth: depth + 1,
                });
                stack.push((after, at, next, depth + 1, Some(code)));
            }
        }
    }
}

/// Proves the codes of a section toward `goal` (a canonical goal) right:
/// following them, every board reaches the goal; no jump from a board leads
/// more than one move closer than its codes take it; and every code is the
/// one [`next_code`] chooses, the start of the canonical answer. The
/// distances the codes make, by table entry, and their histogram.
///
/// # Errors
///
/// The first thing found wrong.
pub(crate) fn prove(
    jumps: &Jumps,
    goal: &Board,
    codes: &[u8],
) -> Result<(Vec<u8>, Vec<u64>), Proof> {
    let len = entries(goal.shape());
    let goal_entry = board_rank(goal) / 2;
    let bound = goal.shape().diameter_bound();
    let mut distance = vec![UNSEEN; len as usize];
    distance[goal_entry as usize] = 0;
    let limit = bound.min(u32::from(UNSEEN) - 1);
    let mut too_long = false;
    tree(jumps, goal, codes, limit + 1, |step| {
        match step.depth > limit {
            true => too_long = true,
            false => distance[step.entry as usize] = step.depth as u8,
        }
    });
    if too_long {
        return Err(Proof::TooLong { bound });
    }
    let unreached = distance.iter().filter(|&&d| d == UNSEEN).count() as u64;
    if unreached > 0 {
        return Err(Proof::Unreached { boards: unreached });
    }
    let distance_ref = &distance;
    let found = in_parts(len, |part| {
        for entry in part {
            if entry == goal_entry {
                continue;
            }
            let (cells, blank, rank) = jumps.board_of(entry, goal);
            let d = distance_ref[entry as usize];
            let board = || Board::from_cell_array(goal.shape(), cells);
            for &code in jumps.from(blank) {
                let (_, _, next) = jumps.reach(&cells, blank, rank, code);
                if distance_ref[(next / 2) as usize] + 1 < d {
                    return Err(Proof::NotShortest {
                        board: board(),
                        depth: u32::from(d),
                    });
                }
            }
            let got = code_at(codes, entry);
            let at = |(_, _, rank): ([u8; SMALL_CELLS], usize, u64), k: u32| {
                u32::from(distance_ref[(rank / 2) as usize]) == k
            };
            let canonical = next_code(
                (cells, blank, rank),
                u32::from(d),
                |node| jumps.list(node),
                at,
            )
            .expect("a board one move further than another has a jump closer");
            if got != canonical {
                let (got, canonical) = (jumps.jump(got), jumps.jump(canonical));
                return Err(Proof::NotCanonical {
                    board: board(),
                    got: got.mv,
                    got_len: got.len,
                    canonical: canonical.mv,
                    canonical_len: canonical.len,
                });
            }
        }
        Ok(())
    });
    found.into_iter().collect::<Result<(), Proof>>()?;
    let mut histogram = vec![0u64; usize::from(distance.iter().copied().max().unwrap_or(0)) + 1];
    for &d in &distance {
        histogram[usize::from(d)] += 1;
    }
    Ok((distance, histogram))
}
