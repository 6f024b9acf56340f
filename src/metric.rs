//! How moves are counted: a tile at a time, or a run of tiles at a time.
//! Below everything that answers, so that every room asks it, not the
//! multi-tile metric's own module.

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::shape::Move;

/// How moves are counted.
///
/// In the multi-tile metric an answer is still written one letter per cell
/// the blank passes (`ddl` is two moves: two cells down, then one left);
/// two moves of a shortest answer never go the same way one after the
/// other, so its runs of equal letters are its moves ([`Metric::count`]).
/// Of the answers with the fewest moves, the canonical one is the
/// lexicographically smallest letter string (`d < l < r < u`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Metric {
    /// The single-tile metric: every tile slid one cell is a move.
    #[default]
    Stm,
    /// The multi-tile metric: a run of tiles slid along a row or column at
    /// once is a move.
    Mtm,
}

impl Metric {
    /// The number of moves of an answer written as blank letters, counted
    /// in this metric: its letters, or its runs of equal letters.
    ///
    /// ```
    /// use eight::Metric;
    ///
    /// assert_eq!(Metric::Stm.count(b"ddlu"), 4);
    /// assert_eq!(Metric::Mtm.count(b"ddlu"), 3);
    /// ```
    pub fn count(self, letters: &[u8]) -> usize {
        self.count_runs(letters)
    }

    /// [`Metric::count`] of an answer's moves of the blank.
    pub(crate) fn count_moves(self, moves: &[Move]) -> usize {
        self.count_runs(moves)
    }

    /// The items, or their runs of equal items.
    fn count_runs<T: PartialEq>(self, items: &[T]) -> usize {
        match self {
            Metric::Stm => items.len(),
            Metric::Mtm => {
                let changes = items.windows(2).filter(|w| w[0] != w[1]).count();
                changes + usize::from(!items.is_empty())
            }
        }
    }

    /// The boards one move from `board` in this metric: each step of the
    /// blank, then in the multi-tile metric the runs of two steps one way,
    /// of three, and so on.
    pub fn beside(self, board: &Board) -> Vec<Board> {
        let mut ends: Vec<(Move, Board)> = Move::ALL
            .into_iter()
            .filter_map(|mv| Some((mv, board.moved(mv)?)))
            .collect();
        let mut boards = Vec::new();
        while !ends.is_empty() {
            boards.extend(ends.iter().map(|&(_, end)| end));
            if self == Metric::Stm {
                break;
            }
            ends = ends
                .into_iter()
                .filter_map(|(mv, end)| Some((mv, end.moved(mv)?)))
                .collect();
        }
        boards
    }

    /// Its name: `stm` or `mtm`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Stm => "stm",
            Metric::Mtm => "mtm",
        }
    }

    /// What follows the name of its data in messages (`the 3x4 table` of
    /// the multi-tile metric): nothing for the single-tile metric.
    pub(crate) fn of_data(self) -> &'static str {
        match self {
            Metric::Stm => "",
            Metric::Mtm => " of the multi-tile metric",
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads `stm` or `mtm`.
impl FromStr for Metric {
    type Err = String;

    fn from_str(text: &str) -> Result<Metric, String> {
        match text {
            "stm" => Ok(Metric::Stm),
            "mtm" => Ok(Metric::Mtm),
            other => Err(format!("{other:?} is not a metric: write stm or mtm")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_boards_beside_are_the_steps_then_the_runs() {
        let board: Board = "1 2 3 4 x 5 6 7 8".parse().unwrap();
        let steps = [
            "1 2 3 4 7 5 6 x 8",
            "1 2 3 x 4 5 6 7 8",
            "1 2 3 4 5 x 6 7 8",
            "1 x 3 4 2 5 6 7 8",
        ];
        let steps: Vec<Board> = steps.iter().map(|b| b.parse().unwrap()).collect();
        // From the middle of 3x3, no run is longer than a step.
        assert_eq!(Metric::Stm.beside(&board), steps);
        assert_eq!(Metric::Mtm.beside(&board), steps);
        // From a corner of 4x4: the two steps, then the runs of two, of three.
        let corner: Board = "x 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15".parse().unwrap();
        let blanks: Vec<usize> = Metric::Mtm
            .beside(&corner)
            .iter()
            .map(Board::blank)
            .collect();
        assert_eq!(blanks, [4, 1, 8, 2, 12, 3]);
        assert_eq!(Metric::Stm.beside(&corner).len(), 2);
    }

    #[test]
    fn counts_runs_in_mtm() {
        assert_eq!(Metric::Mtm.count(b""), 0);
        assert_eq!(Metric::Mtm.count(b"d"), 1);
        assert_eq!(Metric::Mtm.count(b"ddl"), 2);
        assert_eq!(Metric::Mtm.count(b"dldl"), 4);
        assert_eq!(Metric::Stm.count(b"ddl"), 3);
    }
}
