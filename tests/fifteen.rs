//! Pattern databases and IDA*: the databases against their definition, the
//! solver against a plain IDA* with Manhattan distance, against the 8-puzzle
//! table, and on the easier of Korf's instances.

use std::collections::{HashMap, VecDeque};

use eight::format::write_pattern_dbs;
use eight::ida::Solver;
use eight::pdb::{PatternDb, PdbTable};
use eight::rank::rank_placement;
use eight::{Board, Move, Shape, Table};

/// The definition of a database entry, computed plainly: a search over the
/// group's cells and the blank's cell where a move of a group tile costs one
/// and any other move nothing; the entry of a placement is its least cost
/// over the blank's cells.
fn reference_entries(goal: &Board, tiles: &[u8]) -> HashMap<Vec<u8>, u32> {
    let shape = goal.shape();
    let home = |tile: u8| goal.cells().iter().position(|&t| t == tile).unwrap() as u8;
    let homes: Vec<u8> = tiles.iter().map(|&t| home(t)).collect();
    let mut cost: HashMap<(Vec<u8>, u8), u32> = HashMap::new();
    let mut queue = VecDeque::new();
    for blank in 0..shape.cells() as u8 {
        if !homes.contains(&blank) {
            cost.insert((homes.clone(), blank), 0);
            queue.push_back((homes.clone(), blank));
        }
    }
    while let Some((cells, blank)) = queue.pop_front() {
        let c = cost[&(cells.clone(), blank)];
        for mv in Move::ALL {
            let Some(next) = shape.neighbor(usize::from(blank), mv) else {
                continue;
            };
            let next = next as u8;
            let mut moved = cells.clone();
            let step = match moved.iter().position(|&cell| cell == next) {
                Some(i) => {
                    moved[i] = blank;
                    1
                }
                None => 0,
            };
            let key = (moved, next);
            if cost.get(&key).is_none_or(|&old| old > c + step) {
                cost.insert(key.clone(), c + step);
                match step {
                    0 => queue.push_front(key),
                    _ => queue.push_back(key),
                }
            }
        }
    }
    let mut entries: HashMap<Vec<u8>, u32> = HashMap::new();
    for ((cells, _), c) in cost {
        let best = entries.entry(cells).or_insert(c);
        *best = (*best).min(c);
    }
    entries
}

fn check_against_definition(goal: &Board, tiles: &[u8]) {
    let db = PatternDb::generate(goal, tiles, |_| {});
    let reference = reference_entries(goal, tiles);
    let n = goal.shape().cells();
    assert_eq!(
        reference.len() as u64,
        eight::rank::placements(n, tiles.len())
    );
    for (cells, cost) in reference {
        let rank = rank_placement(&cells, n) as usize;
        assert_eq!(
            u32::from(db.entries()[rank]),
            cost,
            "tiles {tiles:?} on {cells:?}"
        );
    }
}

#[test]
fn databases_match_their_definition_on_every_placement() {
    check_against_definition(&Board::goal(Shape::EIGHT), &[1, 2, 3]);
    check_against_definition(&Board::canonical(Shape::EIGHT, 4), &[2, 5, 7, 8]);
    check_against_definition(&Board::goal(Shape::FIFTEEN), &[1, 2, 5]);
    check_against_definition(&Board::canonical(Shape::FIFTEEN, 0), &[6, 11, 15]);
}

/// A plain IDA* with the Manhattan distance, moves in `d l r u` order.
fn reference_solve(start: &Board, goal: &Board) -> String {
    let shape = start.shape();
    let home: HashMap<u8, usize> = goal
        .cells()
        .iter()
        .enumerate()
        .map(|(c, &t)| (t, c))
        .collect();
    let manhattan = |board: &Board| -> u32 {
        board
            .cells()
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(cell, t)| {
                let (h, w) = (home[t], shape.cols());
                ((cell / w).abs_diff(h / w) + (cell % w).abs_diff(h % w)) as u32
            })
            .sum()
    };
    fn dfs(
        board: &Board,
        g: u32,
        bound: u32,
        path: &mut String,
        h: &dyn Fn(&Board) -> u32,
    ) -> Option<u32> {
        let f = g + h(board);
        if f > bound {
            return Some(f);
        }
        if h(board) == 0 {
            return None;
        }
        let mut least = u32::MAX;
        for mv in Move::ALL {
            if path.ends_with(mv.opposite().letter()) {
                continue;
            }
            let Some(next) = board.moved(mv) else {
                continue;
            };
            path.push(mv.letter());
            match dfs(&next, g + 1, bound, path, h) {
                None => return None,
                Some(over) => least = least.min(over),
            }
            path.pop();
        }
        Some(least)
    }
    let mut bound = manhattan(start);
    let mut path = String::new();
    while let Some(next) = dfs(start, 0, bound, &mut path, &manhattan) {
        bound = next;
    }
    path
}

/// A board `steps` random moves away from `goal`.
fn scrambled(goal: &Board, steps: usize, seed: u64) -> Board {
    let mut state = seed;
    let mut board = *goal;
    for _ in 0..steps {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = Move::ALL[(state >> 62) as usize];
        board = board.moved(mv).unwrap_or(board);
    }
    board
}

fn letters(moves: &[Move]) -> String {
    eight::board::moves_to_string(moves)
}

/// The databases of `groups` toward `goal`, written to a file in memory and
/// read back, as `eight` reads them.
fn databases(goal: &Board, groups: &[&[u8]]) -> Result<PdbTable<Vec<u8>>, eight::TableError> {
    let dbs: Vec<PatternDb> = groups
        .iter()
        .map(|tiles| PatternDb::generate(goal, tiles, |_| {}))
        .collect();
    let parts: Vec<(&[u8], &[u8])> = dbs.iter().map(|db| (db.tiles(), db.entries())).collect();
    let mut file = Vec::new();
    write_pattern_dbs(goal, &parts, &mut file).unwrap();
    let table = PdbTable::new(file)?;
    table.verify()?;
    Ok(table)
}

