//! Pattern databases and IDA*: the databases against their definition, the
//! search against a plain IDA* with the Manhattan distance on every search
//! shape, against the 3x3 table, and on the easier of Korf's instances.

use super::common;
use std::collections::{HashMap, VecDeque};

use crate::data;
use crate::file::Codec;
use crate::ida::Searcher;
use crate::pdb::PatternDb;
use crate::pdb::PdbTable;
use crate::rank::rank_placement;
use crate::{Board, Metric, Move, Shape, Solution, Solver};

/// The definition of a database entry, computed plainly: a search from the
/// goal, over the group's cells and the blank's cell, where a move of a
/// group tile costs one and any other move nothing; the entry of a placement
/// is its least cost over the blank's cells.
fn reference_entries(goal: &Board, tiles: &[u8]) -> HashMap<Vec<u8>, u32> {
    let mut entries: HashMap<Vec<u8>, u32> = HashMap::new();
    for ((cells, _), c) in reference_costs(goal, tiles) {
        let best = entries.entry(cells).or_insert(c);
        *best = (*best).min(c);
    }
    entries
}

/// The cost of every placement of `tiles` and cell of the blank, as
/// [`reference_entries`] defines it.
pub(super) fn reference_costs(goal: &Board, tiles: &[u8]) -> HashMap<(Vec<u8>, u8), u32> {
    let shape = goal.shape();
    let home = |tile: u8| goal.cells().iter().position(|&t| t == tile).unwrap() as u8;
    let homes: Vec<u8> = tiles.iter().map(|&t| home(t)).collect();
    let mut cost: HashMap<(Vec<u8>, u8), u32> = HashMap::new();
    let mut queue = VecDeque::new();
    let start = (homes.clone(), goal.blank() as u8);
    cost.insert(start.clone(), 0);
    queue.push_back(start);
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
    cost
}

