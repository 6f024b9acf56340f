//! Property tests: the parser and the table loader take arbitrary bytes
//! without panicking, every layout of a board reads back as that board, and
//! any sequence of lines gets exactly one answer line per board.

mod common;

use std::sync::OnceLock;

use eight::{Board, Item, Layout, Parser, Shape};
use proptest::prelude::*;

/// Everything the parser reports for `input`, fed in chunks of `chunk` bytes.
fn parse_in_chunks(layout: Layout, input: &[u8], chunk: usize) -> Vec<Item> {
    let mut parser = Parser::new(layout);
    let mut items = Vec::new();
    for piece in input.chunks(chunk.max(1)) {
        parser.feed(piece, &mut |item| items.push(item));
    }
    parser.finish(&mut |item| items.push(item));
    items
}

fn any_board() -> impl Strategy<Value = Board> {
    Just((0..9u8).collect::<Vec<u8>>())
        .prop_shuffle()
        .prop_map(|perm| Board::from_cells(Shape::EIGHT, &perm).unwrap())
}

/// The oracle's answers toward the usual 3x3 goal, made once.
fn oracle() -> &'static common::Oracle {
    static ORACLE: OnceLock<common::Oracle> = OnceLock::new();
    ORACLE.get_or_init(|| common::Oracle::new(3, &common::canonical(9, 8)))
}

/// One unit of input and what `eight` must answer for it: a good board (its
/// answer), a grid of rows (its answer), a bad line (`invalid`), or an empty
/// line (nothing).
#[derive(Clone, Debug)]
enum Unit {
    Board(Vec<u8>),
    Grid(Vec<u8>),
    Bad(String),
    Empty(String),
}

fn any_unit() -> impl Strategy<Value = Unit> {
    let perm = Just((0..9u8).collect::<Vec<u8>>()).prop_shuffle();
    prop_oneof![
        3 => perm.clone().prop_map(Unit::Board),
        1 => perm.prop_map(Unit::Grid),
        // Lines that are neither a board nor a row of one: tile counts other
        // than 3, 4, 9 and 16, and garbage.
        2 => prop_oneof![
            "[1-8x]{1,2}",
            "[1-8x]{5,8}",
            "([1-8x] ){10,15}",
            "[a-wyz!?.,;-]{1,12}",
            "[1-9 ]{0,3}[a-z]{3,8}[0-9 ]{5,9}",
        ]
        .prop_filter("not a row or a board", |line| {
            let tokens = line.split_whitespace().count();
            let chars: usize = line.split_whitespace().map(|t| t.chars().count()).sum();
            tokens > 0 && ![3, 9].contains(&chars) && ![4, 16].contains(&tokens)
        })
        .prop_map(Unit::Bad),
        1 => "[ \t\r]{0,3}".prop_map(Unit::Empty),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The stream contract, through the program: one answer line per board,
    /// each good board's line its answer, whatever lines come between.
    #[test]
    fn every_board_gets_its_own_answer_line(units in proptest::collection::vec(any_unit(), 0..40)) {
        let mut input = String::new();
        let mut expected = String::new();
        for unit in &units {
            match unit {
                Unit::Board(cells) => {
                    input += &(common::text(cells) + "\n");
                    expected += &(oracle().best_path(cells).unwrap_or_else(|| "unsolvable".into()) + "\n");
                }
                Unit::Grid(cells) => {
                    for row in cells.chunks(3) {
                        input += &(common::text(row) + "\n");
                    }
                    expected += &(oracle().best_path(cells).unwrap_or_else(|| "unsolvable".into()) + "\n");
                }
                Unit::Bad(line) => {
                    input += &(line.clone() + "\n");
                    expected += "invalid\n";
                }
                Unit::Empty(line) => input += &(line.clone() + "\n"),
            }
        }
        let (out, err, code) = common::run(&[], input);
        prop_assert_eq!(out, expected);
        let bad = units.iter().filter(|u| matches!(u, Unit::Bad(_))).count();
        prop_assert_eq!(err.lines().count(), bad);
        prop_assert_eq!(code, i32::from(bad > 0));
    }
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic_and_chunking_does_not_matter(
        input in proptest::collection::vec(any::<u8>(), 0..2000),
        chunk in 1usize..64,
    ) {
        for layout in [Layout::Auto, Layout::Fixed(Shape::EIGHT), Layout::Fixed("2x7".parse().unwrap())] {
            let whole = parse_in_chunks(layout, &input, input.len());
            prop_assert_eq!(&whole, &parse_in_chunks(layout, &input, chunk));
            // Every board reported stands on a line that exists.
            let lines = input.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            for item in whole {
                prop_assert!((1..=lines).contains(&item.line));
            }
        }
    }

    #[test]
    fn text_made_of_tile_characters_never_panics(
        input in "[0-9xX/ \t\r\n]{0,400}",
        chunk in 1usize..16,
    ) {
        let whole = parse_in_chunks(Layout::Auto, input.as_bytes(), input.len());
        prop_assert_eq!(whole, parse_in_chunks(Layout::Auto, input.as_bytes(), chunk));
    }

    #[test]
    fn every_layout_reads_back_the_board(
        board in any_board(),
        blank in prop::sample::select(vec!["x", "X", "0"]),
        separators in proptest::collection::vec(
            prop::sample::select(vec![" ", "  ", "\t", " \r ", ""]), 8),
        lead in prop::sample::select(vec!["", " ", "\t", "\n\n"]),
        grid in any::<bool>(),
    ) {
        let mut text = String::from(lead);
        for (i, &tile) in board.cells().iter().enumerate() {
            if i > 0 {
                text += match (grid, i % 3) {
                    (true, 0) => "\n",
                    _ => separators[i - 1],
                };
            }
            text += &match tile { 0 => blank.to_string(), t => t.to_string() };
        }
        let items = parse_in_chunks(Layout::Auto, text.as_bytes(), 7);
        prop_assert_eq!(items.len(), 1, "{:?}", text);
        prop_assert_eq!(items[0].result.clone(), Ok(board));
        // And the displayed form parses back too.
        prop_assert_eq!(board.to_string().parse::<Board>().unwrap(), board);
    }
}
