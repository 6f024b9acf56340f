//! Every board toward every canonical goal (and some other goals), checked
//! against the plain BFS in `common`.

mod common;

use eight::{Board, Solution, Table};

/// Solves all 9! boards toward `goal` with the built-in table and compares
/// each answer with the reference: the same shortest, lexicographically
/// smallest path, and `unsolvable` exactly for the boards that cannot reach
/// the goal.
fn check_every_board_toward(goal: &str) {
    let table = Table::builtin().expect("the built-in table loads");
    let distance = common::distances(goal);
    assert_eq!(distance.len(), 181_440, "half of all boards reach {goal}");
    let goal_board: Board = goal.parse().unwrap();
    let mut unsolvable = 0;
    for text in common::all_boards() {
        let board: Board = text.parse().unwrap();
        let solution = table.solve_to(&board, &goal_board).unwrap();
        match (solution, common::best_path(&distance, &text)) {
            (Solution::Moves(moves), Some(expected)) => {
                let got = eight::board::moves_to_string(&moves);
                assert_eq!(got, expected, "{text} toward {goal}");
                assert_eq!(common::follow(&text, &got).as_deref(), Some(goal));
            }
            (Solution::Unsolvable, None) => unsolvable += 1,
            (got, expected) => panic!("{text} toward {goal}: got {got}, expected {expected:?}"),
        }
    }
    assert_eq!(unsolvable, 181_440);
}

#[test]
fn every_board_toward_the_usual_goal() {
    check_every_board_toward("12345678x");
}

#[test]
fn every_board_toward_blank_at_0() {
    check_every_board_toward("x12345678");
}

#[test]
fn every_board_toward_blank_at_1() {
    check_every_board_toward("1x2345678");
}

#[test]
fn every_board_toward_blank_at_2() {
    check_every_board_toward("12x345678");
}

#[test]
fn every_board_toward_blank_at_3() {
    check_every_board_toward("123x45678");
}

#[test]
fn every_board_toward_blank_at_4() {
    check_every_board_toward("1234x5678");
}

#[test]
fn every_board_toward_blank_at_5() {
    check_every_board_toward("12345x678");
}

#[test]
fn every_board_toward_blank_at_6() {
    check_every_board_toward("123456x78");
}

#[test]
fn every_board_toward_blank_at_7() {
    check_every_board_toward("1234567x8");
}

/// Goals that are not canonical exercise the relabelling of tiles.
#[test]
fn every_board_toward_scrambled_goals() {
    check_every_board_toward("7568x4123");
    check_every_board_toward("x87654321");
}

/// The number of boards at each distance from `12345678x`, as published for
/// the 8-puzzle (Reinefeld 1993, and OEIS A089473): the longest answers take
/// 31 moves, and only two boards need them.
#[test]
fn depth_histogram_of_the_usual_goal() {
    let expected: [u64; 32] = [
        1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529,
        10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
    ];
    let search = eight::bfs::search(&Board::goal(eight::Shape::EIGHT));
    assert_eq!(search.histogram, expected);
    let mut reference = vec![0u64; 32];
    for d in common::distances("12345678x").values() {
        reference[*d as usize] += 1;
    }
    assert_eq!(reference, expected);
}

/// Each section's longest answer in the header is the reference BFS depth.
#[test]
fn section_depths_match_the_reference() {
    let table = Table::builtin().unwrap();
    for (blank, section) in table.header().sections.iter().enumerate() {
        let goal = Board::canonical(eight::Shape::EIGHT, blank)
            .to_string()
            .replace(' ', "");
        let deepest = common::distances(&goal).into_values().max().unwrap();
        assert_eq!(section.max_depth, deepest, "goal {goal}");
    }
}
