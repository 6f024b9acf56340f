//! `eight serve`: a page to play, watch and check answers, and the JSON API
//! it calls, over the same solvers and data as the program.
//!
//! Every board is answered in the server, from solvers loaded once and
//! shared. Boards that are searched (IDA*, for shapes of 13 to 25 cells and
//! the multi-tile metric without a table) take one of a pool of permits, one
//! a core, and a [`Stop`] that is asked for past the time limit, on
//! `/api/cancel` with the `id` the request gave (queued or running), or when
//! the request is dropped (its client gone): nothing is left running for a
//! client that gave up.
//!
//! What bounds the connections, and which pages may call the API, is in
//! [`http`].

mod ahead;
mod ask;
mod http;
mod random;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::stream::{self, Quiet};
use anyhow::{Context, Result};
use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use eight::data::{self, DataDir, Method};
use eight::{Board, Metric, Shape, Stop};
use eight::{Options, Solvers};
use serde_json::json;
use tokio::sync::Semaphore;

/// Serves a page to play, watch and check answers, and its JSON API, on
/// loopback unless told otherwise; only requests that name it by an IP
/// address or localhost, from its own page, are answered. Ctrl-C or SIGTERM
/// stops it once the requests in flight are answered, within 3 s.
#[derive(clap::Parser, Debug)]
#[command(name = "eight serve", version)]
pub struct ServeArgs {
    /// The address to listen on; 127.0.0.1:0 takes a free port. Anything
    /// but loopback lets other machines in.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8088")]
    listen: SocketAddr,
    /// Open the page in the desktop's browser once listening.
    #[arg(long)]
    open: bool,
    /// The data folder, instead of $EIGHT_DATA or the user's data folder.
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// The longest a search may take before it is stopped, in seconds (at
    /// least 1).
    #[arg(long, value_name = "SECONDS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    search_seconds: u64,
}

use ask::{Ask, Asked, read};
use http::MAX_BODY;

/// What every request shares.
struct Server {
    /// The solvers of tables, per metric, loaded once.
    solvers: HashMap<Metric, Mutex<Solvers>>,
    data: Option<PathBuf>,
    /// One permit a search running (or a costly draw).
    searches: Arc<Semaphore>,
    search_limit: Duration,
    /// The searches running that a client named, to stop on its word.
    named: Mutex<HashMap<String, (Arc<tokio::sync::Notify>, Stop)>>,
    /// The distances searched ahead of a player.
    ahead: ahead::Ahead,
}

/// Runs the server until SIGINT or SIGTERM; exit code 0 once the requests
/// in flight are answered.
pub fn run(args: Vec<std::ffi::OsString>) -> Result<u8> {
    let args = match crate::args::parse::<ServeArgs>("eight serve", args) {
        Ok(args) => args,
        Err(code) => return Ok(code),
    };
    let dir = match &args.data {
        Some(path) => DataDir::at(path).usable(),
        None => DataDir::locate(),
    };
    let solvers = [Metric::Stm, Metric::Mtm]
        .into_iter()
        .map(|metric| {
            let options = Options::new().with_data(dir.clone()).with_metric(metric);
            let solvers = Solvers::new(options);
            (metric, Mutex::new(solvers))
        })
        .collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let server = Arc::new(Server {
        solvers,
        data: args.data.clone(),
        searches: Arc::new(Semaphore::new(cores)),
        search_limit: Duration::from_secs(args.search_seconds),
        named: Mutex::new(HashMap::new()),
        ahead: ahead::Ahead::default(),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cores)
        .enable_all()
        .build()
        .context("cannot start the server")?;
    runtime.block_on(serve(server, args))?;
    // Work still running on other threads (a table walk, a draw) is not
    // waited for: the server has stopped.
    runtime.shutdown_background();
    Ok(crate::ANSWERED)
}

async fn serve(server: Arc<Server>, args: ServeArgs) -> Result<()> {
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    let address = listener.local_addr().context("cannot listen")?;
    let url = format!("http://{address}/");
    crate::args::say(&format!("eight: serving {url} (Ctrl-C stops)"));
    if args.open {
        let opened = std::process::Command::new("xdg-open")
            .arg(&url)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if opened.is_err() {
            crate::args::say("eight: cannot open a browser: open the address above");
        }
    }
    http::serve(listener, app(server))
        .await
        .context("the server failed")
}

/// The page and the API.
fn app(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(|| async { page("text/html", whole_page()) }))
        .route("/api/shapes", get(shapes))
        .route("/api/parse", post(parse))
        .route("/api/solve", post(solve))
        .route("/api/length", post(length))
        .route("/api/judge", post(judge))
        .route("/api/analyse", post(analyse))
        .route("/api/random", post(random::random))
        .route("/api/cancel", post(cancel))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(server)
}

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/page.js");
const STYLE: &str = include_str!("page/page.css");

