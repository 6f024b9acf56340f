//! Data files: the committed tables are what the generator makes, every kind
//! of damage is refused with the right error, and files whose checksums are
//! right but whose contents are wrong are caught before they answer.

use super::common;
use crate::answer::Proof;
use crate::bfs::{self, pack_codes};
use crate::file::{
    self, Codec, FORMAT_VERSION, FileError, HeaderError, MAGIC, NewSection, PREFIX_LEN, RankScheme,
};
use crate::pdb::PdbError;
use crate::pdb::{PatternDb, PdbTable};
use crate::table::Table;
use crate::table::TableError;
use crate::{Board, Move, Shape, SolveError};

fn builtin() -> &'static [u8] {
    crate::data::builtin(Shape::EIGHT).expect("the 3x3 table is built in")
}

/// Loads a table and checks all of it, as `eight --table` does.
fn load(bytes: &[u8]) -> Result<Table<&[u8]>, TableError> {
    let table = Table::new(bytes)?;
    table.verify()?;
    Ok(table)
}

/// The longest answer toward the 3x3 goal with the blank at `blank`.
fn deepest(blank: usize) -> u32 {
    if blank == 4 { 30 } else { 31 }
}

/// A 3x3 table file with these codes (one per entry) and longest answers
/// for every goal.
fn table_with(codes: impl Fn(usize) -> Vec<u8>, max_depth: impl Fn(usize) -> u32) -> Vec<u8> {
    let shape = Shape::EIGHT;
    let frames: Vec<(Board, Vec<u8>, u32)> = (0..9)
        .map(|blank| {
            let packed = pack_codes(&codes(blank));
            (
                Board::canonical(shape, blank),
                file::compress(&packed, 3),
                max_depth(blank),
            )
        })
        .collect();
    let sections: Vec<NewSection<'_>> = frames
        .iter()
        .map(|(goal, bytes, max_depth)| NewSection {
            goal: *goal,
            tiles: Vec::new(),
            entries: bfs::entries(shape),
            max_depth: *max_depth,
            raw_len: bfs::entries(shape).div_ceil(4),
            bytes,
        })
        .collect();
    let mut out = Vec::new();
    file::write(
        &mut out,
        shape,
        RankScheme::LehmerHalf,
        Codec::Zstd2Bit,
        &sections,
    )
    .unwrap();
    out
}

#[test]
fn generation_is_deterministic_and_matches_every_built_in_table() {
    for shape in Shape::all().filter(|s| s.cells() <= 9) {
        let file = crate::data::DataFile::table(shape, crate::Metric::Stm, None);
        let make = || {
            crate::generate::make(&file, &crate::Stop::new(), |_| {})
                .unwrap()
                .unwrap()
        };
        let fresh = make();
        assert_eq!(fresh, make());
        assert!(
            fresh == crate::data::builtin(shape).unwrap(),
            "generated/{shape}.table is stale: run eight-gen"
        );
        load(&fresh).expect("a fresh table proves itself");
    }
}

#[test]
fn every_built_in_table_is_built_in_decoded_too() {
    let mut tables = 0;
    for name in crate::data::builtin_names() {
        let decoded = crate::data::builtin_decoded(name);
        if !name.ends_with(".table") {
            assert!(decoded.is_none(), "{name} is no table");
            continue;
        }
        // Tables of both metrics.
        let file = crate::file::RawFile::new(crate::data::builtin_file(name).unwrap()).unwrap();
        let sections = file.header().sections.len();
        let expected: Vec<u8> = (0..sections)
            .flat_map(|index| file.decompress(index).unwrap().to_vec())
            .collect();
        assert!(
            decoded == Some(&expected[..]),
            "{name}: the copy decoded when the program was built differs"
        );
        tables += 1;
    }
    assert_eq!(tables, 2 * Shape::all().filter(|s| s.cells() <= 9).count());
}