fn check_against_definition(goal: &Board, tiles: &[u8]) {
    let db = PatternDb::generate(goal, tiles, |_| {});
    let reference = reference_entries(goal, tiles);
    let n = goal.shape().cells();
    assert_eq!(
        reference.len() as u64,
        crate::rank::placements(n, tiles.len())
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
    check_against_definition(&Board::goal("2x8".parse().unwrap()), &[1, 9, 15]);
    check_against_definition(&Board::canonical("5x3".parse().unwrap(), 7), &[4, 13, 14]);
    // Groups around the goal's blank, which must come back through them.
    check_against_definition(&Board::goal(Shape::EIGHT), &[6, 8]);
    check_against_definition(&Board::canonical(Shape::FIFTEEN, 0), &[1, 4, 5]);
    check_against_definition(&Board::canonical(Shape::FIFTEEN, 5), &[2, 5, 6, 9]);
}

/// The databases of `groups` toward `goal`, written to a file in memory and
/// read back, as `eight` reads them.
pub(super) fn searcher(goal: &Board, groups: &[Vec<u8>]) -> Searcher<Vec<u8>> {
    searcher_in(goal, groups, Codec::Raw8)
}

/// As [`searcher`], the databases stored with `codec`.
pub(super) fn searcher_in(goal: &Board, groups: &[Vec<u8>], codec: Codec) -> Searcher<Vec<u8>> {
    let stop = crate::Stop::new();
    let dbs: Vec<PatternDb> = groups
        .iter()
        .map(|tiles| {
            PatternDb::generate_until(goal, tiles, codec == Codec::Raw8Walls, |_| {}, &stop)
                .unwrap()
        })
        .collect();
    let mut file = Vec::new();
    crate::pdb::write(goal, &dbs, codec, &mut file).unwrap();
    let table = PdbTable::new(file).unwrap();
    table.verify().unwrap();
    Searcher::new(table)
}

pub(super) fn letters(solution: &Solution) -> String {
    solution.to_string()
}

/// Every search shape, toward goals with the blank in a corner, an edge
/// and the middle: the same answers as a plain Manhattan IDA*.
#[test]
fn every_search_shape_agrees_with_a_plain_search() {
    let mut rng = common::Rng(15);
    for shape in Shape::all().filter(|s| s.cells() > 12 && s.small()) {
        for blank in [shape.cells() - 1, 0, shape.cols() / 2, shape.cells() / 2] {
            let goal = Board::canonical(shape, blank);
            let sizes = [5, 5, shape.cells() - 11];
            let groups = crate::pdb::partition(&goal, &sizes).unwrap();
            let searcher = searcher(&goal, &groups);
            // In nibbles, spread out from the first node: no rank at all;
            // and leaving out redundant move sequences from the first node,
            // of up to 8 moves and of up to 12.
            let spread = searcher_in(&goal, &groups, Codec::ZstdNibbles).spread_after(Some(0));
            let pruned = searcher_in(&goal, &groups, Codec::Raw8).prune_after(Some(0));
            let longer = searcher_in(&goal, &groups, Codec::Raw8)
                .prune_after(Some(0))
                .prune_longer_after(Some(0));
            for _ in 0..4 {
                let start = rng.scramble(shape.cols(), goal.cells(), 24);
                let board = Board::from_cells(shape, &start).unwrap();
                let (solution, nodes) = searcher.solve(&board).unwrap();
                assert_eq!(
                    letters(&solution),
                    common::manhattan_ida(shape.cols(), &start, goal.cells()),
                    "{shape} {board}"
                );
                assert_eq!(
                    spread.solve(&board).unwrap(),
                    (solution.clone(), nodes),
                    "{shape} {board}, spread"
                );
                assert_eq!(
                    pruned.solve(&board).unwrap().0,
                    solution,
                    "{shape} {board}, pruned"
                );
                assert_eq!(
                    longer.solve(&board).unwrap().0,
                    solution,
                    "{shape} {board}, pruned longer"
                );
            }
        }
    }
}

/// Fetching entries a node ahead, chosen for large databases, changes no
/// answer and no count of nodes, on every search shape, entries in bytes
/// or in nibbles.
#[test]
fn fetching_ahead_changes_nothing_but_the_time() {
    let mut rng = common::Rng(7);
    for shape in Shape::all().filter(|s| s.cells() > 12 && s.small()) {
        let goal = Board::canonical(shape, shape.cells() / 2);
        let groups = crate::pdb::partition(&goal, &[5, 5, shape.cells() - 11]).unwrap();
        let plain = searcher(&goal, &groups).fetch_ahead(false);
        let ahead = searcher(&goal, &groups).fetch_ahead(true);
        let nibbles = searcher_in(&goal, &groups, Codec::ZstdNibbles)
            .spread_after(None)
            .fetch_ahead(true);
        for _ in 0..6 {
            let start = rng.scramble(shape.cols(), goal.cells(), 36);
            let board = Board::from_cells(shape, &start).unwrap();
            let (solution, nodes) = plain.solve(&board).unwrap();
            assert!(
                nodes > 0,
                "{shape} {board}: a search that expands nothing proves nothing"
            );
            assert_eq!(
                ahead.solve(&board).unwrap(),
                (solution.clone(), nodes),
                "{shape} {board}"
            );
            assert_eq!(
                nibbles.solve(&board).unwrap(),
                (solution, nodes),
                "{shape} {board}, in nibbles"
            );
        }
    }
}

/// The entries spread out at once, never, or once a search has expanded
/// 1,000 nodes (between two bounds) or 16,384 (in the middle of a bound,
/// which then starts again) give the same answers and nodes.
#[test]
fn spreading_changes_nothing_but_the_time() {
    let mut rng = common::Rng(11);
    let mut longest = 0;
    for shape in Shape::all().filter(|s| s.cells() > 12 && s.small()) {
        let goal = Board::canonical(shape, shape.cells() / 2);
        let groups = crate::pdb::partition(&goal, &[5, 5, shape.cells() - 11]).unwrap();
        let make = || searcher_in(&goal, &groups, Codec::ZstdNibbles);
        let never = make().spread_after(None);
        let first = make().spread_after(Some(0));
        let between = make().spread_after(Some(1_000));
        let midway = make().spread_after(Some(16_384));
        let mut most = 0;
        // Longer and longer scrambles, until one search is long enough.
        for steps in (40..400).step_by(20) {
            if most > 20_000 {
                break;
            }
            let start = rng.scramble(shape.cols(), goal.cells(), steps);
            let board = Board::from_cells(shape, &start).unwrap();
            let (solution, nodes) = never.solve(&board).unwrap();
            most = most.max(nodes);
            let expected = (solution, nodes);
            assert_eq!(first.solve(&board).unwrap(), expected, "{shape} {board}");
            assert_eq!(between.solve(&board).unwrap(), expected, "{shape} {board}");
            assert_eq!(midway.solve(&board).unwrap(), expected, "{shape} {board}");
        }
        // Every shape spreads from the start, and midway where a search
        // passes 1,000 nodes. Some databases all but solve their shape: with
        // one draw of boards, 8x2's searches all ended under 1,000 nodes.
        assert!(
            most > 500,
            "{shape}: the searches are too short ({most} nodes)"
        );
        longest = longest.max(most);
    }
    // A search looks at its count every 16,384 nodes: one went past it.
    assert!(
        longest > 20_000,
        "the searches are too short ({longest} nodes)"
    );
}

/// The ways the blank goes one and a half times round a 2x2 block.
const TURNS: [&str; 8] = [
    "rdlurd", "druldr", "ldruld", "dlurdl", "ruldru", "urdlur", "lurdlu", "uldrul",
];

/// Bounds split into subtrees searched on several threads give the
/// answers and the nodes of the search in one piece: boards a few moves
/// from the goal (met while cutting the first levels), the goal itself,
/// and longer ones, on every search shape, in bytes and spread.
#[test]
fn splitting_bounds_among_threads_changes_nothing() {
    let mut rng = common::Rng(12);
    for shape in Shape::all().filter(|s| s.cells() > 12 && s.small()) {
        let goal = Board::canonical(shape, 0);
        let groups = crate::pdb::partition(&goal, &[5, 5, shape.cells() - 11]).unwrap();
        let whole = searcher(&goal, &groups).threads(1, 0);
        let split = [
            searcher(&goal, &groups).threads(3, 0),
            searcher_in(&goal, &groups, Codec::ZstdNibbles)
                .spread_after(Some(0))
                .threads(3, 0),
        ];
        // Scrambles, and scrambles whose last moves turn three tiles of a
        // 2x2 block one and a half times: those are undone as fast going
        // round either way, so answers of the same length start in
        // different subtrees.
        let mut starts = Vec::new();
        for steps in [0, 1, 2, 3, 5, 8, 20, 40, 60, 100, 200] {
            let scrambled = rng.scramble(shape.cols(), goal.cells(), steps);
            let turned = TURNS
                .iter()
                .find_map(|turn| common::follow(shape.cols(), &scrambled, turn))
                .unwrap();
            starts.extend([scrambled, turned]);
        }
        for start in &starts {
            let board = Board::from_cells(shape, start).unwrap();
            let expected = whole.solve(&board).unwrap();
            for searcher in &split {
                assert_eq!(searcher.solve(&board).unwrap(), expected, "{shape} {board}");
            }
        }
    }
}

/// No shortest, lexicographically smallest answer holds a sequence the
/// pruning leaves out, of up to 8 moves or of up to 12: every 3x3 board's
/// answer from the table, toward the usual goal.
#[test]
fn no_answer_holds_a_redundant_sequence() {
    let pruner = crate::prune::pruner();
    let longer = crate::prune::longer();
    let solver = Solver::builtin(Shape::EIGHT).unwrap();
    let goal = Board::goal(Shape::EIGHT);
    let mut longest = 0;
    let mut answers = 0;
    for cells in common::all_boards(9) {
        let board = Board::from_cells(Shape::EIGHT, &cells).unwrap();
        if let Solution::Moves(moves) = solver.solve_to(&board, &goal).unwrap() {
            assert_ne!(pruner.after(&moves), crate::prune::DEAD, "{board}");
            assert_ne!(longer.after(&moves), crate::prune::DEAD, "{board}");
            longest = longest.max(moves.len());
            answers += 1;
        }
    }
    assert_eq!(longest, 31);
    assert_eq!(answers, 181_440);
    // The longer automaton leaves out paths the first keeps: the redundant
    // sequences of 9 to 12 moves that hold none of up to 8.
    let beyond: Vec<Vec<Move>> = crate::prune::redundant(crate::prune::LONGER)
        .into_iter()
        .filter(|moves| moves.len() > crate::prune::LONGEST)
        .filter(|moves| pruner.after(moves) != crate::prune::DEAD)
        .collect();
    assert!(beyond.len() > 1000, "{}", beyond.len());
    for moves in &beyond {
        assert_eq!(longer.after(moves), crate::prune::DEAD);
    }
    // And the sequences are what they should be: six moves round a 2x2
    // block are left out one way round, kept the other.
    let moves = |text: &str| {
        text.chars()
            .map(|c| Move::from_letter(c).unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(pruner.after(&moves("rdlurd")), crate::prune::DEAD);
    assert_ne!(pruner.after(&moves("druldr")), crate::prune::DEAD);
}

#[test]
fn fifteen_puzzle_answers_match_a_plain_manhattan_search() {
    let goal = Board::goal(Shape::FIFTEEN);
    let searcher = searcher(&goal, &crate::pdb::partition(&goal, &[5, 5, 5]).unwrap());
    let mut rng = common::Rng(4);
    for _ in 0..40 {
        let start = rng.scramble(4, goal.cells(), 40);
        let board = Board::from_cells(Shape::FIFTEEN, &start).unwrap();
        let (solution, _) = searcher.solve(&board).unwrap();
        let moves = solution.moves().expect("a scrambled board is solvable");
        assert_eq!(
            letters(&solution),
            common::manhattan_ida(4, &start, goal.cells())
        );
        assert!(
            searcher.estimate(&board) as usize <= moves.len(),
            "admissible"
        );
    }
}

#[test]
fn eight_puzzle_search_agrees_with_the_table() {
    let table = Solver::builtin(Shape::EIGHT).unwrap();
    let mut rng = common::Rng(9);
    for blank in [8, 0, 4] {
        let goal = Board::canonical(Shape::EIGHT, blank);
        let searcher = searcher(&goal, &[vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
        for _ in 0..300 {
            let start = Board::from_cells(Shape::EIGHT, &rng.board(9)).unwrap();
            let expected = table.solve_to(&start, &goal).unwrap();
            let (found, _) = searcher.solve(&start).unwrap();
            assert_eq!(found, expected, "{start}");
        }
    }
}

/// The easiest of Korf's 100 instances, solved optimally toward his goal
/// (blank top-left) even with the small 5-5-5 partition.
#[test]
fn easier_korf_instances_get_their_known_lengths() {
    let goal = Board::canonical(Shape::FIFTEEN, 0);
    let searcher = searcher(&goal, &crate::pdb::partition(&goal, &[5, 5, 5]).unwrap());
    for (cells, length) in common::korf()
        .into_iter()
        .filter(|(_, length)| *length <= 42)
    {
        let start = Board::from_cells(Shape::FIFTEEN, &cells).unwrap();
        let (solution, _) = searcher.solve(&start).unwrap();
        let moves = solution.moves().expect("Korf's instances are solvable");
        assert_eq!(moves.len(), length, "{start}");
        assert_eq!(start.after(moves), Some(goal));
    }
}

#[test]
fn a_partition_must_hold_every_tile_once() {
    let goal = Board::goal(Shape::EIGHT);
    let write = |groups: &[&[u8]]| {
        let dbs: Vec<PatternDb> = groups
            .iter()
            .map(|tiles| PatternDb::generate(&goal, tiles, |_| {}))
            .collect();
        let mut file = Vec::new();
        crate::pdb::write(&goal, &dbs, Codec::Raw8, &mut file).unwrap();
        PdbTable::new(file)
    };
    assert!(write(&[&[1, 2, 3, 4], &[5, 6, 7]]).is_err());
    assert!(write(&[&[1, 2, 3, 4], &[4, 5, 6, 7, 8]]).is_err());
    let searcher = Searcher::new(write(&[&[1, 2, 3, 4], &[5, 6, 7, 8]]).unwrap());
    let unsolvable: Board = "2 1 3 4 5 6 7 8 x".parse().unwrap();
    assert_eq!(searcher.solve(&unsolvable).unwrap().0, Solution::Unsolvable);
    assert!(crate::pdb::partition(&goal, &[4, 3]).is_err());
    assert!(crate::pdb::parse_sizes("7-x").is_err());
}

/// The 5x5 databases' groups are Korf and Felner's pinwheel: toward the
/// goal `x 1 2 ... 24` their very groups, and toward every goal blank cell
/// that databases are made for, four blocks whose tiles are at home on cells
/// that touch (or touch the blank's cell between them).
#[test]
fn the_5x5_groups_are_the_pinwheel() {
    let shape = Shape::TWENTY_FOUR;
    let sizes = data::default_partition(shape, Metric::Stm);
    assert_eq!(sizes, [6; 4]);
    assert_eq!(
        crate::pdb::partition(&Board::canonical(shape, 0), &sizes).unwrap(),
        [
            vec![1, 2, 5, 6, 7, 12],
            vec![3, 4, 8, 9, 13, 14],
            vec![17, 18, 19, 22, 23, 24],
            vec![10, 11, 15, 16, 20, 21],
        ]
    );
    let blanks: Vec<usize> = (0..25)
        .filter(|&b| data::database_blank(shape, b) == b)
        .collect();
    assert_eq!(blanks, [0, 1, 2, 6, 7, 12]);
    for blank in blanks {
        let goal = Board::canonical(shape, blank);
        let home = |tile: u8| goal.cells().iter().position(|&t| t == tile).unwrap();
        for group in crate::pdb::partition(&goal, &sizes).unwrap() {
            let mut cells: Vec<usize> = group.iter().map(|&t| home(t)).collect();
            cells.push(blank);
            let mut reached = vec![cells[0]];
            while let Some(&next) = cells.iter().find(|&&c| {
                !reached.contains(&c) && reached.iter().any(|&r| shape.distance(r, c) == 1)
            }) {
                reached.push(next);
            }
            assert_eq!(group.len(), 6);
            assert!(
                group.iter().all(|&t| reached.contains(&home(t))),
                "blank {blank}: {group:?}"
            );
        }
    }
}

/// Any goal with the databases' blank cell is served by relabelling, as the
/// table serves it, and any other corner through a symmetry; a goal with the
/// blank on an edge is refused.
#[test]
fn search_relabels_toward_goals_with_the_same_blank() {
    let table = Solver::builtin(Shape::EIGHT).unwrap();
    let canonical = Board::goal(Shape::EIGHT);
    let searcher = searcher(&canonical, &[vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
    let goal: Board = "8 7 6 5 4 3 2 1 x".parse().unwrap();
    for text in [
        "x 1 3 4 2 5 7 8 6",
        "8 6 7 2 5 4 3 x 1",
        "1 2 3 4 5 6 8 7 x",
    ] {
        let start: Board = text.parse().unwrap();
        let (found, _) = searcher.solve_to(&start, &goal).unwrap();
        assert_eq!(found, table.solve_to(&start, &goal).unwrap(), "{text}");
    }
    let corner = Board::canonical(Shape::EIGHT, 0);
    let start: Board = "8 6 7 2 5 4 3 x 1".parse().unwrap();
    let (found, _) = searcher.solve_to(&start, &corner).unwrap();
    assert_eq!(found, table.solve_to(&start, &corner).unwrap());
    let edge = Board::canonical(Shape::EIGHT, 1);
    assert_eq!(
        searcher.solve_to(&canonical, &edge).unwrap_err(),
        crate::SolveError::NoData {
            shape: Shape::EIGHT,
            blank: 1
        }
    );
}

/// A batch through a search answers each board as one at a time does, in
/// order, on every core, in both metrics; a board of another shape is
/// refused with its index, and nothing is answered.
#[test]
fn a_batch_of_searched_boards_matches_one_at_a_time() {
    let shape = Shape::FIFTEEN;
    let goal = Board::goal(shape);
    let mut rng = common::Rng(12);
    let mut starts: Vec<Board> = (0..24)
        .map(|_| Board::from_cells(shape, &rng.scramble(4, goal.cells(), 24)).unwrap())
        .collect();
    let mut swapped = goal.cells().to_vec();
    swapped.swap(0, 1);
    starts.insert(5, Board::from_cells(shape, &swapped).unwrap());
    for metric in [Metric::Stm, Metric::Mtm] {
        let solver = Solver::builtin_for(shape, goal.blank(), metric)
            .expect("built in")
            .expect("loads");
        assert!(solver.searches());
        let answers = solver.solve_many(&starts, &goal).unwrap();
        assert_eq!(answers.len(), starts.len());
        for (start, answer) in starts.iter().zip(answers.iter()) {
            assert_eq!(
                answer.to_solution(),
                solver.solve_to(start, &goal).unwrap(),
                "{start}"
            );
        }
        assert_eq!(answers.get(5).unwrap().length(), None);
        let lengths = solver.lengths_many(&starts, &goal).unwrap();
        assert!(
            lengths
                .iter()
                .map(|&length| length.map(usize::from))
                .eq(answers.iter().map(|answer| answer.length()))
        );

        let mut mixed = starts.clone();
        mixed.insert(3, Board::goal(Shape::EIGHT));
        let refused = solver.solve_many(&mixed, &goal).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "the board at index 3: a 3x3 board, but this solver answers 4x4 boards"
        );
        assert!(!refused.is_data_error());
        let other_goal = solver.solve_many(&starts, &Board::goal(Shape::EIGHT));
        assert!(matches!(other_goal, Err(crate::SolveError::Shape { .. })));
        assert!(solver.solve_many(&[], &goal).unwrap().is_empty());
    }
}

/// Every shape beyond 16 cells, toward a goal with the blank in each class
/// of cells a symmetry maps onto one another (one goal of the shapes taller
/// than wide, which are searched as their transposes): the answers over the
/// databases made at start are a plain Manhattan IDA*'s, letter for letter;
/// over databases of groups of 4 from a file, the same in one piece, split
/// among threads and leaving out redundant sequences; and a board too far
/// for the databases made at start is refused, naming the command that
/// makes those that answer it.
#[test]
fn every_shape_beyond_16_cells_agrees_with_a_plain_search() {
    let mut rng = common::Rng(25);
    let mut shapes = 0;
    for shape in Shape::all().filter(|s| !s.small()) {
        shapes += 1;
        // The transposed shapes are searched with the same databases, seen
        // through a symmetry: one goal of theirs is enough.
        let mut classes = Vec::new();
        let blanks = match shape.rows() <= shape.cols() {
            true => 0..shape.cells(),
            false => shape.cells() - 1..shape.cells(),
        };
        for blank in blanks {
            let class = data::database_blank(shape, blank);
            if !classes.iter().any(|&(c, _)| c == class) {
                classes.push((class, blank));
            }
        }
        for &(_, blank) in &classes {
            let goal = Board::canonical(shape, blank);
            let solver = Solver::builtin_for(shape, blank, Metric::Stm)
                .expect("every shape beyond 16 cells is answered out of the box")
                .unwrap();
            for steps in [12, 24] {
                let start = rng.scramble(shape.cols(), goal.cells(), steps);
                let board = Board::from_cells(shape, &start).unwrap();
                assert_eq!(
                    letters(&solver.solve_to(&board, &goal).unwrap()),
                    common::manhattan_ida(shape.cols(), &start, goal.cells()),
                    "{shape} {board}"
                );
            }
        }
        let goal = Board::goal(shape);
        let tiles = shape.cells() - 1;
        let sizes: Vec<usize> = (0..tiles).step_by(4).map(|f| (tiles - f).min(4)).collect();
        let groups = crate::pdb::partition(&goal, &sizes).unwrap();
        let whole = searcher(&goal, &groups).threads(1, 0);
        let split = searcher(&goal, &groups).threads(3, 0);
        let pruned = searcher(&goal, &groups).prune_after(Some(0));
        let longer = searcher(&goal, &groups)
            .prune_after(Some(0))
            .prune_longer_after(Some(0));
        for steps in [30, 40] {
            let start = rng.scramble(shape.cols(), goal.cells(), steps);
            let board = Board::from_cells(shape, &start).unwrap();
            let expected = whole.solve(&board).unwrap();
            assert_eq!(
                letters(&expected.0),
                common::manhattan_ida(shape.cols(), &start, goal.cells()),
                "{shape} {board}"
            );
            assert_eq!(split.solve(&board).unwrap(), expected, "{shape} {board}");
            for pruned in [&pruned, &longer] {
                assert_eq!(
                    pruned.solve(&board).unwrap().0,
                    expected.0,
                    "{shape} {board}"
                );
            }
        }
    }
    assert_eq!(shapes, 19);
}

/// A 5x5 board far from the goal, over the databases made at start: a
/// clear refusal that names the command making the databases, never a
/// search without end.
#[test]
fn a_far_board_beyond_16_cells_names_the_databases_it_needs() {
    let shape: Shape = "5x5".parse().unwrap();
    let solver = Solver::builtin_for(shape, 24, Metric::Stm)
        .unwrap()
        .unwrap();
    // Korf and Taylor's first instance, with the blank moved last: 100
    // moves or so from the goal.
    let board: Board = "17 1 20 9 16 2 22 19 14 5 15 21 x 3 24 23 18 13 12 7 10 8 6 4 11"
        .parse()
        .unwrap();
    let goal = Board::goal(shape);
    let board = board.relabelled(&Board::canonical(shape, 0), &goal);
    let error = solver.solve_to(&board, &goal).unwrap_err();
    assert!(!error.is_data_error(), "{error}");
    // `eight --where` tells what answers without making the databases, in
    // the words of the solver made.
    let dir = tempfile::tempdir().unwrap();
    let dir = crate::DataDir::at(dir.path());
    let options = crate::Options::new().with_data(Ok(dir.clone()));
    let made = Solver::open(&goal, &options).unwrap();
    let told = Solver::describe_data(&goal, &options).unwrap();
    let faster = made.faster(&goal, &dir).unwrap();
    assert_eq!(told, format!("{} ({faster})", made.describe()));
    assert!(told.contains("(4-4-4-4-4-4) made at start"), "{told}");
    let text = error.to_string();
    assert!(
        text.contains("far from the goal") && text.contains("`eight-gen --shape 5x5 --blank 24`"),
        "{text}"
    );
}

/// A search asked to stop ends with `Stopped`, in either metric, whether
/// asked before it starts, from another thread while it runs (the
/// multi-tile one also while it builds its databases), or at a deadline;
/// the solver answers again once given a stop not asked for.
#[test]
fn searches_stop_when_asked() {
    use crate::{SolveError, Stop};
    use std::time::{Duration, Instant};
    let hard: Board = "x 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1".parse().unwrap();
    let stm = Solver::builtin_for(Shape::FIFTEEN, 15, Metric::Stm)
        .unwrap()
        .unwrap();
    let asked = Stop::new();
    asked.stop();
    assert!(matches!(
        stm.stopping(asked).solve(&hard),
        Err(SolveError::Stopped)
    ));
    let mtm = Solver::builtin_for(Shape::FIFTEEN, 15, Metric::Mtm)
        .unwrap()
        .unwrap();
    for at in [Duration::from_millis(100), Duration::from_millis(1500)] {
        let stop = Stop::new();
        let stopping = mtm.stopping(stop.clone());
        let started = Instant::now();
        let asker = std::thread::spawn(move || {
            std::thread::sleep(at);
            stop.stop();
            Instant::now()
        });
        let stopped = stopping.solve(&hard);
        let ended = Instant::now();
        let asked_at = asker.join().unwrap();
        assert!(matches!(stopped, Err(SolveError::Stopped)), "{stopped:?}");
        eprintln!(
            "stopped {:?} after the stop asked at {:?}",
            ended.saturating_duration_since(asked_at),
            asked_at - started
        );
    }
    let timed = mtm.stopping(Stop::new().after(Duration::from_millis(300)));
    assert!(matches!(timed.solve(&hard), Err(SolveError::Stopped)));
    // A near board is answered with a stop never asked for.
    let near = Board::goal(Shape::FIFTEEN)
        .after(&[Move::Up, Move::Left])
        .unwrap();
    let answer = mtm.stopping(Stop::new()).solve(&near).unwrap();
    assert_eq!(letters(&answer), "rd");
}