/// The page with its style sheet and script written into it: one
/// response draws it (a fresh browser paints it sooner than after asking
/// for the two files), while the three stay apart in the source.
fn whole_page() -> &'static str {
    static WHOLE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    WHOLE.get_or_init(|| {
        let sheet = "<link rel=\"stylesheet\" href=\"page.css\">";
        let script = "<script src=\"page.js\"></script>";
        assert!(
            PAGE.contains(sheet) && PAGE.contains(script),
            "the page links its style sheet and script"
        );
        PAGE.replacen(sheet, &format!("<style>\n{STYLE}</style>"), 1)
            .replacen(script, &format!("<script>\n{SCRIPT}</script>"), 1)
    })
}

fn page(kind: &'static str, text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], text).into_response()
}

/// A refusal: its status, and a JSON body with the message and, for a bad
/// board, its index.
struct Refusal {
    status: StatusCode,
    error: String,
    index: Option<usize>,
}

impl Refusal {
    fn new(status: StatusCode, error: impl Into<String>) -> Refusal {
        Refusal {
            status,
            error: error.into(),
            index: None,
        }
    }

    fn bad(error: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::UNPROCESSABLE_ENTITY, error)
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let body = match self.index {
            Some(index) => json!({"error": self.error, "index": index}),
            None => json!({"error": self.error}),
        };
        (self.status, axum::Json(body)).into_response()
    }
}