#[test]
fn the_tables_stay_small() {
    let table = Table::new(builtin()).unwrap();
    for section in &table.file().header().sections {
        assert!(
            section.len <= 36 * 1024,
            "a section takes {} bytes",
            section.len
        );
    }
    let total = |metric: &str| -> usize {
        crate::data::builtin_names()
            .filter(|name| name.ends_with(".table") && name.contains("-mtm") == (metric == "mtm"))
            .map(|name| crate::data::builtin_file(name).unwrap().len())
            .sum()
    };
    let stm = total("stm");
    assert!(stm <= 400 * 1024, "the built-in tables take {stm} bytes");
    // 4 bits a board in the multi-tile metric: 528,000 bytes in all.
    let mtm = total("mtm");
    assert!(
        mtm <= 560 * 1024,
        "the built-in MTM tables take {mtm} bytes"
    );
}

#[test]
fn empty_foreign_and_future_files_are_refused() {
    assert_eq!(load(&[]).unwrap_err(), TableError::File(FileError::Empty));
    assert_eq!(
        load(b"#!/bin/sh\necho this is not a table\n").unwrap_err(),
        TableError::File(FileError::NotOurs)
    );
    let mut bytes = builtin().to_vec();
    bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    assert_eq!(
        load(&bytes).unwrap_err(),
        TableError::File(FileError::Version {
            expected: FORMAT_VERSION,
            got: FORMAT_VERSION + 1
        })
    );
    let mut bytes = builtin().to_vec();
    bytes.push(0);
    assert!(matches!(
        load(&bytes).unwrap_err(),
        TableError::File(FileError::Header(HeaderError::TrailingBody(1)))
    ));
}

#[test]
fn every_truncation_is_refused() {
    let bytes = builtin();
    for len in (0..bytes.len()).step_by(113).chain([
        1,
        MAGIC.len(),
        PREFIX_LEN - 1,
        PREFIX_LEN,
        bytes.len() - 1,
    ]) {
        let err = load(&bytes[..len]).unwrap_err();
        assert!(
            matches!(
                err,
                TableError::File(
                    FileError::Empty | FileError::Truncated { .. } | FileError::Checksum { .. }
                )
            ),
            "cut to {len} bytes: {err}"
        );
    }
}

/// Every byte of the prefix and header, and a spread of the body, flipped in
/// turn: each damaged file is refused.
#[test]
fn every_flipped_byte_is_refused() {
    let header = Table::new(builtin()).unwrap();
    let header_end = builtin().len()
        - header
            .file()
            .header()
            .sections
            .iter()
            .map(|s| s.len as usize)
            .sum::<usize>();
    let mut bytes = builtin().to_vec();
    for at in (0..header_end).chain((header_end..bytes.len()).step_by(61)) {
        for flip in [0x01, 0x80, 0xff] {
            bytes[at] ^= flip;
            assert!(
                load(&bytes).is_err(),
                "byte {at} ^ {flip:#x} was not noticed"
            );
            bytes[at] ^= flip;
        }
    }
}

/// A damaged section is noticed when a board needs it, even without
/// `verify`, and the other sections still answer.
#[test]
fn a_damaged_section_is_refused_when_used() {
    let mut bytes = builtin().to_vec();
    let table = Table::new(builtin()).unwrap();
    let sections = &table.file().header().sections;
    let body_start = bytes.len() - sections.iter().map(|s| s.len as usize).sum::<usize>();
    let section = &sections[8];
    bytes[body_start + section.offset as usize + section.len as usize / 2] ^= 0x10;
    let table = Table::new(&bytes[..]).unwrap();
    let board: Board = "1 2 3 x 4 6 7 5 8".parse().unwrap();
    let err = table.solve(&board).unwrap_err();
    assert!(
        matches!(
            &err,
            SolveError::Damaged(d) if matches!(d.table(), Some(TableError::File(FileError::Checksum { .. })))
        ),
        "{err}"
    );
    assert!(err.to_string().contains("section 8"), "{err}");
    let goal = Board::canonical(Shape::EIGHT, 3);
    let start: Board = "1 2 3 4 x 5 6 7 8".parse().unwrap();
    assert_eq!(table.solve_to(&start, &goal).unwrap().to_string(), "l");
}

/// The right codes of every 3x3 goal, one per entry.
fn right_codes() -> Vec<Vec<u8>> {
    (0..9)
        .map(|blank| {
            bfs::search_until(
                &Board::canonical(Shape::EIGHT, blank),
                |_| {},
                &crate::Stop::new(),
            )
            .unwrap()
            .codes
        })
        .collect()
}

