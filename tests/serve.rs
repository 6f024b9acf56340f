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
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
             Content-Type: {kind}\r\nContent-Length: {}\r\n\r\n",
            self.address,
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

    /// `POST /api/random` with `body`.
    fn random(&self, body: &Value) -> (u16, Value) {
        self.post("/api/random", body)
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

/// The processes `pid` started, from any of its threads.
fn children(pid: u32) -> Vec<String> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).unwrap();
    tasks
        .flat_map(|task| {
            let children = std::fs::read_to_string(task.unwrap().path().join("children"));
            let children = children.unwrap_or_default();
            children
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The CPU time the server has used so far, in clock ticks (user and
/// system, every thread).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    // utime and stime, fields 14 and 15 of the whole line.
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// Whether the server stopped searching: over a second, it uses less than
/// half a core (a search uses every core).
fn idle(pid: u32) -> bool {
    let ticks = 100; // USER_HZ on Linux
    let before = cpu_ticks(pid);
    std::thread::sleep(Duration::from_secs(1));
    cpu_ticks(pid) - before < ticks / 2
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
        let (_, drawn) = server.random(&json!({"shape": shape, "n": 3, "seed": 5}));
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
    // One response: the style sheet and the script are in the page.
    assert!(page.contains("<style>") && page.contains("function start()"));
    assert!(!page.contains("src=\"page.js\"") && !page.contains("href=\"page.css\""));
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
            "grid cut short",
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
        // The shape is named as the request names it.
        (
            "/api/solve",
            json!({"board": "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 x"}),
            422,
            "20 tiles on one line: a board is 9 tiles (3x3), 16 (4x4) or 25 (5x5), a row a \
             line, or rows joined by '/'; else \"shape\"",
        ),
        (
            "/api/solve",
            json!({"board": "1 2 3 4 5 6 7 8 9 10 11 x", "goal": "1 2 3 4 5 6 7 8 9 10 11 x"}),
            422,
            "else \"shape\"",
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
            200,
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
    let (status, answer) = server.random(&json!({"n": 100000}));
    assert_eq!(status, 413, "{answer}");
    let (status, answer) = server.random(&json!({"depth": 40}));
    assert_eq!(status, 422);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("farthest are 31")
    );
    let (status, _) = server.random(&json!({"n": "many"}));
    assert_eq!(status, 422);
    // Draws cost work: a GET, which any page can fire with <img src>, is
    // refused.
    let (status, _) = server.get("/api/random?depth=40");
    assert_eq!(status, 405);
    let (status, _) = server.call("GET", "/nothing", "");
    assert_eq!(status, 404);
}

/// The page asks the distance of each board a player reaches; the server
/// searches the boards one move on while the player thinks; a request for
/// the board that work is searching (the first step, asked at once) waits
/// for it, and any other stops it, wherever it is. Every distance is still
/// the program's.
#[test]
fn distances_searched_ahead_of_a_player_are_the_programs() {
    let empty = tempfile::tempdir().unwrap();
    let server = Server::start(&["--data", empty.path().to_str().unwrap()]);
    let fifteen = common::canonical(16, 15);
    let mut rng = common::Rng(52);
    for metric in ["mtm", "stm"] {
        let start = rng.scramble(4, &fifteen, 300);
        // The boards one move on: a step, or in the multi-tile metric a
        // run of steps one way; each asked at once, then after a wait.
        let mut beside = Vec::new();
        for letter in ["d", "l", "r", "u"] {
            let mut at = start.clone();
            while let Some(next) = common::step(4, &at, letter.chars().next().unwrap()) {
                beside.push(next.clone());
                at = next;
                if metric == "stm" {
                    break;
                }
            }
        }
        let texts: Vec<String> = std::iter::once(&start)
            .chain(&beside)
            .map(|cells| common::text(cells))
            .collect();
        let input: String = texts.iter().map(|t| format!("{t}\n")).collect();
        let expected = program(&["--length", "--metric", metric], &input);
        for (i, text) in texts.iter().enumerate() {
            if i % 2 == 0 {
                std::thread::sleep(Duration::from_millis(50));
            }
            let (status, body) =
                server.post("/api/length", &json!({"board": text, "metric": metric}));
            assert_eq!(status, 200, "{body}");
            assert_eq!(
                body["answers"][0]["length"], expected[i]["length"],
                "{metric} {text}"
            );
        }
    }
}

/// A search past the time limit is refused with 503 and stopped, in the
/// server's own process; SIGTERM ends the server with exit 0 once it has answered the
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
    assert!(children(server.child.id()).is_empty(), "no child process");
    assert!(idle(server.child.id()), "no search left running");
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
    assert_eq!(examples, 3);
}

/// A search named by its request is stopped by `/api/cancel`: its request
/// is answered 409 at once, and nothing is left searching.
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
    assert!(children(server.child.id()).is_empty(), "no child process");
    let (status, answer) = server.post("/api/cancel", &json!({"id": "mine"}));
    assert_eq!((status, &answer), (200, &json!({"cancelled": true})));
    let (status, answer) = search.join().unwrap();
    assert_eq!(status, 409, "{answer}");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(idle(server.child.id()), "no search left running");
    let (_, answer) = server.post("/api/cancel", &json!({"id": "mine"}));
    assert_eq!(answer, json!({"cancelled": false}), "gone once stopped");
}

/// The server's resident memory, in kB.
fn resident_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// A request sent by hand: its head, with `host` and `extra` lines.
fn head(path: &str, host: &str, extra: &str, length: usize) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Content-Type: application/json\r\n\
         Content-Length: {length}\r\nConnection: close\r\n\r\n"
    )
}