/// The program's JSON answers, a line each, as a JSON array under
/// `answers`.
fn answers(lines: &[u8]) -> Response {
    let mut body = Vec::with_capacity(lines.len() + 16);
    body.extend_from_slice(b"{\"answers\":[");
    for (at, line) in lines
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .enumerate()
    {
        if at > 0 {
            body.push(b',');
        }
        body.extend_from_slice(line);
    }
    body.extend_from_slice(b"]}");
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

async fn solve(
    State(server): State<Arc<Server>>,
    ask: Result<axum::Json<Ask>, JsonRejection>,
) -> Result<Response, Refusal> {
    let asked = read(ask, false)?;
    server.answer(asked).await
}

async fn length(
    State(server): State<Arc<Server>>,
    ask: Result<axum::Json<Ask>, JsonRejection>,
) -> Result<Response, Refusal> {
    let mut asked = read(ask, false)?;
    asked.config.style.length = true;
    // One board's distance is a player's: the boards one move on are
    // searched next, while the player thinks.
    let metric = asked.config.style.metric;
    let one = match asked.boards.as_slice() {
        [board] => Some((*board, asked.goal_of(board))),
        _ => None,
    };
    let searched = server.searched(&asked);
    let answered = server.answer_as(asked, searched).await?;
    if let Some((board, goal)) = one
        && searched
    {
        ahead::search_beside(&server, board, goal, metric);
        if metric == Metric::Mtm {
            ahead::strengthen(&server, goal);
        }
    }
    Ok(answered)
}

async fn judge(
    State(server): State<Arc<Server>>,
    ask: Result<axum::Json<Ask>, JsonRejection>,
) -> Result<Response, Refusal> {
    let mut asked = read(ask, true)?;
    asked.config.judge = true;
    server.answer(asked).await
}

async fn analyse(
    State(server): State<Arc<Server>>,
    ask: Result<axum::Json<Ask>, JsonRejection>,
) -> Result<Response, Refusal> {
    let mut asked = read(ask, true)?;
    asked.config.judge = true;
    asked.config.style.analyse = true;
    server.answer(asked).await
}

impl Server {
    /// Answers the boards asked, as the program's JSON: from the tables
    /// here, or by a search of its own.
    async fn answer(self: &Arc<Server>, asked: Asked) -> Result<Response, Refusal> {
        let searched = self.searched(&asked);
        self.answer_as(asked, searched).await
    }

    /// Whether some board asked is searched, not walked in a table.
    fn searched(&self, asked: &Asked) -> bool {
        let metric = asked.config.style.metric;
        let goals: Vec<Board> = {
            let mut goals: Vec<Board> = asked
                .boards
                .iter()
                .map(|board| asked.goal_of(board))
                .collect();
            goals.sort_unstable_by_key(|goal| (goal.shape().cells(), goal.blank()));
            goals.dedup();
            goals
        };
        let mut searched = false;
        for goal in &goals {
            searched |= self.searches(goal, metric);
        }
        searched
    }

    /// [`Server::answer`], the boards `searched` or not.
    async fn answer_as(
        self: &Arc<Server>,
        asked: Asked,
        searched: bool,
    ) -> Result<Response, Refusal> {
        if searched {
            return self.search(asked).await;
        }
        let server = Arc::clone(self);
        tokio::task::spawn_blocking(move || server.answer_here(asked))
            .await
            .map_err(|err| Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()))?
    }

    /// Whether boards toward `goal` are searched, not walked in a table;
    /// its solver loaded and kept (a search's databases built in memory
    /// serve every later request).
    fn searches(&self, goal: &Board, metric: Metric) -> bool {
        let mut solvers = self.solvers[&metric]
            .lock()
            .unwrap_or_else(|err| err.into_inner());
        solvers.refresh();
        // Data that cannot be had is told board by board, in the answers.
        match solvers.get(goal) {
            Ok(solver) => solver.searches(),
            Err(_) => Method::of(goal.shape()) == Method::Search,
        }
    }

    /// Answers the boards asked from the tables here.
    fn answer_here(&self, asked: Asked) -> Result<Response, Refusal> {
        let metric = asked.config.style.metric;
        let mut solvers = self.solvers[&metric]
            .lock()
            .unwrap_or_else(|err| err.into_inner());
        answer_with(&asked, &mut solvers)
    }

    /// Answers the boards asked by searches here, on one of the pool's
    /// permits, stopped at the time limit, on `/api/cancel`, or when the
    /// client goes away.
    async fn search(&self, asked: Asked) -> Result<Response, Refusal> {
        let limit = self.search_limit;
        let busy = || {
            Refusal::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "every core is searching, and none was free within {} s: try again later",
                    limit.as_secs()
                ),
            )
        };
        let cancelled = || Refusal::new(StatusCode::CONFLICT, "the search was cancelled");
        // Named while it waits too, so that a queued search can be
        // cancelled.
        let stop = Stop::new();
        let named = self.name(asked.id.clone(), &stop);
        let told = async {
            match &named {
                Some(named) => named.notify.notified().await,
                None => std::future::pending().await,
            }
        };
        tokio::pin!(told);
        // The search asked goes before the work ahead, unless that work
        // searches its one board now: that search goes on and is waited
        // for (it ends within the limit), and the distance it keeps
        // answers.
        if let ([board], true) = (asked.boards.as_slice(), asked.config.style.length) {
            let metric = asked.config.style.metric;
            tokio::select! {
                () = self.ahead.finish(*board, asked.goal_of(board), metric) => {}
                () = &mut told => return Err(cancelled()),
            }
        }
        self.ahead.stop();
        let permit = tokio::select! {
            permit = tokio::time::timeout(limit, Arc::clone(&self.searches).acquire_owned()) => {
                permit.map_err(|_| busy())?.map_err(|_| busy())?
            }
            () = &mut told => return Err(cancelled()),
        };
        // The search stops at the limit, and when this request is
        // dropped (its client gone) or answered.
        let stop = stop.after(limit);
        let _ends = StopOnDrop(stop.clone());
        let mut solvers = {
            let metric = asked.config.style.metric;
            let solvers = self.solvers[&metric]
                .lock()
                .unwrap_or_else(|err| err.into_inner());
            solvers.stopping(&stop)
        };
        let running = stop.clone();
        let search = tokio::task::spawn_blocking(move || {
            // The permit is the search's until it ends.
            let _permit = permit;
            let answered = answer_with(&asked, &mut solvers);
            match running.is_stopped() {
                true => None,
                false => Some(answered),
            }
        });
        tokio::select! {
            searched = search => match searched {
                Ok(Some(answered)) => answered,
                Ok(None) if stop.was_asked() => Err(cancelled()),
                Ok(None) => Err(Refusal::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "the search took longer than {} s, and was stopped",
                        limit.as_secs()
                    ),
                )),
                Err(err) => Err(Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string())),
            },
            () = &mut told => Err(cancelled()),
        }
    }
}

/// Stops a search when dropped.
struct StopOnDrop(Stop);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Answers the boards asked with `solvers`, as the program's JSON.
fn answer_with(asked: &Asked, solvers: &mut Solvers) -> Result<Response, Refusal> {
    let done = match asked.config.judge {
        false => stream::answer_boards(&asked.boards, asked.config.clone(), solvers, &Quiet),
        true => stream::answer_text(judge_lines(asked), asked.config.clone(), solvers, &Quiet),
    };
    let done = done.map_err(unavailable)?;
    Ok(answers(&done.text))
}

