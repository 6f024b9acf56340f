//! What puzzle users ask for: move counts, the tiles' notation, fair random
//! boards, and a judge of moves found elsewhere; for table shapes (built in
//! and made on request) and search shapes, against the plain BFS and IDA*
//! in `common`.

mod common;

use std::collections::HashMap;

use common::{Oracle, run, run_from_file};

/// The tile notation of blank letters, written plainly.
fn tiles(letters: &str) -> String {
    letters
        .chars()
        .map(|c| match c {
            'u' => 'D',
            'd' => 'U',
            'l' => 'R',
            _ => 'L',
        })
        .collect()
}

/// Runs of equal letters written once with their count.
fn runs(letters: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = letters.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let j = (i..chars.len())
            .find(|&j| chars[j] != chars[i])
            .unwrap_or(chars.len());
        out.push(chars[i]);
        if j - i > 1 {
            out += &(j - i).to_string();
        }
        i = j;
    }
    out
}

/// Random boards of one family's shape, and the oracle's answer for each.
fn family(shape: &str, rows: usize, cols: usize, seed: u64) -> Vec<(String, Option<String>)> {
    let n = rows * cols;
    let goal = common::canonical(n, n - 1);
    let mut rng = common::Rng(seed);
    if n <= 10 {
        let oracle = Oracle::new(cols, &goal);
        return (0..40)
            .map(|_| {
                let board = rng.board(n);
                (common::text(&board), oracle.best_path(&board))
            })
            .collect();
    }
    let _ = shape;
    (0..6)
        .map(|_| {
            let board = rng.scramble(cols, &goal, 30);
            (
                common::text(&board),
                Some(common::manhattan_ida(cols, &board, &goal)),
            )
        })
        .collect()
}

#[test]
fn lengths_and_notations_for_every_shape_family() {
    let data = common::two_by_five();
    let data = data.path().to_str().unwrap();
    for (shape, rows, cols) in [("3x3", 3, 3), ("2x4", 2, 4), ("2x5", 2, 5), ("4x4", 4, 4)] {
        let boards = family(shape, rows, cols, 10 + rows as u64);
        let input: String = boards.iter().map(|(b, _)| b.clone() + "\n").collect();
        let args = |extra: &[&'static str]| {
            let mut args = vec!["--shape", shape, "--data", data];
            args.extend_from_slice(extra);
            args
        };
        let (lengths, _, code) = run(&args(&["--length"]), input.clone());
        assert_eq!(code, 0, "{shape}");
        let (tile, _, _) = run(&args(&["--notation", "tile"]), input.clone());
        let (tile_runs, _, _) = run(&args(&["--notation", "tile-runs"]), input.clone());
        for (i, (board, answer)) in boards.iter().enumerate() {
            let line = |text: &str| text.lines().nth(i).unwrap().to_string();
            match answer {
                Some(moves) => {
                    assert_eq!(line(&lengths), moves.len().to_string(), "{shape} {board}");
                    assert_eq!(line(&tile), tiles(moves), "{shape} {board}");
                    assert_eq!(line(&tile_runs), runs(&tiles(moves)), "{shape} {board}");
                }
                None => {
                    assert_eq!(line(&lengths), "unsolvable");
                    assert_eq!(line(&tile), "unsolvable");
                }
            }
        }
    }
}

#[test]
fn notations_in_every_mode() {
    let (out, _, code) = run(
        &["--pairs", "--notation", "tile-runs"],
        "2\n12X453786\n12345678X\n564178X23\n7568X4123\n",
    );
    assert_eq!(
        out,
        format!(
            "Case 1: 2\n{}\nCase 2: 8\n{}\n",
            runs(&tiles("dd")),
            runs(&tiles("urrulldr"))
        )
    );
    assert_eq!(code, 0);
    let (out, _, _) = run(&["--pairs", "--length"], "1\n564178X23\n7568X4123\n");
    assert_eq!(out, "Case 1: 8\n");
    let (out, _, _) = run(&["--show", "--notation", "tile"], "1 2 3 x 4 6 7 5 8\n");
    assert!(
        out.starts_with("LUL\n") && out.contains("L-> 4 x 6  U->"),
        "{out}"
    );
    let (out, _, _) = run(&["--json", "--notation", "tile"], "1 2 3 x 4 6 7 5 8\n");
    let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(json["moves"], "LUL");
    assert_eq!(json["length"], 3);
    let (_, err, code) = run(&["--notation", "tiles"], "");
    assert!(
        err.contains("[possible values: blank, tile, tile-runs]"),
        "{err}"
    );
    assert_eq!(code, 2);
}

