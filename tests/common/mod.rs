//! An independent, deliberately plain 8-puzzle solver for the tests: a BFS
//! over strings such as "12345678x", sharing no code with the crate.

#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};

/// The moves of the blank in lexicographic order, with the change of its
/// index on a 3x3 board.
const MOVES: [(char, isize); 4] = [('d', 3), ('l', -1), ('r', 1), ('u', -3)];

/// The board after the blank moves by `letter`, if it stays on the board.
pub fn step(board: &str, letter: char) -> Option<String> {
    let blank = board.find('x').expect("a board has a blank") as isize;
    let (_, delta) = MOVES.iter().find(|(l, _)| *l == letter)?;
    let target = blank + delta;
    let same_row = (blank / 3) == (target / 3);
    let allowed = match letter {
        'l' | 'r' => same_row,
        _ => (0..9).contains(&target),
    };
    if !allowed || !(0..9).contains(&target) {
        return None;
    }
    let mut cells: Vec<char> = board.chars().collect();
    cells.swap(blank as usize, target as usize);
    Some(cells.into_iter().collect())
}

/// Follows `moves` from `board`; `None` if a move leaves the board.
pub fn follow(board: &str, moves: &str) -> Option<String> {
    moves
        .chars()
        .try_fold(board.to_string(), |board, letter| step(&board, letter))
}

/// The distance to `goal` of every board that reaches it.
pub fn distances(goal: &str) -> HashMap<String, u32> {
    let mut distance = HashMap::from([(goal.to_string(), 0)]);
    let mut queue = VecDeque::from([goal.to_string()]);
    while let Some(board) = queue.pop_front() {
        let d = distance[&board];
        for (letter, _) in MOVES {
            if let Some(next) = step(&board, letter) {
                distance.entry(next.clone()).or_insert_with(|| {
                    queue.push_back(next);
                    d + 1
                });
            }
        }
    }
    distance
}

/// The lexicographically smallest shortest path from `board` to the goal of
/// `distance`: at each step, the first letter that gets one step closer.
pub fn best_path(distance: &HashMap<String, u32>, board: &str) -> Option<String> {
    let mut board = board.to_string();
    let mut path = String::new();
    let mut d = *distance.get(&board)?;
    while d > 0 {
        let (letter, next) = MOVES
            .iter()
            .filter_map(|&(letter, _)| step(&board, letter).map(|next| (letter, next)))
            .find(|(_, next)| distance.get(next) == Some(&(d - 1)))
            .expect("a board at distance d has a neighbour at d - 1");
        path.push(letter);
        board = next;
        d -= 1;
    }
    Some(path)
}

/// Every arrangement of "12345678x", in lexicographic order of cells.
pub fn all_boards() -> Vec<String> {
    fn extend(prefix: &mut String, rest: &mut Vec<char>, out: &mut Vec<String>) {
        if rest.is_empty() {
            out.push(prefix.clone());
            return;
        }
        for i in 0..rest.len() {
            let c = rest.remove(i);
            prefix.push(c);
            extend(prefix, rest, out);
            prefix.pop();
            rest.insert(i, c);
        }
    }
    let mut out = Vec::with_capacity(362_880);
    extend(
        &mut String::new(),
        &mut "12345678x".chars().collect(),
        &mut out,
    );
    out
}