/// The status of the response to `request`, sent whole.
fn status_of(address: SocketAddr, request: &str) -> u16 {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response.get(9..12).map_or(0, |code| code.parse().unwrap())
}

/// A page of another site, or one whose name was rebound to 127.0.0.1,
/// gets 403 from every path; the server's own names and page are answered.
#[test]
fn only_the_servers_own_host_and_origin_are_answered() {
    let server = Server::start(&[]);
    let port = server.address.port();
    let body = r#"{"board": "1 2 3 4 5 6 7 x 8"}"#;
    let ask = |host: &str, origin: Option<&str>| {
        let extra = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
        status_of(
            server.address,
            &(head("/api/solve", host, &extra, body.len()) + body),
        )
    };
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        "127.0.0.1".to_string(),
    ] {
        assert_eq!(ask(&host, None), 200, "{host}");
        assert_eq!(ask(&host, Some(&format!("http://{host}"))), 200, "{host}");
    }
    let ours = format!("127.0.0.1:{port}");
    for (host, origin) in [
        ("evil.example".to_string(), None),
        (
            format!("evil.example:{port}"),
            Some(format!("http://evil.example:{port}")),
        ),
        (ours.clone(), Some("http://evil.example".to_string())),
        (ours.clone(), Some("null".to_string())),
        (ours.clone(), Some(format!("https://{ours}"))),
    ] {
        assert_eq!(ask(&host, origin.as_deref()), 403, "{host} {origin:?}");
    }
    let mut stream = TcpStream::connect(server.address).unwrap();
    stream
        .write_all(
            b"GET /api/shapes HTTP/1.1\r\nHost: rebound.example\r\nConnection: close\r\n\r\n",
        )
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 403"), "{response}");
    assert!(!response.contains("shapes"), "nothing of the API leaks");
}

