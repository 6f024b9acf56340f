//! `eight serve` over loopback: every endpoint answers as the program does,
//! every error is a 4xx or 503 with the program's message, and the bounds
//! hold.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use serde_json::{Value, json};

/// A server of its own, on a free port, stopped when dropped.
struct Server {
    child: Child,
    address: SocketAddr,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(cargo_bin("eight"))
            .arg("serve")
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .parse()
            .unwrap();
        Server { child, address }
    }

    /// The status and body of a request.
    fn call(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        self.raw(method, path, "application/json", body.as_bytes())
    }

    fn raw(&self, method: &str, path: &str, kind: &str, body: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(self.address).unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: eight\r\nConnection: close\r\n\
             Content-Type: {kind}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        // A server may answer before reading all of a body it refuses.
        let _ = stream.write_all(body);
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        let response = String::from_utf8_lossy(&response).into_owned();
        let status = response[9..12].parse().unwrap();
        let body = response
            .split_once("\r\n\r\n")
            .map_or(String::new(), |(_, body)| body.to_string());
        (status, body)
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, body) = self.call("POST", path, &body.to_string());
        (status, serde_json::from_str(&body).unwrap_or(Value::Null))
    }

    fn get(&self, path: &str) -> (u16, Value) {
        let (status, body) = self.call("GET", path, "");
        (status, serde_json::from_str(&body).unwrap_or(Value::Null))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The program's JSON answers of `input` with `args`, a value each.
fn program(args: &[&str], input: &str) -> Vec<Value> {
    let (out, _, _) = common::run(&[&["--json"], args].concat(), input);
    out.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Thousands of 3x3 boards, 4x4 boards, every built-in shape, both metrics:
/// the server's answers are the program's, object for object.
#[test]
fn answers_are_the_programs() {
    let server = Server::start(&[]);
    let mut rng = common::Rng(34);
    let boards: Vec<String> = (0..3000).map(|_| common::text(&rng.board(9))).collect();
    let fifteen = common::canonical(16, 15);
    let hard: Vec<String> = (0..6)
        .map(|_| common::text(&rng.scramble(4, &fifteen, 30)))
        .collect();
    for metric in ["stm", "mtm"] {
        for (path, args) in [("/api/solve", &[][..]), ("/api/length", &["--length"][..])] {
            for (boards, notation) in [(&boards, "blank"), (&hard, "tile-runs")] {
                let (status, body) = server.post(
                    path,
                    &json!({"boards": boards, "metric": metric, "notation": notation}),
                );
                assert_eq!(status, 200, "{path} {metric}: {body}");
                let input: String = boards.iter().map(|b| format!("{b}\n")).collect();
                let args = [args, &["--metric", metric, "--notation", notation]].concat();
                assert_eq!(body["answers"].as_array().unwrap(), &program(&args, &input));
            }
        }
    }
    for shape in ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3"] {
        let (_, drawn) = server.get(&format!("/api/random?shape={shape}&n=3&seed=5"));
        let boards: Vec<String> = serde_json::from_value(drawn["boards"].clone()).unwrap();
        let (cli, _, _) = common::run(&["--random", "3", "--seed", "5", "--shape", shape], "");
        assert_eq!(boards.join("\n") + "\n", cli, "{shape}");
        let (status, body) = server.post("/api/solve", &json!({"boards": boards}));
        assert_eq!(status, 200);
        let input = cli.clone();
        assert_eq!(body["answers"].as_array().unwrap(), &program(&[], &input));
    }
    // A goal of its own, and the judge.
    let goal = "8 7 6 5 4 3 2 1 x";
    let (_, body) = server.post(
        "/api/solve",
        &json!({"boards": &boards[..50], "goal": goal}),
    );
    let input: String = boards[..50].iter().map(|b| format!("{b}\n")).collect();
    assert_eq!(
        body["answers"].as_array().unwrap(),
        &program(&["--goal", goal], &input)
    );
    let cases = json!([
        {"board": "1 2 3 4 5 6 7 x 8", "moves": "r"},
        {"board": "1 2 3 4 5 6 7 x 8", "moves": "rlr"},
        {"board": "1 2 3 4 5 6 x 7 8", "moves": "rrr"},
        {"board": "1 2 3 4 5 6 x 7 8", "moves": "-"},
    ]);
    for metric in ["stm", "mtm"] {
        let (status, body) = server.post("/api/judge", &json!({"cases": cases, "metric": metric}));
        assert_eq!(status, 200, "{body}");
        let input = "1 2 3 4 5 6 7 x 8 r\n1 2 3 4 5 6 7 x 8 rlr\n1 2 3 4 5 6 x 7 8 rrr\n1 2 3 4 5 6 x 7 8 -\n";
        assert_eq!(
            body["answers"].as_array().unwrap(),
            &program(&["--judge", "--metric", metric], input)
        );
    }
    let (_, body) = server.post(
        "/api/judge",
        &json!({"board": "1 2 3 4 5 6 7 x 8", "moves": "r"}),
    );
    assert_eq!(body["answers"][0]["verdict"], "optimal");
    // Parsing, as the program reads and writes boards.
    let (_, body) = server.post(
        "/api/parse",
        &json!({"board": "1 2 3 4\n5 6 7 8\n9 10 x 11", "shape": "3x4"}),
    );
    assert_eq!(
        body,
        json!({"board": "1 2 3 4/5 6 7 8/9 10 x 11", "shape": "3x4", "goal": "1 2 3 4/5 6 7 8/9 10 11 x"})
    );
    let (_, body) = server.get("/api/shapes");
    assert_eq!(
        body["shapes"].as_array().unwrap().len(),
        eight::Shape::all().count()
    );
    let (status, page) = server.call("GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"page.js\">"));
}

