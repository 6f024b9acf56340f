//! Move sequences a shortest, lexicographically smallest answer never holds.
//!
//! Some short sequences of blank moves do what another sequence does, one
//! as short and lexicographically smaller, or shorter: six moves round a
//! 2x2 block one way do what six moves round it the other way do. An answer
//! holding the larger sequence is never the one to give, since putting the
//! smaller in its place gives an answer as short and smaller, or shorter;
//! so a search need not follow a path past the end of one ([`Pruner`]).
//!
//! The sequences are found by a breadth-first walk of move sequences on a
//! board with no edges, in the order of their letters: a sequence whose
//! effect (where the blank ends and where every tile it moved ends) an
//! earlier sequence already has is redundant, if the earlier one visits
//! only cells the later one visits, so that it stays on any board the
//! later one stays on.

use std::collections::HashMap;

use crate::shape::Move;

/// The longest redundant sequences looked for: 72 of at most 8 moves, an
/// automaton of 364 states made in about 15 ms. Those of 10 moves (998)
/// take a quarter of a second to find.
pub const LONGEST: usize = 8;

/// A state of [`Pruner`] at the start of a search.
pub const START: u32 = 0;

/// An automaton over moves that finds, as a path grows, whether it ends
/// with a redundant sequence (Aho and Corasick's, over the four moves).
#[derive(Debug)]
pub struct Pruner {
    /// `next[state][move]`: the state after the move, or [`DEAD`] if the
    /// path then ends with a redundant sequence.
    next: Vec<[u32; 4]>,
}

/// The [`Pruner`] step onto a redundant sequence.
pub const DEAD: u32 = u32::MAX;

impl Pruner {
    /// The automaton of the redundant sequences of at most `longest` moves.
    pub fn new(longest: usize) -> Pruner {
        let redundant = redundant(longest);
        // The trie of the sequences, then the moves of each state that its
        // longest suffix in the trie would take (Aho-Corasick).
        let mut next: Vec<[u32; 4]> = vec![[0; 4]];
        let mut end = vec![false];
        let mut child: Vec<[Option<u32>; 4]> = vec![[None; 4]];
        for sequence in &redundant {
            let mut state = 0usize;
            for &mv in sequence {
                let code = usize::from(mv.code());
                state = match child[state][code] {
                    Some(to) => to as usize,
                    None => {
                        child.push([None; 4]);
                        end.push(false);
                        next.push([0; 4]);
                        let to = child.len() - 1;
                        child[state][code] = Some(to as u32);
                        to
                    }
                };
            }
            end[state] = true;
        }
        // Breadth first from the root: a state's failure is the state of
        // its longest proper suffix in the trie.
        let mut fail = vec![0u32; child.len()];
        let mut queue = std::collections::VecDeque::new();
        for code in 0..4 {
            match child[0][code] {
                Some(to) => {
                    next[0][code] = to;
                    queue.push_back(to as usize);
                }
                None => next[0][code] = 0,
            }
        }
        while let Some(state) = queue.pop_front() {
            end[state] |= end[fail[state] as usize];
            for code in 0..4 {
                match child[state][code] {
                    Some(to) => {
                        fail[to as usize] = next[fail[state] as usize][code];
                        next[state][code] = to;
                        queue.push_back(to as usize);
                    }
                    None => next[state][code] = next[fail[state] as usize][code],
                }
            }
        }
        for row in &mut next {
            for to in row.iter_mut() {
                if end[*to as usize] {
                    *to = DEAD;
                }
            }
        }
        Pruner { next }
    }

    /// The state after `mv` from `state`, or [`DEAD`] if the path then ends
    /// with a redundant sequence.
    #[inline(always)]
    pub fn step(&self, state: u32, mv: Move) -> u32 {
        self.next[state as usize][usize::from(mv.code())]
    }

    /// The state after `moves` from the start, or [`DEAD`].
    pub fn after(&self, moves: &[Move]) -> u32 {
        moves
            .iter()
            .try_fold(START, |state, &mv| match self.step(state, mv) {
                DEAD => None,
                to => Some(to),
            })
            .unwrap_or(DEAD)
    }

    /// The automaton's states.
    pub fn len(&self) -> usize {
        self.next.len()
    }

    /// Whether the automaton has no state (never: it has its start).
    pub fn is_empty(&self) -> bool {
        self.next.is_empty()
    }
}