/// Clients that trickle their headers or body are cut off; hundreds of
/// connections holding unfinished 1 MB bodies keep the server's memory
/// within its cap; SIGTERM ends it within its deadline whatever the
/// clients do.
#[test]
fn slow_and_many_clients_are_bounded_and_a_stop_does_not_wait_for_them() {
    let mut server = Server::start(&[]);
    let address = server.address;
    let host = address.to_string();
    // Headers a byte a second: closed within the 10 s allowed.
    let trickle = |body: bool| {
        let host = host.clone();
        std::thread::spawn(move || {
            let mut stream = TcpStream::connect(address).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(30)))
                .unwrap();
            let started = Instant::now();
            let mut sent = match body {
                true => head("/api/solve", &host, "", 100),
                false => "POST /api/solve HTTP/1.1\r\n".to_string(),
            };
            stream.write_all(sent.as_bytes()).unwrap();
            while started.elapsed() < Duration::from_secs(25) {
                std::thread::sleep(Duration::from_millis(500));
                sent.clear();
                if stream.write_all(b"X").is_err() {
                    break;
                }
                let mut byte = [0; 1];
                stream.set_nonblocking(true).unwrap();
                let read = stream.read(&mut byte);
                stream.set_nonblocking(false).unwrap();
                if read.is_ok() {
                    break;
                }
            }
            started.elapsed()
        })
    };
    let (headers, body) = (trickle(false), trickle(true));
    // 300 connections each holding 1 MB less a byte of a 1 MB body.
    let before = resident_kb(server.child.id());
    let held: Vec<TcpStream> = (0..300)
        .filter_map(|_| {
            let mut stream = TcpStream::connect(address).ok()?;
            stream
                .set_write_timeout(Some(Duration::from_millis(200)))
                .unwrap();
            let _ = stream.write_all(head("/api/solve", &host, "", 1 << 20).as_bytes());
            let _ = stream.write_all(&vec![b' '; (1 << 20) - 1]);
            Some(stream)
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let during = resident_kb(server.child.id());
    assert!(
        during < before + 160_000,
        "{before} kB before, {during} kB with {} connections held",
        held.len()
    );
    assert!(headers.join().unwrap() < Duration::from_secs(20));
    assert!(body.join().unwrap() < Duration::from_secs(20));
    // A client still trickling when SIGTERM comes does not hold the server.
    let _late = trickle(true);
    std::thread::sleep(Duration::from_millis(300));
    let stopping = Instant::now();
    // SAFETY: kill only sends a signal to the server's own process.
    unsafe { libc::kill(server.child.id() as i32, libc::SIGTERM) };
    let code = server.child.wait().unwrap();
    assert_eq!(code.code(), Some(0));
    assert!(
        stopping.elapsed() < Duration::from_secs(5),
        "{:?}",
        stopping.elapsed()
    );
    drop(held);
}

/// A search waiting for a core is cancelled by its name, at once, and so
/// are those running; none runs in a process of its own.
#[test]
fn queued_and_running_searches_are_cancelled() {
    let empty = tempfile::tempdir().unwrap();
    let server = Server::start(&["--data", empty.path().to_str().unwrap()]);
    let address = server.address;
    let hard = "x 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1";
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let search = |id: String| {
        std::thread::spawn(move || {
            let client = Server {
                child: Command::new("true").spawn().unwrap(),
                address,
            };
            client.post(
                "/api/solve",
                &json!({"board": hard, "metric": "mtm", "id": id}),
            )
        })
    };
    // Every core busy, then one more, which waits.
    let running: Vec<_> = (0..cores)
        .map(|core| search(format!("run{core}")))
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let queued = search("queued".to_string());
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let (status, answer) = server.post("/api/cancel", &json!({"id": "queued"}));
    assert_eq!((status, &answer), (200, &json!({"cancelled": true})));
    let (status, answer) = queued.join().unwrap();
    assert_eq!(status, 409, "{answer}");
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(children(server.child.id()).is_empty(), "no child process");
    for core in 0..cores {
        let (_, answer) = server.post("/api/cancel", &json!({"id": format!("run{core}")}));
        assert_eq!(answer, json!({"cancelled": true}));
    }
    for search in running {
        let (status, answer) = search.join().unwrap();
        assert_eq!(status, 409, "{answer}");
    }
    assert!(idle(server.child.id()), "no search left running");
}

/// Seeds travel as strings: a 64-bit seed comes back as it was sent, and
/// draws the program's boards.
#[test]
fn seeds_keep_every_digit() {
    let server = Server::start(&[]);
    let seed = "51602804280765728";
    let (status, drawn) = server.random(&json!({"n": 2, "seed": seed}));
    assert_eq!(status, 200, "{drawn}");
    assert_eq!(drawn["seed"], json!(seed));
    let (cli, _, _) = common::run(&["--random", "2", "--seed", seed], "");
    let boards: Vec<String> = serde_json::from_value(drawn["boards"].clone()).unwrap();
    assert_eq!(boards.join("\n") + "\n", cli);
    let (status, _) = server.random(&json!({"seed": "-1"}));
    assert_eq!(status, 422);
    // Near the goal on a searched shape: the program's walk.
    let (status, drawn) = server.random(&json!({"shape": "5x5", "n": 3, "seed": "2", "walk": 15}));
    assert_eq!(status, 200, "{drawn}");
    let boards: Vec<String> = serde_json::from_value(drawn["boards"].clone()).unwrap();
    let args = [
        "--random", "3", "--seed", "2", "--walk", "15", "--shape", "5x5",
    ];
    let (cli, _, _) = common::run(&args, "");
    assert_eq!(boards.join("\n") + "\n", cli);
    let (status, _) = server.random(&json!({"depth": 3, "walk": 3}));
    assert_eq!(status, 422);
}

/// Data made while the server runs is read by the next request: a draw at
/// a depth that wanted a table made since.
#[test]
fn data_made_while_serving_is_read_by_the_next_request() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let server = Server::start(&["--data", data]);
    let ask = json!({"shape": "2x5", "metric": "mtm", "depth": 5, "n": 2, "seed": 1});
    let (status, answer) = server.random(&ask);
    assert_eq!(status, 503, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("2x5-mtm-blank9.table")
    );
    common::eight_gen()
        .args([
            "--quiet", "--metric", "mtm", "--shape", "2x5", "--out", data,
        ])
        .assert()
        .success();
    let (status, answer) = server.random(&ask);
    assert_eq!(status, 200, "{answer}");
}