fn five_five_five(goal: &Board) -> Solver<Vec<u8>> {
    let groups: [&[u8]; 3] = [&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10], &[11, 12, 13, 14, 15]];
    Solver::new(databases(goal, &groups).unwrap())
}

#[test]
fn fifteen_puzzle_answers_match_a_plain_manhattan_search() {
    let goal = Board::goal(Shape::FIFTEEN);
    let solver = five_five_five(&goal);
    for seed in 0..40 {
        let start = scrambled(&goal, 40, seed);
        let found = solver.solve(&start);
        let moves = found.moves.expect("a scrambled board is solvable");
        assert_eq!(letters(&moves), reference_solve(&start, &goal), "{start}");
        assert!(
            solver.estimate(&start) as usize <= moves.len(),
            "admissible"
        );
    }
}

#[test]
fn eight_puzzle_search_agrees_with_the_table() {
    let table = Table::builtin().unwrap();
    for blank in [8, 0, 4] {
        let goal = Board::canonical(Shape::EIGHT, blank);
        let solver = Solver::new(databases(&goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]).unwrap());
        for seed in 0..300u64 {
            let mut cells: Vec<u8> = (0..9).collect();
            let mut state = seed * 2654435761 + 1;
            for i in (1..9).rev() {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                cells.swap(i, (state >> 33) as usize % (i + 1));
            }
            let start = Board::from_cells(Shape::EIGHT, &cells).unwrap();
            let expected = table.solve_to(&start, &goal).unwrap();
            let found = solver.solve(&start);
            assert_eq!(
                found.moves.map(|m| letters(&m)),
                expected.moves().map(letters),
                "{start}"
            );
        }
    }
}

/// The easiest of Korf's 100 instances, solved optimally toward his goal
/// (blank top-left) even with the small 5-5-5 partition.
#[test]
fn easier_korf_instances_get_their_known_lengths() {
    // Korf's instances: 16 tiles (0 the blank), then the optimal length.
    let data = include_str!("data/korf100.txt");
    let goal = Board::canonical(Shape::FIFTEEN, 0);
    let solver = five_five_five(&goal);
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let numbers: Vec<&str> = line.split_whitespace().collect();
        let length: usize = numbers[16].parse().unwrap();
        if length > 42 {
            continue;
        }
        let start = Board::parse(Shape::FIFTEEN, numbers[..16].join(" ").as_bytes()).unwrap();
        let moves = solver
            .solve(&start)
            .moves
            .expect("Korf's instances are solvable");
        assert_eq!(moves.len(), length, "{start}");
        let mut board = start;
        for &mv in &moves {
            board = board.moved(mv).unwrap();
        }
        assert_eq!(board, goal);
    }
}

#[test]
fn a_partition_must_hold_every_tile_once() {
    let goal = Board::goal(Shape::EIGHT);
    assert!(databases(&goal, &[&[1, 2, 3, 4], &[5, 6, 7]]).is_err());
    assert!(databases(&goal, &[&[1, 2, 3, 4], &[4, 5, 6, 7, 8]]).is_err());
    let solver = Solver::new(databases(&goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]).unwrap());
    let unsolvable: Board = "2 1 3 4 5 6 7 8 x".parse().unwrap();
    assert_eq!(solver.solve(&unsolvable).moves, None);
}

#[test]
fn damaged_databases_are_refused() {
    let goal = Board::goal(Shape::EIGHT);
    let table = databases(&goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]).unwrap();
    let header = table.header().clone();
    let mut bytes = Vec::new();
    let groups: Vec<(&[u8], &[u8])> = table.groups().collect();
    write_pattern_dbs(&goal, &groups, &mut bytes).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    let damaged = PdbTable::new(&bytes[..]).expect("the header is intact");
    assert!(matches!(
        damaged.verify(),
        Err(eight::TableError::Checksum { .. })
    ));
    bytes.truncate(last);
    assert!(PdbTable::new(&bytes[..]).is_err());
    // Each kind of file is refused by the reader of the other.
    assert!(PdbTable::new(eight::table::BUILTIN_TABLE).is_err());
    let mut file = Vec::new();
    write_pattern_dbs(&goal, &groups, &mut file).unwrap();
    assert!(Table::new(&file[..]).is_err());
    assert_eq!(header.sections.len(), 2);
}

/// Any goal with the databases' blank cell is served by relabelling, as the
/// table serves it; a goal with the blank elsewhere is refused.
#[test]
fn search_relabels_toward_goals_with_the_same_blank() {
    let table = Table::builtin().unwrap();
    let canonical = Board::goal(Shape::EIGHT);
    let solver = Solver::new(databases(&canonical, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]).unwrap());
    let goal: Board = "8 7 6 5 4 3 2 1 x".parse().unwrap();
    for text in [
        "x 1 3 4 2 5 7 8 6",
        "8 6 7 2 5 4 3 x 1",
        "1 2 3 4 5 6 8 7 x",
    ] {
        let start: Board = text.parse().unwrap();
        let found = solver.solve_to(&start, &goal).unwrap();
        let expected = table.solve_to(&start, &goal).unwrap();
        assert_eq!(
            found.moves.map(|m| letters(&m)),
            expected.moves().map(letters),
            "{text}"
        );
    }
    let elsewhere = Board::canonical(Shape::EIGHT, 0);
    let err = solver.solve_to(&canonical, &elsewhere).unwrap_err();
    assert_eq!(
        err,
        eight::SolveError::GoalBlank {
            expected: 8,
            got: 0
        }
    );
}