/// Bad input is a 4xx with the program's message and the bad board's
/// index, never a 500, and never a board dropped.
#[test]
fn bad_requests_say_what_is_wrong_and_where() {
    let empty = tempfile::tempdir().unwrap();
    let server = Server::start(&["--data", empty.path().to_str().unwrap()]);
    let cases: Vec<(&str, Value, u16, &str)> = vec![
        (
            "/api/solve",
            json!({"boards": ["12345678x", "1 2 3", "12345678x"]}),
            422,
            "3 tiles",
        ),
        (
            "/api/solve",
            json!({"boards": ["12345678x", "1 1 3 4 5 6 7 8 x"]}),
            422,
            "written more than once",
        ),
        (
            "/api/solve",
            json!({"board": "12345678x", "goal": "1 2 3 4"}),
            422,
            "goal",
        ),
        (
            "/api/solve",
            json!({"boards": ["12345678x"], "goal": "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x"}),
            422,
            "4x4",
        ),
        (
            "/api/solve",
            json!({"board": "12345678x", "metric": "fast"}),
            422,
            "metric",
        ),
        (
            "/api/solve",
            json!({"board": "12345678x", "notation": "letters"}),
            422,
            "notation",
        ),
        (
            "/api/solve",
            json!({"board": "12345678x", "shape": "9x9"}),
            422,
            "shape",
        ),
        (
            "/api/solve",
            json!({"board": "12345678x", "boards": ["12345678x"]}),
            422,
            "not both",
        ),
        (
            "/api/solve",
            json!({"board": "12345678x", "extra": true}),
            422,
            "unknown field",
        ),
        ("/api/solve", json!({"board": 7}), 422, "invalid type"),
        (
            "/api/judge",
            json!({"board": "12345678x", "moves": "r r"}),
            422,
            "one word",
        ),
        (
            "/api/judge",
            json!({"board": "12345678x"}),
            422,
            "\"moves\"",
        ),
        (
            "/api/solve",
            json!({"board": "1 2 3 4 5 6 7 8 9 10 11 x", "shape": "3x4"}),
            503,
            "eight-gen --shape 3x4 --blank 11",
        ),
    ];
    for (path, body, status, message) in cases {
        let (got, answer) = server.post(path, &body);
        assert_eq!(got, status, "{body}: {answer}");
        let error = answer["error"].as_str().unwrap_or_default();
        assert!(
            error.contains(message) || answer.to_string().contains(message),
            "{body}: {answer}"
        );
    }
    let (_, answer) = server.post("/api/solve", &json!({"boards": ["12345678x", "1 2 3"]}));
    assert_eq!(answer["index"], 1);
    let (cli, _, _) = common::run(&["--json"], "12345678x\n1 1 3 4 5 6 7 8 x\n");
    let message: Value = serde_json::from_str(cli.lines().nth(1).unwrap()).unwrap();
    let (_, answer) = server.post(
        "/api/solve",
        &json!({"boards": ["12345678x", "1 1 3 4 5 6 7 8 x"]}),
    );
    assert_eq!(
        answer["error"], message["error"],
        "the program's own message"
    );
    // Not JSON, and bounds.
    let (status, _) = server.raw("POST", "/api/solve", "text/plain", b"12345678x");
    assert_eq!(status, 415);
    let (status, _) = server.call("POST", "/api/solve", "{\"board\":");
    assert_eq!(status, 400);
    let many = vec!["12345678x"; 10_001];
    let (status, answer) = server.post("/api/solve", &json!({"boards": many}));
    assert_eq!(status, 413, "{answer}");
    let huge = format!("{{\"board\": \"{}\"}}", "x".repeat(2 << 20));
    let (status, _) = server.call("POST", "/api/solve", &huge);
    assert_eq!(status, 413);
    let (status, answer) = server.get("/api/random?n=100000");
    assert_eq!(status, 413, "{answer}");
    let (status, answer) = server.get("/api/random?depth=40");
    assert_eq!(status, 422);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("farthest are 31")
    );
    let (status, _) = server.get("/api/random?n=many");
    assert_eq!(status, 400);
    let (status, _) = server.call("GET", "/nothing", "");
    assert_eq!(status, 404);
}

