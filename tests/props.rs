//! Property tests: the parser and the table loader take arbitrary bytes
//! without panicking, and every layout of a board reads back as that board.

use eight::table::BUILTIN_TABLE;
use eight::{Board, Item, Parser, Shape, Table};
use proptest::prelude::*;

/// Everything the parser reports for `input`, fed in chunks of `chunk` bytes.
fn parse_in_chunks(input: &[u8], chunk: usize) -> Vec<Item> {
    let mut parser = Parser::new(Shape::EIGHT);
    let mut items = Vec::new();
    for piece in input.chunks(chunk.max(1)) {
        parser.feed(piece, &mut |item| items.push(item));
    }
    parser.finish(&mut |item| items.push(item));
    items
}

/// A board of the 3x3 shape from a permutation of 0..9.
fn board_from(perm: &[u8]) -> Board {
    Board::from_cells(Shape::EIGHT, perm).unwrap()
}

fn any_board() -> impl Strategy<Value = Board> {
    Just((0..9u8).collect::<Vec<u8>>())
        .prop_shuffle()
        .prop_map(|perm| board_from(&perm))
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic_and_chunking_does_not_matter(
        input in proptest::collection::vec(any::<u8>(), 0..2000),
        chunk in 1usize..64,
    ) {
        let whole = parse_in_chunks(&input, input.len());
        prop_assert_eq!(&whole, &parse_in_chunks(&input, chunk));
        // Every board reported stands on a line that exists.
        let lines = input.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        for item in whole {
            let Item::Board { line, .. } = item else { panic!("no count was asked for") };
            prop_assert!((1..=lines).contains(&line));
        }
    }

    #[test]
    fn text_made_of_tile_characters_never_panics(
        input in "[0-9xX \t\r\n]{0,400}",
        chunk in 1usize..16,
    ) {
        let whole = parse_in_chunks(input.as_bytes(), input.len());
        prop_assert_eq!(whole, parse_in_chunks(input.as_bytes(), chunk));
    }

    #[test]
    fn every_layout_reads_back_the_board(
        board in any_board(),
        blank in prop::sample::select(vec!["x", "X", "0"]),
        separators in proptest::collection::vec(
            prop::sample::select(vec![" ", "  ", "\t", "\n", "\r\n", " \n ", ""]), 8),
        lead in prop::sample::select(vec!["", " ", "\t", "\n\n"]),
    ) {
        let mut text = String::from(lead);
        for (i, &tile) in board.cells().iter().enumerate() {
            if i > 0 {
                text += separators[i - 1];
            }
            text += &match tile { 0 => blank.to_string(), t => t.to_string() };
        }
        let parsed: Board = text.parse().map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        prop_assert_eq!(parsed, board);
        // And the displayed form parses back too.
        prop_assert_eq!(board.to_string().parse::<Board>().unwrap(), board);
    }

    #[test]
    fn arbitrary_bytes_are_never_taken_for_a_table(
        bytes in proptest::collection::vec(any::<u8>(), 0..4096),
    ) {
        let loaded = Table::new(&bytes[..]).and_then(|t| t.verify().map(|()| t));
        prop_assert!(loaded.is_err());
    }

    #[test]
    fn a_damaged_table_errs_or_answers_right(
        flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..4),
        cut in proptest::option::of(any::<prop::sample::Index>()),
        board in any_board(),
    ) {
        let mut bytes = BUILTIN_TABLE.to_vec();
        for (at, flip) in flips {
            let at = at.index(bytes.len());
            bytes[at] ^= flip;
        }
        if let Some(cut) = cut {
            bytes.truncate(cut.index(bytes.len()));
        }
        // Two flips of one byte may cancel out.
        prop_assume!(bytes != BUILTIN_TABLE);
        let expected = Table::builtin().unwrap().solve(&board).unwrap();
        // Whether or not `verify` is called, a damaged table never panics and
        // never answers wrongly.
        if let Ok(table) = Table::new(&bytes[..]) {
            if let Ok(solution) = table.solve(&board) {
                prop_assert_eq!(solution, expected);
            }
            prop_assert!(table.verify().is_err());
        }
    }
}