/// Moves in any notation the program or the page writes are judged alike:
/// blank letters, tile letters with counts, spaced or not; a line break in
/// the moves is a space, never a line of its own; no moves, as `-`.
#[test]
fn moves_are_judged_in_every_notation() {
    let server = Server::start(&[]);
    let board = "2 3 4 1 5 x 7 6 8";
    for moves in [
        "dlurullddrurdllurdr",
        "URDLDR2U2LDLUR2DLUL",
        "U R D L D R2 U2 L D L U R2 D L U L",
        "d l u r u l l d d r u r d l l u r d r",
        "URDLDR2U2LDLUR2\nDLUL",
    ] {
        let (status, body) = server.post("/api/judge", &json!({"board": board, "moves": moves}));
        assert_eq!(status, 200, "{moves}: {body}");
        assert_eq!(body["answers"][0]["verdict"], "optimal", "{moves}: {body}");
        assert_eq!(body["answers"].as_array().unwrap().len(), 1);
    }
    let (_, body) = server.post("/api/judge", &json!({"board": board, "moves": ""}));
    assert_eq!(body["answers"][0]["verdict"], "not at goal", "{body}");
}

/// `/api/analyse` answers as `eight --analyse --json` does: the verdict,
/// the distance after every move, the moves lost and the moves that
/// brought the goal no closer; in the multi-tile metric a run at a time.
#[test]
fn a_solve_is_analysed_as_the_program_analyses_it() {
    let server = Server::start(&[]);
    for (board, moves, metric) in [
        ("2 3 4 1 5 x 7 6 8", "dlurullddrurdllurdrlr", "stm"),
        ("1 2 3 4 5 6 x 7 8", "rlrr", "stm"),
        ("1 2 3 4 5 6 x 7 8", "rrllrr", "mtm"),
        ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15", "lrr", "stm"),
    ] {
        let ask = json!({"board": board, "moves": moves, "metric": metric});
        let (status, body) = server.post("/api/analyse", &ask);
        assert_eq!(status, 200, "{body}");
        let line = format!("{board} {moves}\n");
        let (out, _, code) = common::run(&["--analyse", "--json", "--metric", metric], line);
        assert_eq!(code, 0);
        let program: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        let answer = &body["answers"][0];
        for field in ["verdict", "distances", "lost", "worse", "board", "goal"] {
            assert_eq!(
                answer[field], program[field],
                "{board} {moves} {metric}: {field}"
            );
        }
    }
}

/// A time limit in which no search could finish is refused at start.
#[test]
fn a_search_limit_of_zero_is_refused() {
    let output = Command::new(cargo_bin("eight"))
        .args(["serve", "--listen", "127.0.0.1:0", "--search-seconds", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--search-seconds"));
}

/// The server reads a board's text as the program reads it: the same
/// answer, or the same message (its shape the request's `"shape"`); a
/// text of several boards, and requests that miss their board or give
/// moves to the wrong endpoint, say so.
#[test]
fn a_text_gets_the_programs_answer_or_message() {
    let server = Server::start(&[]);
    for text in [
        "01 2 3 4 5 6 7 8 x",
        "1/2/3/4/5/6/7/8/x",
        "1 2 3\n4 5 6",
        "1 2 3\n4 5 6\n7 8 x",
        "2 3 4/1 5 x/7 6 8",
        "23415x768",
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15",
        "abc",
        "",
    ] {
        let (status, body) = server.post("/api/solve", &json!({"board": text}));
        let (out, err, _) = common::run(&[], format!("{text}\n"));
        match status {
            200 => assert_eq!(
                body["answers"][0]["moves"].as_str(),
                out.lines().next(),
                "{text:?}"
            ),
            _ if text.is_empty() => assert!(out.is_empty(), "{text:?}"),
            _ => {
                let message = err.lines().next().unwrap_or("");
                let message = message.splitn(4, ':').nth(3).unwrap_or("").trim();
                // The shape named as a request names it.
                let message = message.replace("--shape", "\"shape\"");
                assert_eq!(body["error"].as_str(), Some(&*message), "{text:?}");
            }
        }
    }
    let (status, body) = server.post("/api/solve", &json!({"board": "12345678x\n12345678x"}));
    assert_eq!(status, 422);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("2 boards in one text")
    );
    let (_, body) = server.post("/api/solve", &json!({"board": null}));
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("give \"board\" (one board)"),
        "{body}"
    );
    let (_, body) = server.post("/api/solve", &json!({"board": "12345678x", "moves": "r"}));
    assert!(
        body["error"].as_str().unwrap().contains("/api/judge"),
        "{body}"
    );
}
