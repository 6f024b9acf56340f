//! `--json`: one object a line, for every kind of answer.

use serde::Serialize;

use super::{Job, Outcome, Style};
use eight::{Board, Metric, Verdict};

/// One line of `--json` output.
#[derive(Serialize)]
pub(super) struct JsonAnswer {
    line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    case: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    board: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    length: Option<usize>,
    /// The metric, when it is not the single-tile one.
    #[serde(skip_serializing_if = "Option::is_none")]
    metric: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unsolvable: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// With `--analyse`: the distance to the goal of the board and after
    /// each move, the moves lost, and the numbers of those that brought the
    /// goal no closer.
    #[serde(skip_serializing_if = "Option::is_none")]
    distances: Option<Vec<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lost: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    worse: Option<Vec<usize>>,
    /// A good board whose data cannot be had here.
    #[serde(skip_serializing_if = "Option::is_none")]
    unanswered: Option<bool>,
}

impl JsonAnswer {
    pub(super) fn new(style: Style, job: &Job, outcome: &Outcome<'_>) -> JsonAnswer {
        let spelled = |letters: &[u8]| {
            let mut text = Vec::with_capacity(letters.len());
            style.notation.spell(letters, &mut text);
            String::from_utf8_lossy(&text).into_owned()
        };
        let mut json = JsonAnswer {
            line: job.line,
            case: job.case,
            board: None,
            goal: None,
            moves: None,
            length: None,
            metric: (style.metric != Metric::Stm).then(|| style.metric.name()),
            unsolvable: None,
            verdict: None,
            error: None,
            distances: None,
            lost: None,
            worse: None,
            unanswered: None,
        };
        match outcome {
            Outcome::Solved { start, goal, moves } => {
                json.board = Some(start.to_string());
                json.goal = Some(goal.to_string());
                match moves {
                    Some(moves) => {
                        json.moves = (!style.length).then(|| spelled(moves));
                        json.length = Some(style.metric.count(moves));
                    }
                    None => json.unsolvable = Some(true),
                }
            }
            Outcome::Counted {
                start,
                goal,
                length,
            } => {
                json.board = Some(start.to_string());
                json.goal = Some(goal.to_string());
                match length {
                    Some(length) => json.length = Some(*length),
                    None => json.unsolvable = Some(true),
                }
            }
            Outcome::Invalid(message) => json.error = Some(message.to_string()),
            Outcome::Unanswered {
                start,
                goal,
                message,
            } => {
                json.board = Some(start.to_string());
                json.goal = goal.map(ToString::to_string);
                json.error = Some(message.to_string());
                json.unanswered = Some(true);
            }
            Outcome::Analysed {
                start,
                goal,
                moves,
                analysis,
            } => {
                json.judged(start, goal, moves, &analysis.verdict);
                if let Some(lost) = analysis.lost() {
                    json.distances = Some(analysis.distances.clone());
                    json.lost = Some(lost);
                    json.worse = Some(analysis.worse().collect());
                }
            }
            Outcome::Judged {
                start,
                goal,
                moves,
                verdict,
            } => json.judged(start, goal, moves, verdict),
        }
        json
    }

    /// The fields of a line of moves judged: the board, the goal, the moves
    /// as they were written, and the verdict.
    fn judged(&mut self, start: &Board, goal: &Board, moves: &[u8], verdict: &Verdict) {
        self.board = Some(start.to_string());
        self.goal = Some(goal.to_string());
        self.moves = Some(String::from_utf8_lossy(moves).into_owned());
        self.verdict = Some(verdict.to_string());
    }
}