/// The same seed draws the same boards; every board drawn can reach the
/// goal, as the oracle says; a shape's boards come in its input format.
#[test]
fn random_boards_are_reproducible_and_solvable() {
    let (a, _, code) = run(&["--random", "50", "--seed", "7"], "");
    assert_eq!(code, 0);
    let (b, _, _) = run(&["--random", "50", "--seed", "7"], "");
    let (c, _, _) = run(&["--random", "50", "--seed", "8"], "");
    assert_eq!(a, b);
    assert_ne!(a, c);
    let oracle = Oracle::new(3, &common::canonical(9, 8));
    for line in a.lines() {
        let cells: Vec<u8> = line
            .split(' ')
            .map(|t| if t == "x" { 0 } else { t.parse().unwrap() })
            .collect();
        assert!(oracle.distance.contains_key(&cells), "{line}");
    }
    // Toward another goal, and on a search shape: solvable, as `eight` says.
    let goal = "8 7 6 5 4 3 2 1 x";
    let (boards, _, _) = run(&["--random", "30", "--seed", "1", "--goal", goal], "");
    let (answers, _, code) = run(&["--goal", goal, "--length"], boards);
    assert_eq!(code, 0);
    assert!(!answers.contains("unsolvable"), "{answers}");
    let (boards, _, _) = run(&["--random", "30", "--seed", "2", "--shape", "4x4"], "");
    assert_eq!(boards.lines().count(), 30);
    let mut parity = 0;
    for line in boards.lines() {
        let board: eight::Board = line.parse().unwrap();
        assert!(
            board.solvable_to(&eight::Board::goal(eight::Shape::FIFTEEN)),
            "{line}"
        );
        parity ^= board.blank() & 1;
    }
    let _ = parity;
    // What --random writes reads back as it is, with no --shape: the rows
    // of shapes that their tile counts do not tell are joined by '/'.
    for shape in ["2x2", "2x3", "3x2", "2x4", "4x2", "2x8"] {
        let (boards, _, code) = run(&["--random", "20", "--seed", "3", "--shape", shape], "");
        assert_eq!(code, 0);
        for line in boards.lines() {
            let board: eight::Board = line.parse().unwrap();
            assert_eq!(board.shape().to_string(), shape, "{line}");
            assert_eq!(board.to_string(), line);
        }
        if eight::data::DataFile::is_builtin(shape.parse().unwrap()) {
            let (answers, err, code) = run(&["--length"], boards);
            assert_eq!((answers.lines().count(), code), (20, 0), "{shape}: {err}");
        }
    }
}

/// Drawn uniformly: with a fixed seed, the distances of 20,000 boards
/// follow the exact histogram (a chi-square test, tails merged so that
/// every bin expects at least 20 boards).
#[test]
fn random_boards_are_uniform() {
    let oracle = Oracle::new(3, &common::canonical(9, 8));
    let exact = oracle.histogram();
    let total: u64 = exact.iter().sum();
    let draws = 20_000u64;
    let (out, _, _) = run(&["--random", &draws.to_string(), "--seed", "2026"], "");
    let mut seen = vec![0u64; exact.len()];
    for line in out.lines() {
        let cells: Vec<u8> = line
            .split(' ')
            .map(|t| if t == "x" { 0 } else { t.parse().unwrap() })
            .collect();
        seen[oracle.distance[&cells] as usize] += 1;
    }
    let mut bins: Vec<(f64, f64)> = Vec::new();
    let (mut expected, mut got) = (0.0, 0.0);
    for (d, &count) in exact.iter().enumerate() {
        expected += draws as f64 * count as f64 / total as f64;
        got += seen[d] as f64;
        if expected >= 20.0 {
            bins.push((expected, got));
            (expected, got) = (0.0, 0.0);
        }
    }
    if let Some(last) = bins.last_mut() {
        last.0 += expected;
        last.1 += got;
    }
    let chi2: f64 = bins.iter().map(|(e, g)| (g - e) * (g - e) / e).sum();
    // The 0.1% critical value of chi-square with bins - 1 degrees of freedom
    // is below 2.5 times them for these sizes.
    let df = (bins.len() - 1) as f64;
    assert!(
        chi2 < 2.5 * df,
        "chi-square {chi2:.1} over {df} degrees of freedom"
    );
}

