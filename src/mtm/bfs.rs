//! The tables of the multi-tile metric: made by a breadth-first search in
//! the MTM graph ([`generate`]), and proven from their codes alone
//! ([`prove`]).

use std::sync::atomic::{AtomicU8, Ordering};

use crate::answer::Proof;
use crate::bfs::{LARGE_LEVEL, SMALL_LEVEL, UNSEEN, entries};
use crate::board::{Board, board_rank};
use crate::file::{self, Codec, NewSection, RankScheme};
use crate::mtm::{Jumps, code_at, next_code};
use crate::progress;
use crate::shape::{SMALL_CELLS, Shape};

/// Sections of at most this many bytes of codes are compressed hardest.
const SMALL_SECTION: u64 = 1 << 20;

/// Runs `work` on every core, each on its share of `0..len` (split at even
/// numbers), and returns their results in order.
fn on_every_core<R: Send>(len: u64, work: impl Fn(u64, u64) -> R + Sync) -> Vec<R> {
    let threads = crate::split::threads() as u64;
    let bound = |part: u64| (len * part / threads) & !1;
    std::thread::scope(|scope| {
        let work = &work;
        let handles: Vec<_> = (0..threads)
            .map(|part| {
                let (low, high) = (
                    bound(part),
                    if part + 1 == threads {
                        len
                    } else {
                        bound(part + 1)
                    },
                );
                scope.spawn(move || work(low, high))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no worker panics"))
            .collect()
    })
}

/// Entries a worker of [`layers_until`] looks at between two looks at its
/// stop: well under a millisecond.
const STOP_CHECK: u64 = 1 << 14;

/// A breadth-first search over the entries `0..len` from `start`, layer
/// by layer on every core: `expand(entry, found)` hands `found` the entry
/// of each position one move from the position of `entry`. The depth of
/// every entry ([`UNSEEN`] if none reaches it); `progress` hears of each
/// layer's depth and size; `None` once `stop` is asked for (looked at every
/// [`STOP_CHECK`] entries).
pub(crate) fn layers_until(
    len: u64,
    start: u64,
    expand: impl Fn(u64, &mut dyn FnMut(u64)) + Sync,
    mut progress: impl FnMut(u8, u64),
    stop: &crate::stop::Stop,
) -> Option<Vec<u8>> {
    let depths: Vec<AtomicU8> = (0..len).map(|_| AtomicU8::new(UNSEEN)).collect();
    depths[start as usize].store(0, Ordering::Relaxed);
    progress(0, 1);
    for depth in 0u8.. {
        let found: u64 = on_every_core(len, |low, high| {
            let mut found = 0;
            for entry in low..high {
                if entry % STOP_CHECK == 0 && stop.is_stopped() {
                    break;
                }
                if depths[entry as usize].load(Ordering::Relaxed) != depth {
                    continue;
                }
                expand(entry, &mut |next| {
                    let slot = &depths[next as usize];
                    if slot.load(Ordering::Relaxed) == UNSEEN
                        && slot
                            .compare_exchange(
                                UNSEEN,
                                depth + 1,
                                Ordering::Relaxed,
                                Ordering::Relaxed,
                            )
                            .is_ok()
                    {
                        found += 1;
                    }
                });
            }
            found
        })
        .into_iter()
        .sum();
        if stop.is_stopped() {
            return None;
        }
        if found == 0 {
            break;
        }
        progress(depth + 1, found);
    }
    Some(depths.into_iter().map(AtomicU8::into_inner).collect())
}

/// The MTM distance of every board from `goal` (a canonical goal), by
/// table entry, layer by layer on every core; `progress` hears of each
/// layer's depth and size.
#[cfg(test)]
pub(crate) fn distances(jumps: &Jumps, goal: &Board, progress: impl FnMut(u8, u64)) -> Vec<u8> {
    distances_until(jumps, goal, progress, &crate::stop::Stop::new())
        .expect("a search with no stop ends")
}

/// [`distances`], or `None` once `stop` is asked for.
fn distances_until(
    jumps: &Jumps,
    goal: &Board,
    progress: impl FnMut(u8, u64),
    stop: &crate::stop::Stop,
) -> Option<Vec<u8>> {
    let expand = |entry: u64, found: &mut dyn FnMut(u64)| {
        let (cells, blank, rank) = jumps.board_of(entry, goal);
        for &code in jumps.from(blank) {
            let (_, _, next) = jumps.reach(&cells, blank, rank, code);
            found(next / 2);
        }
    };
    layers_until(
        entries(goal.shape()),
        board_rank(goal) / 2,
        expand,
        progress,
        stop,
    )
}

/// The codes of every board's next move toward `goal` (the goal's own is
/// `0`), two to a byte, from the boards' distances.
pub(crate) fn codes(jumps: &Jumps, goal: &Board, distance: &[u8]) -> Vec<u8> {
    let len = distance.len() as u64;
    let goal_entry = board_rank(goal) / 2;
    let parts = on_every_core(len, |low, high| {
        let mut out = vec![0u8; (high - low).div_ceil(2) as usize];
        for entry in low..high {
            if entry == goal_entry {
                continue;
            }
            let (cells, blank, rank) = jumps.board_of(entry, goal);
            let d = distance[entry as usize];
            let code = next_code(jumps, &cells, blank, rank, d, |e| distance[e as usize])
                .expect("a board the search reached has a jump one move closer");
            out[((entry - low) / 2) as usize] |= code << (4 * (entry % 2));
        }
        out
    });
    parts.concat()
}

/// Searches from the canonical goals of `shape` with the blank at each of
/// `blanks` in the MTM graph and writes the table file of their next moves
/// (see [`crate::file`]); `progress` hears of each layer (the boards
/// reached, the depth). The bytes depend only on the shape and the blanks.
///
/// # Panics
///
/// Panics if the board has more than
/// 12 cells, or `blanks` are
/// not distinct cells of the shape in increasing order.
#[cfg(test)]
pub fn generate(
    shape: Shape,
    blanks: &[usize],
    progress: impl FnMut(progress::Step<'_>),
) -> Vec<u8> {
    generate_until(shape, blanks, progress, &crate::stop::Stop::new())
        .expect("a making with no stop ends")
}

/// [`generate`], or `None` once `stop` is asked for.
pub(crate) fn generate_until(
    shape: Shape,
    blanks: &[usize],
    mut progress: impl FnMut(progress::Step<'_>),
    stop: &crate::stop::Stop,
) -> Option<Vec<u8>> {
    assert!(
        shape.cells() <= crate::bfs::MAX_TABLE_CELLS,
        "a table's shape"
    );
    assert!(
        blanks.windows(2).all(|w| w[0] < w[1]) && blanks.iter().all(|&b| b < shape.cells()),
        "distinct blank cells in increasing order"
    );
    let jumps = Jumps::new(shape);
    let made: Vec<(Board, u32, u64, Vec<u8>)> = blanks
        .iter()
        .map(|&blank| {
            let goal = Board::canonical(shape, blank);
            let mut reached = 0;
            let total = entries(shape);
            let layer = |depth: u8, boards: u64| {
                reached = match depth {
                    0 => boards,
                    _ => reached + boards,
                };
                progress(progress::Step {
                    part: "boards",
                    done: reached,
                    total,
                    depth: Some(u32::from(depth)),
                })
            };
            let distance = distances_until(&jumps, &goal, layer, stop)?;
            let max_depth = distance.iter().copied().max().unwrap_or(0);
            let raw = codes(&jumps, &goal, &distance);
            let level = match raw.len() as u64 <= SMALL_SECTION {
                true => SMALL_LEVEL,
                false => LARGE_LEVEL,
            };
            Some((
                goal,
                u32::from(max_depth),
                raw.len() as u64,
                file::compress(&raw, level),
            ))
        })
        .collect::<Option<_>>()?;
    let sections: Vec<NewSection<'_>> = made
        .iter()
        .map(|(goal, max_depth, raw_len, bytes)| NewSection {
            goal: *goal,
            tiles: Vec::new(),
            entries: entries(shape),
            max_depth: *max_depth,
            raw_len: *raw_len,
            bytes,
        })
        .collect();
    let mut out = Vec::new();
    file::write(
        &mut out,
        shape,
        RankScheme::LehmerHalf,
        Codec::ZstdNibbles,
        &sections,
    )
    .expect("writing into memory cannot fail");
    Some(out)
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
    let found = on_every_core(len, |low, high| {
        for entry in low..high {
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
            let canonical = next_code(jumps, &cells, blank, rank, d, |e| distance_ref[e as usize])
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