/// A search past the time limit is refused with 503 and its process
/// stopped; SIGTERM ends the server with exit 0 once it has answered the
/// request in flight.
#[test]
fn a_long_search_is_stopped_and_a_stop_waits_for_answers() {
    let empty = tempfile::tempdir().unwrap();
    let data = empty.path().to_str().unwrap();
    let server = Server::start(&["--search-seconds", "1", "--data", data]);
    // One of the 15-puzzle's farthest boards (80 single-tile moves), in the
    // multi-tile metric with no data made: well over a second.
    let hard = "x 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1";
    let started = Instant::now();
    let (status, answer) = server.post("/api/solve", &json!({"board": hard, "metric": "mtm"}));
    assert_eq!(status, 503, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("longer than 1 s")
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    // Its process is gone: no child of the server runs (one killed may
    // stay a moment as a zombie, running nothing, until it is reaped).
    let running = || {
        let tasks = std::fs::read_dir(format!("/proc/{}/task", server.child.id())).unwrap();
        tasks
            .flat_map(|task| {
                let children = std::fs::read_to_string(task.unwrap().path().join("children"));
                let children = children.unwrap_or_default();
                children
                    .split_whitespace()
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .filter(|child| {
                let stat = std::fs::read_to_string(format!("/proc/{child}/stat"));
                let state = stat.unwrap_or_default();
                let state = state.rsplit(')').next().unwrap_or("").trim_start();
                !state.starts_with('Z') && !state.is_empty()
            })
            .count()
    };
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(running(), 0, "no search left running");
    // A request in flight when SIGTERM comes is answered, then exit 0.
    let address = server.address;
    let slow = std::thread::spawn(move || {
        let client = Server {
            child: Command::new("true").spawn().unwrap(),
            address,
        };
        client.post(
            "/api/solve",
            &json!({"board": "1 2 3 4 5 6 7 8 9 10 11 12 x 13 14 15"}),
        )
    });
    std::thread::sleep(Duration::from_millis(100));
    let mut server = server;
    // SAFETY: kill only sends a signal to the server's own process.
    unsafe { libc::kill(server.child.id() as i32, libc::SIGTERM) };
    let (status, answer) = slow.join().unwrap();
    assert_eq!(
        (status, answer["answers"][0]["moves"].as_str()),
        (200, Some("rrr"))
    );
    let code = server.child.wait().unwrap();
    assert_eq!(code.code(), Some(0));
}

/// The README's `curl` examples, against a server: each output as shown.
#[test]
fn the_readmes_api_examples_are_true() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme.split("## The page").nth(1).unwrap();
    let block = section.split("```sh\n").nth(1).unwrap();
    let block = block.split("```").next().unwrap();
    let server = Server::start(&[]);
    let mut examples = 0;
    for example in block.split("$ curl -s ").skip(1) {
        let (command, expected) = example.split_once('\n').unwrap();
        let url = command
            .split_whitespace()
            .next()
            .unwrap()
            .trim_matches('\'');
        let path = &url[url.find('/').unwrap()..];
        let (status, body) = match command.split_once(" -d '") {
            Some((_, data)) => server.call("POST", path, data.trim_end_matches('\'')),
            None => server.call("GET", path, ""),
        };
        assert!(status == 200 || body.contains("\"error\""), "{command}");
        assert_eq!(body, expected.trim_end(), "{command}");
        examples += 1;
    }
    assert_eq!(examples, 4);
}

/// A search named by its request is stopped by `/api/cancel`: its request
/// is answered 409 at once, and no process is left running.
#[test]
fn a_named_search_is_cancelled_on_request() {
    let empty = tempfile::tempdir().unwrap();
    let server = Server::start(&["--data", empty.path().to_str().unwrap()]);
    let address = server.address;
    let started = Instant::now();
    let search = std::thread::spawn(move || {
        let client = Server {
            child: Command::new("true").spawn().unwrap(),
            address,
        };
        let hard = "x 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1";
        client.post(
            "/api/solve",
            &json!({"board": hard, "metric": "mtm", "id": "mine"}),
        )
    });
    std::thread::sleep(Duration::from_millis(500));
    let (status, answer) = server.post("/api/cancel", &json!({"id": "mine"}));
    assert_eq!((status, &answer), (200, &json!({"cancelled": true})));
    let (status, answer) = search.join().unwrap();
    assert_eq!(status, 409, "{answer}");
    assert!(started.elapsed() < Duration::from_secs(10));
    let (_, answer) = server.post("/api/cancel", &json!({"id": "mine"}));
    assert_eq!(answer, json!({"cancelled": false}), "gone once stopped");
}
