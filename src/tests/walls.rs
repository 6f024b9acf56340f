//! Databases that know the blank's cell ([`Codec::Raw8Walls`]): the cells
//! each placement walls in against their definition, and the search over
//! them against the search over the entries alone and a plain IDA*.

use super::common;
use super::search::{letters, reference_costs, searcher, searcher_in};
use crate::file::Codec;
use crate::pdb::PatternDb;
use crate::rank::rank_placement;
use crate::{Board, Shape, Stop};

/// Every placement and cell of the blank: the cost of the blank there is
/// the entry, or at least two more exactly where the cell is walled in, and
/// never odd more (the parity the walls' one bit leans on).
fn check_walls(goal: &Board, tiles: &[u8]) {
    let db = PatternDb::generate_until(goal, tiles, true, |_| {}, &Stop::new()).unwrap();
    let n = goal.shape().cells();
    let costs = reference_costs(goal, tiles);
    let mut walled = 0;
    for ((cells, blank), cost) in costs {
        let rank = rank_placement(&cells, n) as usize;
        let entry = u32::from(db.entries()[rank]);
        assert!(cost >= entry, "tiles {tiles:?} on {cells:?}, blank {blank}");
        assert_eq!((cost - entry) % 2, 0, "tiles {tiles:?} on {cells:?}");
        let bit = db.walled()[rank] >> blank & 1 == 1;
        assert_eq!(
            bit,
            cost > entry,
            "tiles {tiles:?} on {cells:?}, blank {blank}: cost {cost}, entry {entry}"
        );
        walled += usize::from(bit);
    }
    assert!(walled > 0, "tiles {tiles:?} wall no blank in");
}

#[test]
fn walled_cells_match_their_definition() {
    check_walls(&Board::goal(Shape::EIGHT), &[1, 2, 3]);
    check_walls(&Board::goal(Shape::EIGHT), &[6, 8]);
    check_walls(&Board::canonical(Shape::FIFTEEN, 0), &[1, 4, 5]);
    check_walls(&Board::canonical(Shape::FIFTEEN, 5), &[2, 5, 6, 9]);
    check_walls(&Board::goal("2x8".parse().unwrap()), &[1, 9, 15]);
    check_walls(&Board::canonical("5x5".parse().unwrap(), 0), &[1, 5, 6]);
}

/// The search over databases that know the blank's cell: the same answers
/// as over the entries alone and as a plain Manhattan IDA*, never more
/// nodes (its estimate is never less), alike in one piece, split among
/// threads, with the entries fetched ahead and with redundant sequences
/// left out, on shapes of 16 cells and beyond.
#[test]
fn walls_change_the_nodes_not_the_answers() {
    let mut rng = common::Rng(53);
    let (mut fewer, mut searched) = (0u64, 0u64);
    for (text, sizes) in [
        ("4x4", &[5, 5, 5][..]),
        ("3x5", &[4, 5, 5]),
        ("2x8", &[5, 5, 5]),
        ("3x6", &[4, 4, 4, 5]),
    ] {
        let shape: Shape = text.parse().unwrap();
        for blank in [0, shape.cells() - 1, shape.cells() / 2] {
            let goal = Board::canonical(shape, blank);
            let groups = crate::pdb::partition(&goal, sizes).unwrap();
            let entries = searcher(&goal, &groups).threads(1, 0);
            let walls = searcher_in(&goal, &groups, Codec::Raw8Walls).threads(1, 0);
            let split = searcher_in(&goal, &groups, Codec::Raw8Walls).threads(3, 0);
            let ahead = searcher_in(&goal, &groups, Codec::Raw8Walls)
                .threads(1, 0)
                .fetch_ahead(true);
            let pruned = searcher_in(&goal, &groups, Codec::Raw8Walls).prune_after(Some(0));
            for steps in [20, 50, 80] {
                let start = rng.scramble(shape.cols(), goal.cells(), steps);
                let board = Board::from_cells(shape, &start).unwrap();
                let (solution, nodes) = entries.solve(&board).unwrap();
                let walled = walls.solve(&board).unwrap();
                assert_eq!(walled.0, solution, "{shape} {board}");
                assert!(walled.1 <= nodes, "{shape} {board}: {walled:?} {nodes}");
                assert!(
                    walls.estimate(&board) >= entries.estimate(&board),
                    "{shape} {board}"
                );
                assert_eq!(split.solve(&board).unwrap(), walled, "{shape} {board}");
                assert_eq!(ahead.solve(&board).unwrap(), walled, "{shape} {board}");
                assert_eq!(pruned.solve(&board).unwrap().0, solution, "{shape} {board}");
                if steps == 20 {
                    assert_eq!(
                        letters(&solution),
                        common::manhattan_ida(shape.cols(), &start, goal.cells()),
                        "{shape} {board}"
                    );
                }
                fewer += nodes - walled.1;
                searched += nodes;
            }
        }
    }
    // The walls cut nodes, not just never add them: 129 of 1,432 here.
    assert!(fewer > searched / 20, "{fewer} fewer of {searched}");
}