impl Server {
    /// Names a search `id` until the name is dropped.
    fn name(&self, id: Option<String>, stop: &Stop) -> Option<Named<'_>> {
        let id = id?;
        let notify = Arc::new(tokio::sync::Notify::new());
        let mut named = self.named.lock().unwrap_or_else(|err| err.into_inner());
        named.insert(id.clone(), (Arc::clone(&notify), stop.clone()));
        Some(Named {
            server: self,
            id,
            notify,
        })
    }
}

/// A search's name, known while it runs.
struct Named<'a> {
    server: &'a Server,
    id: String,
    notify: Arc<tokio::sync::Notify>,
}

impl Drop for Named<'_> {
    fn drop(&mut self) {
        let mut named = self
            .server
            .named
            .lock()
            .unwrap_or_else(|err| err.into_inner());
        if named
            .get(&self.id)
            .is_some_and(|(n, _)| Arc::ptr_eq(n, &self.notify))
        {
            named.remove(&self.id);
        }
    }
}

/// `POST /api/cancel`: stops the search named `id`, if it runs: its
/// request is answered 409. A client that goes away without it leaves its
/// search to its time limit.
async fn cancel(
    State(server): State<Arc<Server>>,
    ask: Result<axum::Json<Ask>, JsonRejection>,
) -> Result<Response, Refusal> {
    let axum::Json(ask) = ask.map_err(|err| Refusal::new(err.status(), err.body_text()))?;
    let id = ask
        .id
        .ok_or_else(|| Refusal::bad("give the \"id\" of the search"))?;
    let named = server.named.lock().unwrap_or_else(|err| err.into_inner());
    let found = named
        .get(&id)
        .inspect(|(notify, stop)| {
            stop.stop();
            notify.notify_one();
        })
        .is_some();
    Ok(axum::Json(json!({ "cancelled": found })).into_response())
}

/// The program's `--judge` input for the boards and moves asked.
fn judge_lines(asked: &Asked) -> Vec<u8> {
    asked
        .boards
        .iter()
        .zip(&asked.moves)
        .flat_map(|(board, moves)| format!("{board} {moves}\n").into_bytes())
        .collect()
}

/// Data that cannot be used: the server cannot answer, and says why.
fn unavailable(err: impl std::fmt::Display) -> Refusal {
    Refusal::new(StatusCode::SERVICE_UNAVAILABLE, err.to_string())
}

/// `GET /api/shapes`: every shape, how it is answered, and what answers
/// it here in each metric (`answered`, `answered_mtm`).
async fn shapes(State(server): State<Arc<Server>>) -> Response {
    let data = server.data.clone();
    let list = tokio::task::spawn_blocking(move || {
        let dir = match &data {
            Some(path) => DataDir::at(path).usable(),
            None => DataDir::locate(),
        };
        Shape::all()
            .map(|shape| {
                let goal = Board::goal(shape);
                let answered = |metric| match (data::DataFile::is_builtin(shape), &dir) {
                    // As `eight --where` says it.
                    (true, _) => match eight::Solver::builtin_for(shape, goal.blank(), metric) {
                        Some(Ok(solver)) => solver.describe(),
                        Some(Err(err)) => err.to_string(),
                        None => unreachable!("a shape whose data is built in"),
                    },
                    (false, Err(err)) => err.to_string(),
                    (false, Ok(dir)) => {
                        let options = Options::new()
                            .with_data(Ok(dir.clone()))
                            .with_metric(metric);
                        eight::Solver::describe_data(&goal, &options)
                            .unwrap_or_else(|err| err.to_string())
                    }
                };
                json!({
                    "shape": shape.to_string(),
                    "rows": shape.rows(),
                    "cols": shape.cols(),
                    "method": match Method::of(shape) {
                        Method::Table => "table",
                        Method::Search => "search",
                    },
                    "answered": answered(Metric::Stm),
                    "answered_mtm": answered(Metric::Mtm),
                })
            })
            .collect::<Vec<_>>()
    })
    .await
    .unwrap_or_default();
    axum::Json(json!({ "shapes": list })).into_response()
}

/// `POST /api/parse`: a board as the program reads it (`board`, with
/// `shape` or `goal` if given), written back as the program writes it, and
/// its shape.
async fn parse(ask: Result<axum::Json<Ask>, JsonRejection>) -> Result<Response, Refusal> {
    let asked = read(ask, false)?;
    let [board] = asked.boards[..] else {
        return Err(Refusal::bad("give one \"board\""));
    };
    let body = json!({
        "board": board.to_string(),
        "shape": board.shape().to_string(),
        "goal": asked.goal_of(&board).to_string(),
    });
    Ok(axum::Json(body).into_response())
}