/// `--walk`: on any shape, each board the end of a walk of that many moves
/// that never undoes one: within that distance of the goal (the oracle's on
/// 3x3), of the walk's parity, and every board of 2 moves drawn.
#[test]
fn random_walks_end_near_the_goal_on_any_shape() {
    let oracle = Oracle::new(3, &common::canonical(9, 8));
    let (out, _, code) = run(&["--random", "2000", "--seed", "8", "--walk", "9"], "");
    assert_eq!(code, 0);
    for line in out.lines() {
        let cells: Vec<u8> = line
            .split(' ')
            .map(|t| if t == "x" { 0 } else { t.parse().unwrap() })
            .collect();
        let distance = oracle.distance[&cells];
        assert!(distance <= 9 && distance % 2 == 1, "{line}: {distance}");
    }
    let (out, _, _) = run(&["--random", "200", "--seed", "8", "--walk", "2"], "");
    let mut seen: Vec<&str> = out.lines().collect();
    seen.sort_unstable();
    seen.dedup();
    // From the goal (blank in the corner): two first moves, then two
    // moves each that do not undo them.
    assert_eq!(seen.len(), 4, "{seen:?}");
    for shape in ["4x4", "5x5", "3x7"] {
        let args = [
            "--random", "20", "--seed", "1", "--walk", "12", "--shape", shape,
        ];
        let (boards, _, code) = run(&args, "");
        assert_eq!(code, 0, "{shape}");
        let (lengths, err, code) = run(&["--length", "--shape", shape], boards);
        assert_eq!(code, 0, "{shape}: {err}");
        assert!(
            lengths.lines().all(|l| l.parse::<u32>().unwrap() <= 12),
            "{shape}: {lengths}"
        );
    }
    let (_, err, code) = run(&["--random", "1", "--walk", "3", "--depth", "3"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--walk"), "{err}");
}

/// `--depth`: every board drawn is exactly that far, each of them about as
/// often; a depth no board has names the largest; search shapes refuse.
#[test]
fn random_boards_of_an_exact_depth() {
    let oracle = Oracle::new(3, &common::canonical(9, 8));
    // 20 boards are 5 moves from the goal.
    let (out, _, code) = run(&["--random", "4000", "--seed", "5", "--depth", "5"], "");
    assert_eq!(code, 0);
    let mut counts: HashMap<String, u64> = HashMap::new();
    for line in out.lines() {
        let cells: Vec<u8> = line
            .split(' ')
            .map(|t| if t == "x" { 0 } else { t.parse().unwrap() })
            .collect();
        assert_eq!(oracle.distance[&cells], 5, "{line}");
        *counts.entry(line.to_string()).or_default() += 1;
    }
    assert_eq!(counts.len(), 20);
    assert!(
        counts.values().all(|&c| (130..=270).contains(&c)),
        "{counts:?}"
    );
    let (out, _, _) = run(&["--random", "3", "--seed", "1", "--depth", "31"], "");
    assert!(
        out.lines()
            .all(|l| l == "8 6 7 2 5 4 3 x 1" || l == "6 4 7 8 5 x 3 2 1"),
        "{out}"
    );
    let (out, err, code) = run(&["--random", "3", "--depth", "32"], "");
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.contains("the farthest are 31"), "{err}");
    // A table made on request, with its own depths.
    let data = common::two_by_five();
    let data = data.path().to_str().unwrap();
    let (out, _, code) = run(
        &[
            "--random", "20", "--seed", "3", "--depth", "40", "--shape", "2x5", "--data", data,
        ],
        "",
    );
    assert_eq!(code, 0);
    let (lengths, _, _) = run(&["--shape", "2x5", "--data", data, "--length"], out);
    assert!(lengths.lines().all(|l| l == "40"), "{lengths}");
    let (_, err, code) = run(&["--random", "3", "--depth", "10", "--shape", "4x4"], "");
    assert!(err.contains("up to 12 cells"), "{err}");
    assert_eq!(code, 2);
    // A shape a table could answer, searched for want of one: the table's
    // command, in either metric.
    for (metric, command) in [
        ("stm", "eight-gen --shape 2x5 --blank 0 --out"),
        ("mtm", "eight-gen --metric mtm --shape 2x5 --blank 0 --out"),
    ] {
        let args = [
            "--random", "2", "--depth", "5", "--metric", metric, "--shape", "2x5",
        ];
        let goal = ["--goal", "x 1 2 3 4 5 6 7 8 9", "--data", data];
        let (out, err, code) = run(&[&args[..], &goal[..]].concat(), "");
        assert_eq!((out.as_str(), code), ("", 2), "{metric}");
        assert!(err.contains(command), "{metric}: {err}");
    }
}

#[test]
fn the_judge_says_what_moves_are_worth() {
    let board = "2 3 4 1 5 x 7 6 8";
    let best = "dlurullddrurdllurdr";
    let cases = [
        (format!("{board} {best}"), "optimal"),
        // Another shortest answer, the seeds' own.
        (format!("{board} ullddrurdllurdruldr"), "optimal"),
        (format!("{board} {best}lr"), "longer by 2"),
        (format!("{board} dlu"), "not at goal"),
        (format!("{board} r"), "illegal move 1"),
        (format!("{board} dlq"), "illegal move 3"),
        ("2 1 3 4 5 6 7 8 x -".to_string(), "unsolvable"),
        ("1 2 3 4 5 6 7 8 x -".to_string(), "optimal"),
        ("1 2 3 4 5 6 7 8 x u".to_string(), "not at goal"),
        ("12345678x -".to_string(), "optimal"),
        (
            "1 2 3 4 5 6 7 8 9 10 11 12 13 x 14 15 rr".to_string(),
            "optimal",
        ),
        (
            "1 2 3 4 5 6 7 8 9 10 11 12 13 x 14 15 rrlr".to_string(),
            "longer by 2",
        ),
    ];
    let input: String = cases.iter().map(|(line, _)| line.clone() + "\n").collect();
    let (out, err, code) = run(&["--judge"], input);
    let verdicts: Vec<&str> = out.lines().collect();
    for ((line, want), got) in cases.iter().zip(&verdicts) {
        assert_eq!(got, want, "{line}");
    }
    assert_eq!((err.as_str(), code), ("", 0));
    let (out, err, code) = run(
        &["--judge"],
        format!("{board}\nhello rdr\n{board} {best}\n"),
    );
    assert_eq!(out, "invalid\ninvalid\noptimal\n");
    assert!(
        err.contains("<stdin>:1: expected the moves after the board"),
        "{err}"
    );
    assert!(err.contains("<stdin>:2: unknown tile"), "{err}");
    assert_eq!(code, 1);
    // Against the oracle, on 2x4: every board's best path is optimal, one
    // move more is illegal or leaves it elsewhere.
    let oracle = Oracle::new(4, &common::canonical(8, 7));
    let mut rng = common::Rng(24);
    let mut input = String::new();
    let mut want = String::new();
    for _ in 0..30 {
        let cells = rng.board(8);
        let path = oracle.best_path(&cells);
        let moves = path.clone().unwrap_or_default();
        input += &format!(
            "{} {}\n",
            common::text(&cells),
            if moves.is_empty() { "-" } else { &moves }
        );
        want += match path {
            Some(_) => "optimal\n",
            None => "unsolvable\n",
        };
    }
    let (out, _, code) = run(&["--judge", "--shape", "2x4"], input);
    assert_eq!((out, code), (want, 0));
}

/// A move line is judged in full however long, the same from a pipe as
/// from a file, and never runs into the next line; a line with something
/// after its moves is invalid, alone.
#[test]
fn a_move_line_is_judged_in_full_however_long() {
    let goal = "1 2 3 4 5 6 7 8 x";
    let cases = [
        (format!("{goal} l{}", "rl".repeat(40_000)), "not at goal"),
        (
            format!("{goal} {}uuu", "lr".repeat(40_000)),
            "illegal move 80003",
        ),
        (
            format!("{goal} {}", "lr".repeat(5_000_000)),
            "longer by 10000000",
        ),
        (format!("{}{goal} -", " ".repeat(70_000)), "optimal"),
        (
            format!("1 2 3 4 5 6 7 x 8 {}r", "lr".repeat(500)),
            "longer by 1000",
        ),
        (format!("{goal} {} r", "lr".repeat(500)), "invalid"),
        (format!("{} r", "1 ".repeat(5_000)), "invalid"),
        ("1 2 3 4 5 6 7 x 8 r".to_string(), "optimal"),
    ];
    let input: String = cases.iter().map(|(line, _)| line.clone() + "\n").collect();
    let want: String = cases.iter().map(|(_, want)| format!("{want}\n")).collect();
    for (out, err, code) in [
        run(&["--judge"], input.clone()),
        run_from_file(&["--judge"], &input),
    ] {
        assert_eq!(out, want);
        assert!(
            err.contains("<stdin>:6: expected the moves to end the line"),
            "{err}"
        );
        assert!(
            err.contains("<stdin>:7: expected a board and then its moves"),
            "{err}"
        );
        assert_eq!(code, 1);
    }
    // The output that shows the moves keeps them whole.
    let moves = "lr".repeat(50_000);
    let (out, _, code) = run(&["--judge", "--json"], format!("{goal} {moves}"));
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["moves"], moves.as_str());
    assert_eq!(json["verdict"], "longer by 100000");
    assert_eq!(code, 0);
}