/// Changing any one code makes a table that is intact but wrong: the proof
/// refuses it, whatever the change does (a longer path, a smaller letter
/// dropped, a loop, a move off the board).
#[test]
fn one_wrong_code_is_caught_by_the_proof() {
    let right = right_codes();
    let mut rng = common::Rng(7);
    let mut kinds = std::collections::HashSet::new();
    for _ in 0..60 {
        let (blank, entry) = (rng.below(9), rng.below(right[0].len()));
        let goal_entry = (Board::canonical(Shape::EIGHT, blank).rank() / 2) as usize;
        if entry == goal_entry {
            continue;
        }
        let mut codes = right.clone();
        codes[blank][entry] = (codes[blank][entry] + 1 + rng.below(3) as u8) % 4;
        let bytes = table_with(|b| codes[b].clone(), deepest);
        let err = load(&bytes).unwrap_err();
        let TableError::Wrong {
            blank: wrong_blank,
            proof,
            ..
        } = err
        else {
            panic!("not refused as wrong: {err}");
        };
        assert_eq!(wrong_blank, blank);
        kinds.insert(std::mem::discriminant(&proof));
        // Used without `verify`, but proven on first use, it answers nothing.
        let table = Table::new(&bytes[..]).unwrap().proving();
        let goal = Board::canonical(Shape::EIGHT, blank);
        assert!(table.solve_to(&goal, &goal).is_err());
    }
    assert!(
        kinds.len() >= 2,
        "the changes exercised more than one kind of proof"
    );
}

/// Codes that loop, in a header claiming the longest possible answer, cost
/// a bounded walk, never the header's claim.
#[test]
fn looping_codes_cost_a_bounded_walk() {
    let bytes = table_with(|_| vec![1; bfs::entries(Shape::EIGHT) as usize], deepest);
    assert!(matches!(
        load(&bytes).unwrap_err(),
        TableError::Wrong { .. }
    ));
    let table = Table::new(&bytes[..]).unwrap();
    for board in [
        "1 2 3 4 5 6 7 x 8",
        "x 1 3 4 2 5 7 8 6",
        "8 6 7 2 5 4 3 x 1",
    ] {
        let err = table.solve(&board.parse().unwrap()).unwrap_err();
        assert!(
            matches!(&err, SolveError::Damaged(d) if matches!(d.table(), Some(TableError::Wrong { .. }))),
            "{board}: {err}"
        );
    }
    // So do interleaved walks.
    let starts: Vec<Board> = ["1 2 3 4 5 6 7 x 8", "8 6 7 2 5 4 3 x 1"]
        .iter()
        .map(|board| board.parse().unwrap())
        .collect();
    // The second time, enough walks ask that the answers near the goal are
    // found first (from the same codes), and walks stop there.
    for starts in [starts.clone(), starts.repeat(2_500)] {
        let goals = vec![Board::goal(Shape::EIGHT); starts.len()];
        let err = table
            .solve_packed(&starts, &goals, &mut Vec::new())
            .unwrap_err();
        assert!(
            matches!(&err, SolveError::Damaged(d) if matches!(d.table(), Some(TableError::Wrong { .. }))),
            "{} starts: {err}",
            starts.len()
        );
    }
    // A header that claims more than any 3x3 answer takes is refused at once.
    let bytes = table_with(
        |_| vec![1; bfs::entries(Shape::EIGHT) as usize],
        |_| u32::MAX,
    );
    assert!(matches!(
        Table::new(&bytes[..]).unwrap_err(),
        TableError::File(FileError::Header(HeaderError::Depth { .. }))
    ));
}

