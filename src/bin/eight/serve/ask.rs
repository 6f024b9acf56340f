//! A request read: the boards asked for, parsed as the program parses
//! them, and the options that say how to answer them.

use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use eight::{Board, Layout, Metric, Notation, ParseError, Shape};
use serde::Deserialize;

use super::Refusal;
use crate::stream::{Config, Form, Style};

/// The most boards a request asks for.
pub(super) const MAX_BOARDS: usize = 10_000;

/// The options every request may give.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Ask {
    pub(super) board: Option<String>,
    pub(super) boards: Option<Vec<String>>,
    /// With `judge`: the moves of `board`, or of each of `cases`.
    pub(super) moves: Option<String>,
    pub(super) cases: Option<Vec<Case>>,
    pub(super) goal: Option<String>,
    pub(super) shape: Option<String>,
    pub(super) metric: Option<String>,
    pub(super) notation: Option<String>,
    /// A name for the search this request may start, by which
    /// `/api/cancel` stops it.
    pub(super) id: Option<String>,
}

/// A board and moves to judge.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Case {
    board: String,
    moves: String,
}

/// A board's message in the API's words: the shape is the request's
/// `"shape"`, not the program's `--shape`.
fn in_api(err: &ParseError) -> String {
    err.to_string().replace("--shape", "\"shape\"")
}

/// A request read: the boards, parsed, and how to answer them.
pub(super) struct Asked {
    pub(super) boards: Vec<Board>,
    /// The moves of each board, when judged.
    pub(super) moves: Vec<String>,
    pub(super) config: Config,
    /// The name the client gave the search.
    pub(super) id: Option<String>,
}

impl Asked {
    /// The goal of `board`: the one asked for, else its shape's usual goal.
    pub(super) fn goal_of(&self, board: &Board) -> Board {
        self.config
            .goal
            .unwrap_or_else(|| Board::goal(board.shape()))
    }
}

/// What `--metric`, `--notation`, `--shape` and `--goal` would say.
pub(super) fn options(ask: &Ask) -> Result<(Config, Option<Shape>), Refusal> {
    let metric = match &ask.metric {
        Some(text) => text
            .parse::<Metric>()
            .map_err(|err| Refusal::bad(format!("metric {text:?}: {err}")))?,
        None => Metric::Stm,
    };
    let notation = match &ask.notation {
        Some(text) => text
            .parse::<Notation>()
            .map_err(|err| Refusal::bad(format!("notation {text:?}: {err}")))?,
        None => Notation::Blank,
    };
    let shape = match &ask.shape {
        Some(text) => Some(
            text.parse::<Shape>()
                .map_err(|err| Refusal::bad(format!("shape {text:?}: {err}")))?,
        ),
        None => None,
    };
    let goal = match &ask.goal {
        Some(text) => {
            let layout = shape.map_or(Layout::Auto, Layout::Fixed);
            Some(
                Board::parse_in(layout, text.as_bytes())
                    .map_err(|err| Refusal::bad(format!("goal {text:?}: {}", in_api(&err))))?,
            )
        }
        None => None,
    };
    let shape = shape.or(goal.map(|goal| goal.shape()));
    // Judged lines are read again, in the shape asked.
    let mut config = Config::new(shape.map_or(Layout::Auto, Layout::Fixed));
    config.goal = goal;
    config.style = Style {
        form: Form::Json,
        length: false,
        notation,
        metric,
        analyse: false,
    };
    Ok((config, shape))
}

/// Reads the boards of a request (`board`, or `boards`; with `judge`, and
/// their moves), each of the shape asked, at most [`MAX_BOARDS`].
pub(super) fn read(
    ask: Result<axum::Json<Ask>, JsonRejection>,
    judge: bool,
) -> Result<Asked, Refusal> {
    let axum::Json(mut ask) = ask.map_err(|err| Refusal::new(err.status(), err.body_text()))?;
    let (config, shape) = options(&ask)?;
    let id = ask.id.take();
    let (texts, moves): (Vec<String>, Vec<String>) = match (judge, ask) {
        (
            false,
            Ask {
                board: Some(board),
                boards: None,
                moves: None,
                cases: None,
                ..
            },
        ) => (vec![board], Vec::new()),
        (
            false,
            Ask {
                board: None,
                boards: Some(boards),
                moves: None,
                cases: None,
                ..
            },
        ) => (boards, Vec::new()),
        (
            true,
            Ask {
                board: Some(board),
                moves: Some(moves),
                boards: None,
                cases: None,
                ..
            },
        ) => (vec![board], vec![moves]),
        (
            true,
            Ask {
                cases: Some(cases),
                board: None,
                moves: None,
                boards: None,
                ..
            },
        ) => cases
            .into_iter()
            .map(|case| (case.board, case.moves))
            .unzip(),
        (false, ask) if ask.moves.is_some() || ask.cases.is_some() => {
            return Err(Refusal::bad(
                "\"moves\" and \"cases\" are judged by /api/judge; give \"board\" or \"boards\" here",
            ));
        }
        (
            false,
            Ask {
                board: None,
                boards: None,
                ..
            },
        ) => {
            return Err(Refusal::bad(
                "give \"board\" (one board) or \"boards\" (a list)",
            ));
        }
        (false, _) => return Err(Refusal::bad("give \"board\" or \"boards\", not both")),
        (true, _) => {
            return Err(Refusal::bad(
                "give \"board\" and \"moves\", or \"cases\" of both",
            ));
        }
    };
    if texts.len() > MAX_BOARDS {
        return Err(Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("{} boards: at most {MAX_BOARDS} a request", texts.len()),
        ));
    }
    let layout = shape.map_or(Layout::Auto, Layout::Fixed);
    let mut boards = Vec::with_capacity(texts.len());
    for (index, text) in texts.iter().enumerate() {
        let board = Board::parse_in(layout, text.as_bytes()).map_err(|err| Refusal {
            index: Some(index),
            ..Refusal::bad(in_api(&err))
        })?;
        if let Some(goal) = config.goal
            && goal.shape() != board.shape()
        {
            return Err(Refusal {
                index: Some(index),
                ..Refusal::bad(format!(
                    "a {} board, but the goal is a {} board",
                    board.shape(),
                    goal.shape()
                ))
            });
        }
        boards.push(board);
    }
    // One line of moves each, spaced as given (a line break is a space,
    // never a line of its own); no moves at all, as Python takes them, `-`.
    let moves = moves
        .iter()
        .map(|moves| match moves.split_whitespace().collect::<Vec<_>>() {
            words if words.is_empty() => "-".to_string(),
            words => words.join(" "),
        })
        .collect();
    Ok(Asked {
        boards,
        moves,
        config,
        id,
    })
}