/// A cell of the board with no edges, its row and column offset by 16 in 5
/// bits each: the blank never goes 16 cells from where it started.
type Cell = u16;

/// The cell the blank starts on.
const ORIGIN: Cell = 16 << 5 | 16;

fn moved(cell: Cell, mv: Move) -> Cell {
    match mv {
        Move::Down => cell + 32,
        Move::Left => cell - 1,
        Move::Right => cell + 1,
        Move::Up => cell - 32,
    }
}

/// The cells the blank visits on `moves`.
fn visited(moves: &[Move]) -> Vec<Cell> {
    let mut cells = vec![ORIGIN];
    let mut blank = ORIGIN;
    for &mv in moves {
        blank = moved(blank, mv);
        cells.push(blank);
    }
    cells
}

/// The most moves [`redundant`] looks at.
const MOST: usize = 15;

/// A sequence's effect: where the blank ends, then for each tile it moved,
/// sorted, the cell it came from and the cell it ends on; zeros after.
type Effect = [u32; MOST + 1];

/// The redundant sequences of at most `longest` moves (at most 15) that
/// hold no redundant sequence but at their end, and no move taken straight
/// back (the search never takes one).
pub fn redundant(longest: usize) -> Vec<Vec<Move>> {
    let longest = longest.min(MOST);
    let mut first: HashMap<Effect, Vec<Move>> = HashMap::new();
    let mut origin: Effect = [0; MOST + 1];
    origin[0] = u32::from(ORIGIN);
    first.insert(origin, Vec::new());
    let mut found = Vec::new();
    // Each sequence, its blank, and its moved tiles as (cell, the cell the
    // tile came from), in the order of their letters.
    type Tiles = ([(Cell, Cell); MOST], usize);
    let mut level: Vec<(Vec<Move>, Cell, Tiles)> = vec![(Vec::new(), ORIGIN, ([(0, 0); MOST], 0))];
    for _ in 0..longest {
        let mut deeper = Vec::with_capacity(level.len() * 3);
        for (moves, blank, tiles) in &level {
            for mv in Move::ALL {
                if moves.last() == Some(&mv.opposite()) {
                    continue;
                }
                let to = moved(*blank, mv);
                // The tile on `to` goes to the blank's cell.
                let (mut cells, mut count) = *tiles;
                let from = match cells[..count].iter().position(|&(cell, _)| cell == to) {
                    Some(at) => {
                        let from = cells[at].1;
                        count -= 1;
                        cells[at] = cells[count];
                        from
                    }
                    None => to,
                };
                if from != *blank {
                    cells[count] = (*blank, from);
                    count += 1;
                }
                let mut effect: Effect = [0; MOST + 1];
                effect[0] = u32::from(to);
                for (slot, &(cell, from)) in effect[1..].iter_mut().zip(&cells[..count]) {
                    *slot = u32::from(from) << 16 | u32::from(cell);
                }
                effect[1..=count].sort_unstable();
                let mut longer = Vec::with_capacity(moves.len() + 1);
                longer.extend_from_slice(moves);
                longer.push(mv);
                match first.get(&effect) {
                    // Redundant if the earlier sequence stays on any board
                    // this one stays on.
                    Some(earlier)
                        if {
                            let cells = visited(&longer);
                            visited(earlier).iter().all(|cell| cells.contains(cell))
                        } =>
                    {
                        found.push(longer);
                    }
                    Some(_) => deeper.push((longer, to, (cells, count))),
                    None => {
                        first.insert(effect, longer.clone());
                        deeper.push((longer, to, (cells, count)));
                    }
                }
            }
        }
        level = deeper;
    }
    found
}

/// The automaton that prunes nothing: one state, never [`DEAD`].
pub fn nothing() -> &'static Pruner {
    static NOTHING: std::sync::OnceLock<Pruner> = std::sync::OnceLock::new();
    NOTHING.get_or_init(|| Pruner {
        next: vec![[START; 4]],
    })
}

/// The automaton of the redundant sequences of at most [`LONGEST`] moves,
/// made once a process.
pub fn pruner() -> &'static Pruner {
    static PRUNER: std::sync::OnceLock<Pruner> = std::sync::OnceLock::new();
    PRUNER.get_or_init(|| Pruner::new(LONGEST))
}