/// Codes that take the blank off the board are found wrong by a walk, one
/// at a time or interleaved (which steps such a move in place, with no
/// branch, and so ends too long).
#[test]
fn codes_off_the_board_are_wrong_in_every_walk() {
    let down = Move::Down.code();
    let bytes = table_with(|_| vec![down; bfs::entries(Shape::EIGHT) as usize], deepest);
    let table = Table::new(&bytes[..]).unwrap();
    let starts: Vec<Board> = [
        "1 2 3 4 5 6 x 7 8",
        "8 6 7 2 5 4 3 x 1",
        "x 1 3 4 2 5 7 8 6",
    ]
    .iter()
    .map(|board| board.parse().unwrap())
    .collect();
    for start in &starts {
        let err = table.solve(start).unwrap_err();
        assert!(
            matches!(&err, SolveError::Damaged(d) if matches!(d.table(), Some(TableError::Wrong { .. }))),
            "{start:?}: {err}"
        );
    }
    let goals = vec![Board::goal(Shape::EIGHT); 7_500];
    // The last, enough that the answers near the goal are found first.
    let many = starts.repeat(2_500);
    for start in starts.chunks(1).chain([&starts[..], &many[..]]) {
        let err = table
            .solve_packed(start, &goals, &mut Vec::new())
            .unwrap_err();
        assert!(
            matches!(&err, SolveError::Damaged(d) if matches!(d.table(), Some(TableError::Wrong { .. }))),
            "{start:?}: {err}"
        );
    }
}

#[test]
fn the_proof_passes_every_right_table_and_says_what_is_wrong() {
    let right = right_codes();
    for (blank, codes) in right.iter().enumerate() {
        let goal = Board::canonical(Shape::EIGHT, blank);
        let histogram = crate::table::prove(&goal, &pack_codes(codes)).unwrap();
        assert_eq!(histogram.iter().sum::<u64>(), 181_440);
    }
    let mut codes = right[8].clone();
    // From the goal's neighbour below-left... the board one move `u` away
    // says `l`: it leaves the tree, so boards go unreached.
    let near: Board = "1 2 3 4 5 x 7 8 6".parse().unwrap();
    codes[(near.rank() / 2) as usize] = 1;
    let err = crate::table::prove(&Board::goal(Shape::EIGHT), &pack_codes(&codes)).unwrap_err();
    assert!(
        matches!(err, Proof::Unreached { .. } | Proof::NotShortest { .. }),
        "{err}"
    );
}

/// Pattern databases of `groups` toward `goal`, written and read back.
fn databases(goal: &Board, groups: &[&[u8]]) -> Vec<u8> {
    let dbs: Vec<PatternDb> = groups
        .iter()
        .map(|tiles| PatternDb::generate(goal, tiles, |_| {}))
        .collect();
    let mut file = Vec::new();
    crate::pdb::write(goal, &dbs, Codec::Raw8, &mut file).unwrap();
    file
}

/// Rewrites the entries of every group of a database file, keeping every
/// checksum right.
fn with_entries(file: &[u8], entry: impl Fn(usize, u8) -> u8) -> Vec<u8> {
    let table = PdbTable::new(file).unwrap();
    let goal = *table.goal();
    let dbs: Vec<PatternDb> = table
        .databases()
        .iter()
        .map(|db| {
            let entries: Vec<u8> = db
                .entries()
                .iter()
                .enumerate()
                .map(|(i, &e)| entry(i, e))
                .collect();
            PatternDb::from_entries(&goal, db.tiles(), entries)
        })
        .collect();
    let mut out = Vec::new();
    crate::pdb::write(&goal, &dbs, Codec::Raw8, &mut out).unwrap();
    out
}

#[test]
fn databases_of_zeros_or_of_the_largest_value_are_refused() {
    let goal = Board::goal(Shape::FIFTEEN);
    let file = databases(
        &goal,
        &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10], &[11, 12, 13, 14, 15]],
    );
    assert!(PdbTable::new(&file[..]).is_ok());
    let zeros = with_entries(&file, |_, _| 0);
    assert!(matches!(
        PdbTable::new(&zeros[..]).unwrap_err(),
        PdbError::Entry { .. }
    ));
    let full = with_entries(&file, |_, _| 255);
    assert!(matches!(
        PdbTable::new(&full[..]).unwrap_err(),
        PdbError::Home { .. }
    ));
    // The checksums are right: only the checks of the contents catch them.
    assert!(
        crate::file::RawFile::new(&zeros[..])
            .unwrap()
            .verify()
            .is_ok()
    );
}

