//! `POST /api/random`: boards drawn as `eight --random` draws them, from
//! all that reach the goal, at an exact depth (on the search pool), or at
//! the end of a walk.

use std::sync::Arc;

use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use eight::random::Draw;
use eight::{Board, Metric, Shape};
use serde::Deserialize;
use serde_json::json;

use super::ask::{Ask, MAX_BOARDS, options};
use super::{Refusal, Server, unavailable};

/// `POST /api/random`'s request.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Draws {
    shape: Option<String>,
    goal: Option<String>,
    n: Option<usize>,
    /// A number, or its digits as a string: seeds are 64 bits, more than
    /// JavaScript's numbers hold exactly.
    seed: Option<Seed>,
    depth: Option<u32>,
    /// Boards at the end of a walk of this many moves, on any shape.
    walk: Option<u32>,
    metric: Option<String>,
}

/// A seed as a client sends it.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum Seed {
    Number(u64),
    Text(String),
}

/// `POST /api/random`: boards drawn as `eight --random` draws them, the
/// seed sent back as a string. A draw at a depth reads a whole table (a
/// 3x4 one: 45 s and 0.9 GB), so it takes a search's place in the pool and
/// its time limit, and holds no lock that answers wait on.
pub(super) async fn random(
    State(server): State<Arc<Server>>,
    draws: Result<axum::Json<Draws>, JsonRejection>,
) -> Result<Response, Refusal> {
    let axum::Json(draws) = draws.map_err(|err| Refusal::new(err.status(), err.body_text()))?;
    let ask = Ask {
        shape: draws.shape,
        goal: draws.goal,
        metric: draws.metric,
        ..Ask::default()
    };
    let (config, shape) = options(&ask)?;
    let goal = config
        .goal
        .unwrap_or_else(|| Board::goal(shape.unwrap_or(Shape::EIGHT)));
    let count = draws.n.unwrap_or(1);
    if count > MAX_BOARDS {
        return Err(Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("n={count}: at most {MAX_BOARDS} a request"),
        ));
    }
    let seed = match draws.seed {
        None => eight::random::Draw::seed(),
        Some(Seed::Number(seed)) => seed,
        Some(Seed::Text(text)) => text.trim().parse().map_err(|_| {
            Refusal::bad(format!(
                "seed {text:?}: a whole number from 0 to {}",
                u64::MAX
            ))
        })?,
    };
    let metric = config.style.metric;
    let drawn = |draw: Draw| draw.take(count).map(|board| board.to_string()).collect();
    let boards = match (draws.depth, draws.walk) {
        (None, None) => drawn(Draw::new(goal, seed)),
        (None, Some(walk)) => drawn(Draw::walk(goal, seed, walk)),
        (Some(depth), None) => server.draw_at(goal, metric, seed, depth, count).await?,
        (Some(_), Some(_)) => return Err(Refusal::bad("give \"depth\" or \"walk\", not both")),
    };
    let body = json!({
        "shape": goal.shape().to_string(),
        "goal": goal.to_string(),
        "seed": seed.to_string(),
        "boards": boards,
    });
    Ok(axum::Json(body).into_response())
}

impl Server {
    /// `count` boards `depth` moves from `goal`, on the search pool, within
    /// the search time limit.
    async fn draw_at(
        self: &Arc<Server>,
        goal: Board,
        metric: Metric,
        seed: u64,
        depth: u32,
        count: usize,
    ) -> Result<Vec<String>, Refusal> {
        let limit = self.search_limit;
        let late = || {
            Refusal::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "drawing boards at depth {depth} took longer than {} s",
                    limit.as_secs()
                ),
            )
        };
        let solver = {
            let mut solvers = self.solvers[&metric]
                .lock()
                .unwrap_or_else(|err| err.into_inner());
            // Data made since the last request is read.
            solvers.refresh();
            solvers.get_table(&goal).map_err(unavailable)?
        };
        let work = async {
            // The permit goes with the work, which runs to its end even when
            // its client no longer waits: at most a core's worth at once.
            let permit = Arc::clone(&self.searches)
                .acquire_owned()
                .await
                .map_err(|_| late())?;
            tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let draw = Draw::at_depth(goal, seed, depth, &solver)
                    .map_err(|err| Refusal::bad(format!("depth {depth}: {err}")))?;
                Ok(draw.take(count).map(|board| board.to_string()).collect())
            })
            .await
            .map_err(|err| Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()))?
        };
        tokio::time::timeout(limit, work)
            .await
            .map_err(|_| late())?
    }
}
