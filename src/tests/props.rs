//! Damaged tables, as properties: arbitrary bytes are never taken for a
//! table, and a damaged one errs or answers right, verified or not.

use proptest::prelude::*;

use super::common;
use crate::table::Table;
use crate::{Board, Shape, Solver};

fn any_board() -> impl Strategy<Value = Board> {
    Just((0..9u8).collect::<Vec<u8>>())
        .prop_shuffle()
        .prop_map(|perm| Board::from_cells(Shape::EIGHT, &perm).unwrap())
}

proptest! {
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
        let builtin = common::generated("3x3.table");
        let mut bytes = builtin.to_vec();
        for (at, flip) in flips {
            let at = at.index(bytes.len());
            bytes[at] ^= flip;
        }
        if let Some(cut) = cut {
            bytes.truncate(cut.index(bytes.len()));
        }
        // Two flips of one byte may cancel out.
        prop_assume!(bytes != builtin);
        let expected = Solver::builtin(Shape::EIGHT).unwrap().solve(&board).unwrap();
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