/// `--analyse` gives, for random walks from random boards (detours, steps
/// back and all), the verdict and the distance of the board and after
/// every move, each the plain BFS's; in the multi-tile metric after every
/// run; with `--json` the moves lost and those that brought the goal no
/// closer.
#[test]
fn the_analysis_gives_the_distance_after_every_move() {
    let goal = common::canonical(9, 8);
    let oracle = Oracle::new(3, &goal);
    let mtm = common::MtmOracle::new(3, &goal, 40);
    let mut rng = common::Rng(52);
    let (mut input, mut expected, mut expected_mtm) = (String::new(), String::new(), String::new());
    for _ in 0..300 {
        let steps = 6 + rng.below(20);
        let start = rng.scramble(3, &goal, steps);
        // Some random steps, then the shortest way home or a few more.
        let mut board = start.clone();
        let mut letters = String::new();
        let mut boards = vec![board.clone()];
        let wander = rng.below(12);
        for _ in 0..wander {
            let letter = ['d', 'l', 'r', 'u'][rng.below(4)];
            if let Some(next) = common::step(3, &board, letter) {
                letters.push(letter);
                board = next;
                boards.push(board.clone());
            }
        }
        if rng.below(4) > 0 {
            for letter in oracle.best_path(&board).unwrap().chars() {
                letters.push(letter);
                board = common::step(3, &board, letter).unwrap();
                boards.push(board.clone());
            }
        }
        let moves = if letters.is_empty() { "-" } else { &letters };
        input += &format!("{} {moves}\n", common::text(&start));
        // Single tiles: a distance a move.
        let distances: Vec<u32> = boards.iter().map(|b| oracle.distance[b]).collect();
        let verdict = |made: u32, first: u32, at_goal: bool| match at_goal {
            false => "not at goal".to_string(),
            true if made == first => "optimal".to_string(),
            true => format!("longer by {}", made - first),
        };
        let shown = |distances: &[u32]| {
            let text: Vec<String> = distances.iter().map(u32::to_string).collect();
            text.join(" ")
        };
        let at_goal = board == goal;
        let made = letters.len() as u32;
        expected += &format!(
            "{}: {}\n",
            verdict(made, distances[0], at_goal),
            shown(&distances)
        );
        // Runs: the board at the end of each.
        let chars: Vec<char> = letters.chars().collect();
        let ends: Vec<usize> = (0..chars.len())
            .filter(|&i| chars.get(i + 1) != Some(&chars[i]))
            .collect();
        let mut by_run = vec![mtm.distance[&boards[0]]];
        by_run.extend(ends.iter().map(|&i| mtm.distance[&boards[i + 1]]));
        let runs = ends.len() as u32;
        expected_mtm += &format!(
            "{}: {}\n",
            verdict(runs, by_run[0], at_goal),
            shown(&by_run)
        );
    }
    let (out, err, code) = run(&["--analyse"], input.clone());
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(out, expected);
    let (out, err, code) = run(&["--analyse", "--metric", "mtm"], input);
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(out, expected_mtm);
    // What cannot be analysed is judged; the JSON counts what was lost.
    let input =
        "2 1 3 4 5 6 7 8 x -\n1 2 3 4 5 6 x 7 8 u\n1 2 3 4 5 6 x 7 8 R\n1 2 3 4 5 6 x 7 8 rlrr\n";
    let (out, _, code) = run(&["--analyse"], input);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "unsolvable\nnot at goal: 2 3\nillegal move 1\nlonger by 2: 2 1 2 1 0\n"
    );
    let (out, _, _) = run(&["--analyse", "--json"], input);
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["verdict"], "longer by 2");
    assert_eq!(last["distances"], serde_json::json!([2, 1, 2, 1, 0]));
    assert_eq!(last["lost"], 2);
    assert_eq!(last["worse"], serde_json::json!([2]));
    let second: serde_json::Value = serde_json::from_str(out.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["lost"], 2, "a move away, and one more to come back");
}