/// A file of databases that know the blank's cell is proven as the others
/// are: against the search made anew, and refused with the first wrong
/// cell.
#[test]
fn walls_are_proven_and_a_wrong_one_refused() {
    let goal = Board::canonical("3x4".parse().unwrap(), 0);
    let groups = crate::pdb::partition(&goal, &[5, 6]).unwrap();
    let stop = Stop::new();
    let dbs: Vec<PatternDb> = groups
        .iter()
        .map(|tiles| PatternDb::generate_until(&goal, tiles, true, |_| {}, &stop).unwrap())
        .collect();
    let mut file = Vec::new();
    crate::pdb::write(&goal, &dbs, Codec::Raw8Walls, &mut file).unwrap();
    let table = crate::pdb::PdbTable::new(file.clone()).unwrap();
    table.prove(|_, _| {}).unwrap();
    // One walled cell of group 1 set that the search does not set.
    let mut walled = dbs[1].walled().to_vec();
    let rank = walled.iter().position(|&w| w == 0).unwrap();
    walled[rank] = 1 << 2;
    let wrong = PatternDb::from_words(&goal, &groups[1], dbs[1].entries().to_vec(), walled);
    let mut file = Vec::new();
    crate::pdb::write(&goal, &[dbs[0].clone(), wrong], Codec::Raw8Walls, &mut file).unwrap();
    let table = crate::pdb::PdbTable::new(file).unwrap();
    let err = table.prove(|_, _| {}).unwrap_err().to_string();
    assert!(
        err.contains("group 1") && err.contains("walled in"),
        "{err}"
    );
}

/// Databases that know the blank's cell, made as `eight-gen` makes them
/// into a data folder: proven at their first use, told apart by `--where`,
/// and answering as the plain ones do.
#[test]
fn walls_of_a_data_folder_answer_as_the_plain_databases() {
    let shape = Shape::FIFTEEN;
    let goal = Board::canonical(shape, 0);
    let plain = crate::data::DataFile::databases(shape, crate::Metric::Stm, &[5, 5, 5], 0);
    let walled = plain.clone().with_walls();
    let mut solvers = Vec::new();
    let mut dirs = Vec::new();
    for file in [&plain, &walled] {
        let bytes = crate::generate::make(file, &Stop::new(), |_| {})
            .unwrap()
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(file.name()), bytes).unwrap();
        let options = crate::Options::new()
            .with_data(Ok(crate::DataDir::at(dir.path())))
            .with_partition(vec![5, 5, 5]);
        let told = crate::Solver::describe_data(&goal, &options).unwrap();
        assert_eq!(
            told.contains("(5-5-5, knowing the blank's cell)"),
            file.walls(),
            "{told}"
        );
        solvers.push(crate::Solver::open(&goal, &options).unwrap());
        dirs.push(dir);
    }
    let mut rng = common::Rng(52);
    for steps in [10, 40, 80] {
        let start = rng.scramble(shape.cols(), goal.cells(), steps);
        let board = Board::from_cells(shape, &start).unwrap();
        let answer = solvers[0].solve_to(&board, &goal).unwrap();
        assert_eq!(
            solvers[1].solve_to(&board, &goal).unwrap(),
            answer,
            "{board}"
        );
    }
}
