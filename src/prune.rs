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

/// The longest redundant sequences looked for at first: 72 of at most 8
/// moves, an automaton of 364 states made in about 10 ms.
pub const LONGEST: usize = 8;

/// The longest looked for in a long search ([`longer`]): an automaton of
/// 46,119 states (720 KB, which the cores' caches hold) made in about 0.6
/// s, after which Korf and Taylor's eight 24-puzzle instances search
/// 0.66 to 0.85 times the positions at the same rate (used from 50
/// million positions on, as a search does). Those of up to 14 moves
/// (454,961 states, 6.4 s and 1.5 GB to make) save a tenth more, at a
/// slower rate.
pub const LONGER: usize = 12;

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
    #[cfg(test)]
    pub fn after(&self, moves: &[Move]) -> u32 {
        moves
            .iter()
            .try_fold(START, |state, &mv| match self.step(state, mv) {
                DEAD => None,
                to => Some(to),
            })
            .unwrap_or(DEAD)
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

/// A sequence of moves, 2 bits a move, the last lowest; and its length.
#[derive(Clone, Copy)]
struct Sequence {
    codes: u32,
    len: usize,
}

impl Sequence {
    fn moves(self) -> impl Iterator<Item = Move> {
        (0..self.len)
            .rev()
            .map(move |i| Move::from_code((self.codes >> (2 * i)) as u8))
    }

    fn then(self, mv: Move) -> Sequence {
        Sequence {
            codes: self.codes << 2 | u32::from(mv.code()),
            len: self.len + 1,
        }
    }

    fn last(self) -> Option<Move> {
        (self.len > 0).then(|| Move::from_code(self.codes as u8))
    }

    /// Whether the blank visits only cells it visits on `other`, so that
    /// this sequence stays on any board `other` stays on.
    fn stays_within(self, other: Sequence) -> bool {
        let cells = other.visited();
        self.visited().iter().all(|cell| cells.contains(cell))
    }

    /// The cells the blank visits.
    fn visited(self) -> Vec<Cell> {
        let mut cells = vec![ORIGIN];
        let mut blank = ORIGIN;
        for mv in self.moves() {
            blank = moved(blank, mv);
            cells.push(blank);
        }
        cells
    }
}

/// The most moves [`redundant`] looks at.
const MOST: usize = 12;

/// A sequence's effect: where the blank ends, then for each tile it moved,
/// sorted, the cell it came from and the cell it ends on (20 bits a tile),
/// packed into 256 bits.
type Effect = [u64; 4];

/// The redundant sequences of at most `longest` moves (at most 12) that
/// hold no redundant sequence but at their end, and no move taken straight
/// back (the search never takes one).
pub fn redundant(longest: usize) -> Vec<Vec<Move>> {
    let longest = longest.min(MOST);
    let mut first: HashMap<Effect, Sequence> = HashMap::new();
    let empty = Sequence { codes: 0, len: 0 };
    first.insert([u64::from(ORIGIN), 0, 0, 0], empty);
    let mut found = Vec::new();
    // Each sequence, its blank, and its moved tiles as (cell, the cell the
    // tile came from), in the order of their letters.
    type Tiles = ([(Cell, Cell); MOST], usize);
    let mut level: Vec<(Sequence, Cell, Tiles)> = vec![(empty, ORIGIN, ([(0, 0); MOST], 0))];
    for _ in 0..longest {
        let mut deeper = Vec::with_capacity(level.len() * 3);
        for &(sequence, blank, tiles) in &level {
            for mv in Move::ALL {
                if sequence.last() == Some(mv.opposite()) {
                    continue;
                }
                let to = moved(blank, mv);
                // The tile on `to` goes to the blank's cell.
                let (mut cells, mut count) = tiles;
                let from = match cells[..count].iter().position(|&(cell, _)| cell == to) {
                    Some(at) => {
                        let from = cells[at].1;
                        count -= 1;
                        cells[at] = cells[count];
                        from
                    }
                    None => to,
                };
                if from != blank {
                    cells[count] = (blank, from);
                    count += 1;
                }
                let mut pairs = [0u64; MOST];
                for (pair, &(cell, from)) in pairs.iter_mut().zip(&cells[..count]) {
                    *pair = u64::from(from) << 10 | u64::from(cell);
                }
                pairs[..count].sort_unstable();
                let mut effect: Effect = [u64::from(to), 0, 0, 0];
                for (i, &pair) in pairs[..count].iter().enumerate() {
                    let bit = 10 + 20 * i;
                    effect[bit / 64] |= pair << (bit % 64);
                    if bit % 64 > 44 {
                        effect[bit / 64 + 1] |= pair >> (64 - bit % 64);
                    }
                }
                let longer = sequence.then(mv);
                match first.get(&effect) {
                    // Redundant if the earlier sequence stays on any board
                    // this one stays on.
                    Some(&earlier) if earlier.stays_within(longer) => {
                        found.push(longer.moves().collect());
                    }
                    Some(_) => deeper.push((longer, to, (cells, count))),
                    None => {
                        first.insert(effect, longer);
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

/// The automaton of the redundant sequences of at most [`LONGER`] moves,
/// made once a process.
pub fn longer() -> &'static Pruner {
    static LONGER_PRUNER: std::sync::OnceLock<Pruner> = std::sync::OnceLock::new();
    LONGER_PRUNER.get_or_init(|| Pruner::new(LONGER))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(moves: &[Move]) -> String {
        moves.iter().map(|mv| mv.letter()).collect()
    }

    /// The shortest redundant sequences are the four ways of going one and
    /// a half times round a 2x2 block that are lexicographically larger
    /// than going round the other way: the smallest cycles of the puzzle
    /// are 12 moves, three times round a block.
    #[test]
    fn the_shortest_are_the_larger_turns_round_a_block() {
        assert!(redundant(5).is_empty());
        let mut six: Vec<String> = redundant(6).iter().map(|s| letters(s)).collect();
        six.sort();
        assert_eq!(six, ["ldruld", "rdlurd", "uldrul", "urdlur"]);
    }

    #[test]
    fn the_automaton_finds_them_anywhere_in_a_path() {
        let pruner = Pruner::new(6);
        let moves = |text: &str| -> Vec<Move> {
            text.chars()
                .map(|c| Move::from_letter(c).unwrap())
                .collect()
        };
        assert_eq!(pruner.after(&moves("rdlurd")), DEAD);
        assert_eq!(pruner.after(&moves("ddrdlurd")), DEAD);
        assert_ne!(pruner.after(&moves("druldr")), DEAD);
        assert_ne!(pruner.after(&moves("rdlur")), DEAD);
        assert_eq!(nothing().after(&moves("rdlurd")), START);
    }
}
