//! The table file: the committed file is what the generator makes, and every
//! kind of damage is refused with the right error, never used to answer.

use eight::format::{self, FORMAT_VERSION, MAGIC, PREFIX_LEN, SectionCodes};
use eight::table::BUILTIN_TABLE;
use eight::{Board, Shape, SolveError, Table, TableError};

/// Loads a table and checks all of it, as `eight --table` does.
fn load(bytes: &[u8]) -> Result<Table<&[u8]>, TableError> {
    let table = Table::new(bytes)?;
    table.verify()?;
    Ok(table)
}

#[test]
fn generation_is_deterministic_and_matches_the_built_in_table() {
    let fresh = eight::bfs::generate(Shape::EIGHT, |_| {});
    assert_eq!(fresh, eight::bfs::generate(Shape::EIGHT, |_| {}));
    assert!(
        fresh == BUILTIN_TABLE,
        "generated/eight.table is stale: run eight-gen"
    );
}

#[test]
fn the_table_stays_small() {
    let table = Table::builtin().unwrap();
    for section in &table.header().sections {
        assert!(
            section.len <= 36 * 1024,
            "a section takes {} bytes",
            section.len
        );
    }
    assert!(BUILTIN_TABLE.len() <= 9 * 36 * 1024);
}

#[test]
fn an_empty_file_is_refused() {
    assert_eq!(load(&[]).unwrap_err(), TableError::Empty);
}

#[test]
fn another_kind_of_file_is_refused() {
    let err = load(b"#!/bin/sh\necho this is not a table\n").unwrap_err();
    assert_eq!(err, TableError::NotATable);
    assert!(
        err.to_string().contains("eight-gen"),
        "the message says how to fix it"
    );
}

#[test]
fn another_version_is_refused() {
    let mut bytes = BUILTIN_TABLE.to_vec();
    bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    assert_eq!(
        load(&bytes).unwrap_err(),
        TableError::Version {
            expected: FORMAT_VERSION,
            got: FORMAT_VERSION + 1
        }
    );
}

#[test]
fn every_truncation_is_refused() {
    for len in (0..BUILTIN_TABLE.len()).step_by(113).chain([
        1,
        MAGIC.len(),
        PREFIX_LEN - 1,
        PREFIX_LEN,
        BUILTIN_TABLE.len() - 1,
    ]) {
        let err = load(&BUILTIN_TABLE[..len]).unwrap_err();
        assert!(
            matches!(
                err,
                TableError::Empty | TableError::Truncated { .. } | TableError::Checksum { .. }
            ),
            "cut to {len} bytes: {err}"
        );
    }
}

#[test]
fn trailing_bytes_are_refused() {
    let mut bytes = BUILTIN_TABLE.to_vec();
    bytes.push(0);
    assert!(matches!(load(&bytes).unwrap_err(), TableError::Invalid(_)));
}

/// Every byte of the prefix and header, and a spread of the body, flipped in
/// turn: each damaged file is refused.
#[test]
fn every_flipped_byte_is_refused() {
    let header_end = {
        let (_, body) = format::read_header(BUILTIN_TABLE).unwrap();
        BUILTIN_TABLE.len() - body.len()
    };
    let mut bytes = BUILTIN_TABLE.to_vec();
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
    let mut bytes = BUILTIN_TABLE.to_vec();
    let (header, body) = format::read_header(BUILTIN_TABLE).unwrap();
    let body_start = bytes.len() - body.len();
    let section = &header.sections[8];
    bytes[body_start + section.offset as usize + section.len as usize / 2] ^= 0x10;
    let table = Table::new(&bytes[..]).unwrap();
    let board: Board = "1 2 3 x 4 6 7 5 8".parse().unwrap();
    let err = table.solve(&board).unwrap_err();
    assert!(
        matches!(err, SolveError::Table(TableError::Checksum { .. })),
        "{err}"
    );
    assert!(err.to_string().contains("section 8"), "{err}");
    let goal = Board::canonical(Shape::EIGHT, 3);
    let start: Board = "1 2 3 4 x 5 6 7 8".parse().unwrap();
    assert_eq!(table.solve_to(&start, &goal).unwrap().to_string(), "l");
}

/// A table that is well formed but says the wrong moves cannot make the walk
/// loop or leave the board: it is refused as wrong.
#[test]
fn a_wrong_table_is_refused_not_followed() {
    let shape = Shape::EIGHT;
    let sections: Vec<SectionCodes> = (0..shape.cells())
        .map(|blank| SectionCodes {
            goal: Board::canonical(shape, blank),
            codes: vec![1; format::entries(shape) as usize], // always "left"
            max_depth: 31,
        })
        .collect();
    let bytes = format::encode(shape, &sections);
    let table = load(&bytes).expect("the file itself is intact");
    for board in [
        "1 2 3 4 5 6 7 x 8",
        "x 1 3 4 2 5 7 8 6",
        "8 6 7 2 5 4 3 x 1",
    ] {
        let err = table.solve(&board.parse().unwrap()).unwrap_err();
        assert!(
            matches!(err, SolveError::Table(TableError::Walk(_))),
            "{board}: {err}"
        );
    }
}

#[test]
fn the_header_describes_the_table() {
    let table = Table::builtin().unwrap();
    let header = table.header();
    assert_eq!((header.rows, header.cols), (3, 3));
    assert_eq!(header.rank, format::RankScheme::LehmerHalf);
    assert_eq!(header.codec, format::Codec::Zstd2Bit);
    for (blank, section) in header.sections.iter().enumerate() {
        assert_eq!(section.goal, Board::canonical(Shape::EIGHT, blank).cells());
        assert_eq!(section.entries, 181_440);
    }
}