/// A database that passes the checks at opening but never lets the search
/// finish is stopped at the shape's longest answer: an error, never a hang.
#[test]
fn a_search_that_passes_the_longest_answer_stops() {
    let goal = Board::goal(Shape::EIGHT);
    let file = databases(&goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
    // Every entry but the goal's raised by 40: far too large, never
    // reaching the goal within 31 moves.
    let table = PdbTable::new(&file[..]).unwrap();
    let home: Vec<u64> = table
        .databases()
        .iter()
        .map(|db| db.entries().iter().position(|&e| e == 0).unwrap() as u64)
        .collect();
    let inflated = with_entries(&file, |i, e| {
        if i as u64 == home[0] || i as u64 == home[1] {
            e
        } else {
            e.saturating_add(40)
        }
    });
    let searcher = crate::ida::Searcher::new(PdbTable::new(&inflated[..]).unwrap());
    let board: Board = "1 2 3 4 5 6 7 x 8".parse().unwrap();
    let err = searcher.solve(&board).unwrap_err();
    assert_eq!(
        err,
        SolveError::TooDeep {
            shape: Shape::EIGHT,
            bound: Shape::EIGHT.diameter_bound()
        }
    );
}

/// A header claiming a huge group is refused before anything is read or
/// checksummed.
#[test]
fn a_header_claiming_a_huge_database_is_refused_at_once() {
    let goal = Board::goal(Shape::FIFTEEN);
    let tiles: Vec<u8> = (1..=13).collect();
    let entries = crate::rank::placements(16, 13);
    let section = NewSection {
        goal,
        tiles: tiles.clone(),
        entries,
        max_depth: 0,
        raw_len: entries,
        bytes: &[],
    };
    let mut bytes = Vec::new();
    file::write(
        &mut bytes,
        Shape::FIFTEEN,
        RankScheme::Placement,
        Codec::Raw8,
        &[section],
    )
    .unwrap();
    let err = PdbTable::new(&bytes[..]).unwrap_err();
    assert!(
        matches!(
            &err,
            PdbError::File(FileError::Header(HeaderError::TooLarge { .. }))
        ),
        "{err}"
    );
}

#[test]
fn each_kind_of_file_is_refused_by_the_reader_of_the_other() {
    let goal = Board::goal(Shape::EIGHT);
    let file = databases(&goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
    assert!(matches!(
        Table::new(&file[..]).unwrap_err(),
        TableError::File(FileError::WrongKind { .. })
    ));
    assert!(matches!(
        PdbTable::new(builtin()).unwrap_err(),
        PdbError::File(FileError::WrongKind { .. })
    ));
}

/// Moves that reach the goal in fewer moves than the data's "shortest"
/// prove the data wrong: an error, never a verdict with a wrapped count.
#[test]
fn moves_shorter_than_the_shortest_are_an_error_about_the_data() {
    let right = crate::Solver::builtin(Shape::EIGHT).unwrap();
    let goal = Board::goal(Shape::EIGHT);
    let length = |board: &Board| right.solve(board).unwrap().moves().unwrap().to_vec();
    // A board whose code is turned one step away from the goal, onto a
    // board whose own answer does not lead straight back.
    let mut rng = common::Rng(9);
    let (start, detour) = loop {
        let Ok(start) = Board::from_cells(Shape::EIGHT, &rng.board(9)) else {
            continue;
        };
        if !start.solvable_to(&goal) {
            continue;
        }
        let d = length(&start).len();
        let away = Move::ALL.into_iter().find(|&mv| {
            start.moved(mv).is_some_and(|next| {
                let answer = length(&next);
                answer.len() == d + 1 && next.moved(answer[0]) != Some(start)
            })
        });
        if let Some(mv) = away {
            break (start, mv);
        }
    };
    let mut codes = right_codes();
    codes[8][(start.rank() / 2) as usize] = detour.code();
    let wrong = crate::Solver::from_table(
        Table::new(crate::solver::Data::Owned(table_with(
            |b| codes[b].clone(),
            deepest,
        )))
        .unwrap(),
        crate::solver::Origin::Builtin,
    );
    let moves = length(&start);
    let letters: Vec<u8> = moves.iter().map(|mv| mv.letter() as u8).collect();
    let err = wrong.judge(&start, &goal, &letters).unwrap_err();
    assert_eq!(
        err,
        SolveError::ShorterThanShortest {
            moves: moves.len(),
            shortest: moves.len() + 2
        }
    );
    assert!(err.is_data_error());
}

/// The proof of pattern databases passes right ones and refuses every
/// wrong entry whose checksums were made right again: inflated, zeroed,
/// or one entry changed by one either way; on 3x3, and on 2x9, whose
/// lone tile's search keeps 17 free cells in 64-bit words.
#[test]
fn the_proof_of_databases_refuses_every_wrong_entry() {
    check_proof(Board::goal(Shape::EIGHT), &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
    check_proof(
        Board::goal("2x9".parse().unwrap()),
        &[
            &[9],
            &[1, 2, 10, 11],
            &[3, 4, 12, 13],
            &[5, 6, 14, 15],
            &[7, 8, 16, 17],
        ],
    );
}

fn check_proof(goal: Board, groups: &[&[u8]]) {
    let file = databases(&goal, groups);
    let placements: Vec<usize> = groups
        .iter()
        .map(|g| crate::rank::placements(goal.shape().cells(), g.len()) as usize)
        .collect();
    let all: usize = placements.iter().sum();
    let mut seen = Vec::new();
    PdbTable::new(&file[..])
        .unwrap()
        .prove(|done, of| seen.push((done, of)))
        .unwrap();
    assert_eq!(
        seen.last(),
        Some(&(all as u64, all as u64)),
        "progress ends at all placements"
    );
    let mut rng = common::Rng(11);
    let entries = placements.into_iter().min().unwrap();
    type Change = Box<dyn Fn(usize, u8) -> u8>;
    let changes: Vec<(&str, Change)> = vec![
        ("inflated", Box::new(|_, e| if e > 0 { e + 8 } else { e })),
        ("zeroed", Box::new(|_, _| 0)),
        ("one up", {
            let at = rng.below(entries);
            Box::new(move |i, e| if i == at { e + 1 } else { e })
        }),
        ("one down", {
            let at = rng.below(entries);
            Box::new(move |i, e| {
                if i == at && e > 0 {
                    e - 1
                } else if i == at {
                    e + 2
                } else {
                    e
                }
            })
        }),
    ];
    for (what, change) in changes {
        let wrong = with_entries(&file, change);
        // The checksums are right: only the proof catches it.
        assert!(
            crate::file::RawFile::new(&wrong[..])
                .unwrap()
                .verify()
                .is_ok()
        );
        let err = match PdbTable::new(&wrong[..]) {
            Ok(table) => table.prove(|_, _| {}).unwrap_err(),
            Err(err) => err,
        };
        assert!(
            matches!(
                err,
                PdbError::NotAsSearched { .. } | PdbError::Entry { .. } | PdbError::Home { .. }
            ),
            "{what}: {err}"
        );
    }
}

/// A header whose largest entry is not its group's (the checksums made
/// right) is refused by the proof that a data-folder file gets at first
/// use.
#[test]
fn a_header_with_a_wrong_largest_entry_is_refused_by_the_proof() {
    let goal = Board::goal(Shape::EIGHT);
    let file = databases(&goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
    let raw = crate::file::RawFile::new(&file[..]).unwrap();
    let header = raw.header();
    let bodies: Vec<Vec<u8>> = (0..header.sections.len())
        .map(|index| raw.section(index).unwrap().to_vec())
        .collect();
    let sections: Vec<NewSection<'_>> = header
        .sections
        .iter()
        .zip(&bodies)
        .enumerate()
        .map(|(index, (section, bytes))| NewSection {
            goal,
            tiles: section.tiles.clone(),
            entries: section.entries,
            max_depth: match index {
                0 => section.max_depth + 10,
                _ => section.max_depth,
            },
            raw_len: section.raw_len,
            bytes,
        })
        .collect();
    let mut wrong = Vec::new();
    file::write(
        &mut wrong,
        Shape::EIGHT,
        RankScheme::Placement,
        Codec::Raw8,
        &sections,
    )
    .unwrap();
    let table = PdbTable::new(&wrong[..]).unwrap();
    assert!(table.verify().is_ok(), "the checksums are right");
    let err = table.prove(|_, _| {}).unwrap_err();
    assert!(matches!(err, PdbError::MaxDepth { group: 0, .. }), "{err}");
    assert!(PdbTable::new(&file[..]).unwrap().prove(|_, _| {}).is_ok());
}
