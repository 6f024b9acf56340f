// The page of `eight serve`: a board to set, scramble, play and watch
// solved. Every answer, distance and verdict comes from the server's API,
// which answers as the program does; the page only draws and moves tiles.
"use strict";

const $ = (id) => document.getElementById(id);

// Where the blank goes for each letter, and the letter of the tile that
// slides the other way (the speedsolvers' notation).
const STEP = { d: [1, 0], l: [0, -1], r: [0, 1], u: [-1, 0] };
const TILE = { d: "U", l: "R", r: "L", u: "D" };
// The arrow keys slide a tile their way: the blank goes the other.
const ARROWS = { ArrowLeft: "r", ArrowRight: "l", ArrowUp: "d", ArrowDown: "u" };
// The second layouts a player may choose: the same directions.
const LAYOUTS = {
  wasd: { a: "r", d: "l", w: "d", s: "u" },
  hjkl: { h: "r", l: "l", k: "d", j: "u" },
};

const state = {
  shape: { name: "3x3", rows: 3, cols: 3 },
  methods: {}, // each shape's method, "table" or "search", from the server
  answered: {}, // what answers each shape here, by metric, from the server
  start: null, // the board as set
  board: null, // the board shown
  goal: null, // the goal set, or null for the tiles in order
  answer: "", // the shortest answer from `solved`, in blank letters
  solved: null,
  frame: 0, // the answer's moves made on the board shown
  timer: null,
  yours: "", // the moves played from `start`
  distance: null,
  startDistance: null,
  asking: null, // the request for a distance in flight
  solving: null, // the request for an answer in flight
  clock: { started: null, ended: null, timed: true, ticker: null }, // the solve's timer
  session: [], // the solves timed, kept in the browser (localStorage)
  analysed: null, // the solve last analysed: start, moves, distances
  hints: 0, // the hints asked during the solve
  hinted: null, // the cell of the tile a hint says to slide
};

// Where the session is kept in the browser: nothing is sent anywhere.
const SESSION_KEY = "eight-session";

function usualGoal() {
  const n = state.shape.rows * state.shape.cols;
  return Array.from({ length: n }, (_, i) => (i + 1) % n);
}

function goal() {
  return state.goal || usualGoal();
}

// The cells of a board as the server writes it: tiles apart, rows joined
// by '/', `x` the blank.
function cellsOf(text) {
  return text.split(/[\s/]+/).filter(Boolean).map((t) => (t === "x" ? 0 : Number(t)));
}

// A board written as the program writes it: on one line for 3x3 and 4x4,
// else with its rows joined by '/'.
function textOf(cells) {
  const cols = state.shape.cols;
  const joint = state.shape.name === "3x3" || state.shape.name === "4x4" ? " " : "/";
  const rows = [];
  for (let at = 0; at < cells.length; at += cols) {
    rows.push(cells.slice(at, at + cols).map((t) => (t === 0 ? "x" : String(t))).join(" "));
  }
  return rows.join(joint);
}

// The board after the blank moves `letter`, or null off the board.
function moved(cells, letter) {
  const { rows, cols } = state.shape;
  const blank = cells.indexOf(0);
  const [dr, dc] = STEP[letter];
  const r = Math.floor(blank / cols) + dr;
  const c = (blank % cols) + dc;
  if (r < 0 || r >= rows || c < 0 || c >= cols) return null;
  const next = cells.slice();
  next[blank] = next[r * cols + c];
  next[r * cols + c] = 0;
  return next;
}

function same(a, b) {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

// Moves counted in the metric: letters, or runs of equal letters.
function count(letters) {
  if ($("metric").value === "stm") return letters.length;
  return letters.split("").filter((l, i) => i === 0 || l !== letters[i - 1]).length;
}

// Blank letters in the notation chosen: the tokens, one a move of it.
function spelled(letters) {
  const notation = $("notation").value;
  if (notation === "blank") return letters.split("");
  const tiles = letters.split("").map((l) => TILE[l]);
  if (notation === "tile") return tiles;
  const runs = [];
  for (const t of tiles) {
    const last = runs[runs.length - 1];
    if (last && last[0] === t) last[1] += 1;
    else runs.push([t, 1]);
  }
  return runs.map(([t, k]) => (k > 1 ? t + k : t));
}

async function api(path, body, signal) {
  const init = body === undefined
    ? { signal }
    : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal };
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) {
    const where = data.index === undefined ? "" : ` (board ${data.index})`;
    throw new Error((data.error || response.statusText) + where);
  }
  return data;
}

// The first answer of a response: an answer the server could not give
// (missing data, named with the command that makes it) is an error, shown
// where the player looks.
function first(data) {
  const answer = data.answers[0];
  if (answer.error) throw new Error(answer.error);
  return answer;
}

function options() {
  const asked = { shape: state.shape.name, metric: $("metric").value };
  if (state.goal) asked.goal = textOf(state.goal);
  return asked;
}

function say(error) {
  $("error").textContent = error ? String(error.message || error) : "";
}

function render() {
  const grid = $("grid");
  grid.style.setProperty("--cols", state.shape.cols);
  const home = goal();
  const cols = state.shape.cols;
  const rows = [];
  state.board.forEach((tile, cell) => {
    const div = document.createElement("div");
    div.className = "tile" + (tile === 0 ? " blank" : tile === home[cell] ? " home" : "")
      + (cell === state.hinted ? " hinted" : "");
    div.textContent = tile === 0 ? "" : String(tile);
    div.dataset.cell = cell;
    div.setAttribute("role", "gridcell");
    const where = `row ${Math.floor(cell / cols) + 1}, column ${(cell % cols) + 1}`;
    div.setAttribute("aria-label", tile === 0 ? `blank, ${where}` : `${tile}, ${where}`);
    if (cell % cols === 0) {
      rows.push(document.createElement("div"));
      rows[rows.length - 1].setAttribute("role", "row");
      rows[rows.length - 1].className = "row-of-tiles";
    }
    rows[rows.length - 1].append(div);
  });
  grid.replaceChildren(...rows);
  const board = $("board");
  if (document.activeElement !== board) {
    board.value = textOf(state.board);
    fit(board);
  }
  $("yours").textContent = spelled(state.yours).join(" ");
  $("count").textContent = String(count(state.yours));
  showClock();
  const tokens = spelled(state.answer);
  const done = state.solved && same(state.board, framesBoard(state.frame)) ? state.frame : -1;
  const moves = $("moves");
  moves.replaceChildren(...tokensOf(tokens, done));
  $("step").textContent = `${Math.max(done, 0)} / ${state.answer.length}`;
}

// The answer's tokens, the moves made and the next marked.
function tokensOf(tokens, done) {
  if ($("notation").value === "tile-runs") {
    return [document.createTextNode(tokens.join(""))];
  }
  return tokens.map((t, i) => {
    const span = document.createElement("span");
    span.textContent = t;
    if (i < done) span.className = "done";
    else if (i === done) span.className = "next";
    return span;
  });
}

// The board after the answer's first `frame` moves.
function framesBoard(frame) {
  let cells = state.solved;
  for (const letter of state.answer.slice(0, frame)) cells = moved(cells, letter);
  return cells;
}

// Asks the distance of the board shown; says if a move went closer.
async function measure(before) {
  halt(state.asking);
  const asking = named();
  state.asking = asking;
  $("distance").textContent = "…";
  try {
    const asked = { ...options(), board: textOf(state.board), id: asking.id };
    const answer = first(await api("/api/length", asked, asking.signal));
    state.distance = answer.unsolvable ? null : answer.length;
    $("distance").textContent = answer.unsolvable ? "unsolvable" : String(answer.length);
    if (state.startDistance === undefined) state.startDistance = state.distance;
    const closer = $("closer");
    if (before === undefined || before === null || state.distance === null) closer.textContent = "";
    else if (state.distance < before) closer.textContent = "closer";
    else if (state.distance > before) closer.textContent = "farther";
    else closer.textContent = "as far";
    say("");
  } catch (error) {
    if (error.name !== "AbortError") {
      $("distance").textContent = "–";
      say(error);
    }
  } finally {
    if (state.asking === asking) state.asking = null;
  }
}

// A new board to start from.
function setStart(cells) {
  stop();
  state.start = cells;
  state.board = cells;
  state.yours = "";
  state.answer = "";
  state.solved = null;
  state.frame = 0;
  state.startDistance = undefined;
  resetClock();
  state.analysed = null;
  state.hints = 0;
  state.hinted = null;
  $("analysis").hidden = true;
  $("verdict").textContent = "";
  $("verdict").className = "";
  $("length").textContent = "–";
  render();
  measure();
}

// The player slides tiles: the blank goes each of `letters` (one, or a
// run of one letter from a click on a tile further along the row or
// column), the distance asked once after them.
async function play(letters) {
  let board = state.board;
  for (const letter of letters) {
    board = board && moved(board, letter);
  }
  if (!board || !letters) return;
  stop();
  state.hinted = null;
  const before = state.distance;
  const clock = state.clock;
  if (clock.timed && clock.started === null) startClock();
  for (const letter of letters) {
    if (state.solved && !same(state.board, framesBoard(state.frame))) state.solved = null;
    if (state.solved && state.answer[state.frame] === letter) state.frame += 1;
    else {
      state.solved = null;
      state.answer = "";
    }
    state.board = moved(state.board, letter);
    state.yours += letter;
  }
  const atGoal = same(state.board, goal());
  if (atGoal) stopClock();
  render();
  // On the shortest answer shown, the distance is the moves it has left:
  // no request.
  if (state.solved && same(state.board, framesBoard(state.frame))) known();
  else await measure(before);
  if (atGoal) analyse();
}

// The distance of a board on the answer shown: its moves left.
function known() {
  const before = state.distance;
  state.distance = count(state.answer.slice(state.frame));
  $("distance").textContent = String(state.distance);
  $("closer").textContent = before === null || before === undefined ? ""
    : state.distance < before ? "closer" : state.distance > before ? "farther" : "as far";
}

// At the goal: the verdict on the player's moves and the distance after
// each, drawn; a timed solve joins the session.
async function analyse() {
  const clock = state.clock;
  const moves = state.yours;
  try {
    const asked = { ...options(), board: textOf(state.start), moves: moves || "-" };
    const answer = first(await api("/api/analyse", asked));
    const verdict = answer.verdict;
    const made = count(moves);
    const best = answer.distances ? answer.distances[0] : state.startDistance;
    $("verdict").textContent = verdict === "optimal"
      ? `At the goal in ${made} moves: optimal.`
      : `At the goal in ${made} moves: ${verdict} (the shortest is ${best}).`;
    $("verdict").className = verdict === "optimal" ? "optimal" : "";
    if (answer.distances) draw(answer);
    if (clock.timed && clock.started !== null && answer.distances) {
      const time = clock.ended - clock.started;
      record({
        date: new Date().toISOString(),
        shape: state.shape.name,
        metric: $("metric").value,
        board: textOf(state.start),
        moves,
        time: Math.round(time),
        count: made,
        optimal: best,
        lost: answer.lost,
        tps: time > 0 ? made / (time / 1000) : null,
        hints: state.hints,
      });
    }
  } catch (error) {
    say(error);
  }
}

const SVG = "http://www.w3.org/2000/svg";

function svg(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

// The chart of a solve: the distance after each move, a point a move (red
// where the goal came no closer), and the shortest way down beside it.
function draw(answer) {
  const distances = answer.distances;
  const moves = distances.length - 1;
  const top = Math.max(...distances, 1);
  const [w, h, left, bottom] = [600, 200, 30, 20];
  const x = (i) => left + (i / Math.max(moves, 1)) * (w - left - 10);
  const y = (d) => 10 + (1 - d / top) * (h - bottom - 10);
  const chart = $("chart");
  const worse = new Set(answer.worse);
  const parts = [
    svg("line", { class: "axis", x1: left, y1: y(0), x2: w - 10, y2: y(0) }),
    svg("line", { class: "axis", x1: left, y1: y(0), x2: left, y2: y(top) }),
    svg("polyline", {
      class: "optimal",
      points: `${x(0)},${y(distances[0])} ${x(Math.min(distances[0], moves))},${y(Math.max(0, distances[0] - moves))}`,
    }),
    svg("polyline", { class: "yours", points: distances.map((d, i) => `${x(i)},${y(d)}`).join(" ") }),
    ...distances.map((d, i) => {
      const point = svg("circle", { class: worse.has(i) ? "point worse" : "point", cx: x(i), cy: y(d), r: 4 });
      point.dataset.index = i;
      const title = svg("title", {});
      title.textContent = i === 0 ? `start: ${d} from the goal` : `move ${i}: ${d} from the goal`;
      point.append(title);
      return point;
    }),
  ];
  const label = svg("text", { x: 2, y: y(top) + 4 });
  label.textContent = String(top);
  const zero = svg("text", { x: 18, y: y(0) + 4 });
  zero.textContent = "0";
  chart.replaceChildren(...parts, label, zero);
  const lost = answer.lost;
  $("analysis-summary").textContent = lost === 0
    ? `Every move brought the goal closer: ${moves} moves, the shortest.`
    : `${moves} moves against the shortest ${distances[0]}: ${lost} lost, at ${answer.worse.length} moves that brought the goal no closer (red).`;
  $("analysis").hidden = false;
  state.analysed = { start: state.start, moves: state.yours, distances };
}

// The board after move `index` of the solve analysed, and the shortest
// answer from there.
function review(index) {
  const analysed = state.analysed;
  if (!analysed) return;
  const letters = analysed.moves.slice(0, index);
  let board = analysed.start;
  // In the multi-tile metric a point is a run: its letters all made.
  if ($("metric").value === "mtm") {
    let runs = 0;
    let at = 0;
    while (at < analysed.moves.length && runs < index) {
      const letter = analysed.moves[at];
      while (analysed.moves[at] === letter) at += 1;
      runs += 1;
    }
    for (const letter of analysed.moves.slice(0, at)) board = moved(board, letter);
  } else {
    for (const letter of letters) board = moved(board, letter);
  }
  stop();
  state.board = board;
  state.distance = analysed.distances[index];
  $("distance").textContent = String(state.distance);
  $("closer").textContent = "";
  render();
  solve();
}

function resetClock() {
  const clock = state.clock;
  if (clock.ticker) clearInterval(clock.ticker);
  state.clock = { started: null, ended: null, timed: true, ticker: null, inspect: null };
  // An inspection of the new board, if asked: the clock starts at the
  // first move, or when the inspection ends.
  const seconds = Number($("inspection").value) || 0;
  if (seconds > 0) {
    const fresh = state.clock;
    fresh.inspect = performance.now() + seconds * 1000;
    fresh.ticker = setInterval(() => {
      if (fresh !== state.clock || fresh.started !== null) return;
      if (performance.now() >= fresh.inspect) {
        clearInterval(fresh.ticker);
        startClock();
      } else showClock();
    }, 47);
  }
}

function startClock() {
  const clock = state.clock;
  if (clock.ticker) clearInterval(clock.ticker);
  clock.started = performance.now();
  clock.ticker = setInterval(showClock, 47);
}

function stopClock() {
  const clock = state.clock;
  if (clock.started !== null && clock.ended === null) clock.ended = performance.now();
  if (clock.ticker) clearInterval(clock.ticker);
  clock.ticker = null;
}

// A solve helped by the answer shown is not timed.
function untimed() {
  stopClock();
  state.clock.timed = false;
  showClock();
}

function showClock() {
  const clock = state.clock;
  if (clock.started === null && clock.timed && clock.inspect !== null) {
    const left = Math.max(0, (clock.inspect - performance.now()) / 1000);
    $("time").textContent = `inspect ${left.toFixed(1)}`;
    $("tps").textContent = "–";
    return;
  }
  if (clock.started === null) {
    $("time").textContent = clock.timed ? "0.00" : "–";
    $("tps").textContent = "–";
    return;
  }
  const ms = (clock.ended === null ? performance.now() : clock.ended) - clock.started;
  $("time").textContent = (ms / 1000).toFixed(2);
  const made = count(state.yours);
  $("tps").textContent = ms > 0 ? (made / (ms / 1000)).toFixed(2) : "–";
  if (!clock.timed) $("time").textContent += " (helped)";
}

// The session: solves kept in this browser, their averages and a table.
function loadSession() {
  try {
    const kept = JSON.parse(localStorage.getItem(SESSION_KEY) || "[]");
    state.session = Array.isArray(kept) ? kept.filter(valid) : [];
  } catch {
    state.session = [];
  }
}

function valid(solve) {
  return solve && Number.isFinite(solve.time) && Number.isFinite(solve.count);
}

function saveSession() {
  localStorage.setItem(SESSION_KEY, JSON.stringify(state.session));
  showSession();
}

function record(solve) {
  state.session.push(solve);
  saveSession();
}

// The average of the last `n` times, the best and the worst left out, as
// the speedsolvers count it; null with fewer solves.
function averageOf(n) {
  if (state.session.length < n) return null;
  const times = state.session.slice(-n).map((s) => s.time).sort((a, b) => a - b);
  const kept = times.slice(1, -1);
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}

function seconds(ms) {
  return ms === null ? "–" : (ms / 1000).toFixed(2);
}

function showSession() {
  const solves = state.session;
  const times = solves.map((s) => s.time);
  $("ao5").textContent = seconds(averageOf(5));
  $("ao12").textContent = seconds(averageOf(12));
  $("mean").textContent = seconds(times.length ? times.reduce((a, b) => a + b, 0) / times.length : null);
  $("best").textContent = seconds(times.length ? Math.min(...times) : null);
  const rows = solves.map((s, i) => {
    const row = document.createElement("tr");
    const tps = Number.isFinite(s.tps) ? s.tps.toFixed(2) : "–";
    for (const cell of [i + 1, seconds(s.time), s.count, s.optimal, s.lost, tps, s.hints || 0, `${s.shape} ${s.metric}`]) {
      const td = document.createElement("td");
      td.textContent = String(cell);
      row.append(td);
    }
    return row;
  });
  $("solves").tBodies[0].replaceChildren(...rows.reverse());
}

const FIELDS = ["date", "shape", "metric", "board", "moves", "time", "count", "optimal", "lost", "tps", "hints"];

// Offers `text` as a file to save.
function offer(name, type, text) {
  const link = $("download");
  link.download = name;
  link.href = `data:${type};charset=utf-8,${encodeURIComponent(text)}`;
  link.click();
}

function exportCsv() {
  const quote = (v) => (/[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  const lines = [FIELDS.join(","), ...state.session.map((s) => FIELDS.map((f) => quote(s[f])).join(","))];
  offer("eight-session.csv", "text/csv", lines.join("\n") + "\n");
}

function exportJson() {
  offer("eight-session.json", "application/json", JSON.stringify(state.session, null, 1));
}

async function importJson(file) {
  try {
    const solves = JSON.parse(await file.text());
    if (!Array.isArray(solves) || !solves.every(valid)) throw new Error("not a session this page exported");
    state.session = solves.map((s) => Object.fromEntries(FIELDS.map((f) => [f, s[f]])));
    saveSession();
    say("");
  } catch (error) {
    say(`import: ${error.message}`);
  }
}

// The next move of the shortest answer from the board shown: its tile
// marked on the board, and counted in the solve's record.
async function hint() {
  const from = state.board;
  try {
    const asked = { ...options(), board: textOf(from), notation: "blank" };
    const answer = first(await api("/api/solve", asked));
    if (!same(from, state.board) || answer.unsolvable || !answer.moves) return;
    const letter = answer.moves[0];
    const [dr, dc] = STEP[letter];
    const blank = from.indexOf(0);
    state.hinted = blank + dr * state.shape.cols + dc;
    state.hints += 1;
    $("closer").textContent = `hint: slide the ${from[state.hinted]}`;
    render();
  } catch (error) {
    say(error);
  }
}

// Moves pasted (in any notation the program writes), analysed from the
// board set: played out on the board, not timed.
async function analysePasted(moves) {
  const walk = moves.replace(/[\s-]/g, "");
  setStart(state.start);
  untimed();
  // Tile letters and counts are read by the server; the board shows the
  // blank letters the analysis follows.
  let letters = "";
  for (let at = 0; at < walk.length; at += 1) {
    const c = walk[at];
    const tile = { U: "d", D: "u", L: "r", R: "l" }[c];
    if (tile) {
      let digits = "";
      while (/[0-9]/.test(walk[at + 1] || "")) digits += walk[(at += 1)];
      letters += tile.repeat(digits ? Number(digits) : 1);
    } else letters += c;
  }
  let board = state.start;
  for (const letter of letters) {
    board = board && STEP[letter] ? moved(board, letter) : null;
    if (!board) break;
  }
  if (board) {
    state.board = board;
    state.yours = letters;
    render();
  }
  state.yours = letters;
  await analyse();
}

// A request that may start a search, named so that the server stops the
// search when the page gives up on it.
function named() {
  const request = new AbortController();
  request.id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return request;
}

// Gives up on a request, and on its search if it started one.
function halt(request) {
  if (!request) return;
  request.abort();
  api("/api/cancel", { id: request.id }).catch(() => {});
}

async function solve() {
  untimed();
  stop();
  halt(state.solving);
  const solving = named();
  state.solving = solving;
  const started = performance.now();
  const ticker = setInterval(() => {
    const seconds = (performance.now() - started) / 1000;
    if (seconds > 0.3) {
      $("progress").textContent = `searching… ${seconds.toFixed(1)} s`;
      $("cancel").hidden = false;
    }
  }, 100);
  const from = state.board;
  try {
    const asked = { ...options(), board: textOf(from), notation: "blank", id: solving.id };
    const answer = first(await api("/api/solve", asked, solving.signal));
    if (answer.unsolvable) {
      state.answer = "";
      state.solved = null;
      $("length").textContent = "unsolvable:";
    } else {
      state.answer = answer.moves;
      state.solved = from;
      state.frame = 0;
      $("length").textContent = String(answer.length);
    }
    say("");
    $("progress").textContent = "";
  } catch (error) {
    $("progress").textContent = error.name === "AbortError" ? "cancelled" : "";
    if (error.name !== "AbortError") say(error);
  } finally {
    clearInterval(ticker);
    $("cancel").hidden = true;
    if (state.solving === solving) state.solving = null;
    render();
  }
}

// Shows the answer's first `frame` moves.
function show(frame) {
  if (!state.solved) return;
  untimed();
  state.frame = Math.max(0, Math.min(frame, state.answer.length));
  state.board = framesBoard(state.frame);
  render();
  known();
}

function stop() {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  $("play").textContent = "▶";
  $("play").setAttribute("aria-label", "Play");
}

function toggle() {
  if (state.timer) return stop();
  if (!state.solved) return;
  if (!same(state.board, framesBoard(state.frame))) state.frame = 0;
  if (state.frame >= state.answer.length) show(0);
  $("play").textContent = "❚❚";
  $("play").setAttribute("aria-label", "Pause");
  state.timer = setInterval(() => {
    if (state.frame >= state.answer.length) return stop();
    show(state.frame + 1);
  }, 1000 / Number($("speed").value));
}

async function setBoard(text) {
  try {
    let data;
    try {
      data = await api("/api/parse", { board: text, shape: state.shape.name });
    } catch (error) {
      // Another shape, told by the board itself.
      data = await api("/api/parse", { board: text }).catch(() => { throw error; });
    }
    if (data.shape !== state.shape.name) {
      chooseShape(data.shape);
    }
    setStart(cellsOf(data.board));
  } catch (error) {
    say(error);
  }
}

async function setGoal(text) {
  if (!text.trim()) {
    state.goal = null;
    setStart(state.board);
    return;
  }
  try {
    const data = await api("/api/parse", { board: text, shape: state.shape.name });
    state.goal = cellsOf(data.board);
    setStart(state.board);
  } catch (error) {
    say(error);
  }
}

async function scramble() {
  const asked = { shape: state.shape.name, metric: $("metric").value, n: 1 };
  const seed = $("seed").value.trim();
  const depth = $("depth").value.trim();
  // Seeds are 64 bits, more than a JavaScript number holds: sent and
  // shown as their digits.
  if (seed) asked.seed = seed;
  // A shape with a table draws boards exactly that far; a searched one
  // the end of a walk that long.
  if (depth) asked[state.methods[state.shape.name] === "search" ? "walk" : "depth"] = Number(depth);
  if (state.goal) asked.goal = textOf(state.goal);
  try {
    const data = await api("/api/random", asked);
    $("seed").value = String(data.seed);
    setStart(cellsOf(data.boards[0]));
  } catch (error) {
    say(error);
  }
}

// A field as tall as the text it holds, wrapped.
function fit(field) {
  field.style.height = "auto";
  field.style.height = `${field.scrollHeight + field.offsetHeight - field.clientHeight}px`;
}

// What answers the shape in the metric chosen, and the command that makes
// faster data where there is one.
function showAnswered() {
  const answered = state.answered[state.shape.name];
  const said = answered ? `Answered by ${answered[$("metric").value]}.` : "";
  // A command is written between backquotes.
  $("answered").replaceChildren(...said.split("`").map((part, i) =>
    i % 2 ? Object.assign(document.createElement("code"), { textContent: part }) : document.createTextNode(part)));
}

function chooseShape(name) {
  const [rows, cols] = name.split("x").map(Number);
  state.shape = { name, rows, cols };
  state.goal = null;
  $("goal").value = "";
  fit($("goal"));
  $("shape").value = name;
  showAnswered();
}

async function start() {
  // The shapes are asked for beside the first scramble, not before it.
  const shapes = api("/api/shapes").then((data) => {
    for (const s of data.shapes) {
      state.methods[s.shape] = s.method;
      state.answered[s.shape] = { stm: s.answered, mtm: s.answered_mtm };
    }
    $("shape").replaceChildren(...data.shapes.map((s) => {
      const option = document.createElement("option");
      option.value = s.shape;
      option.textContent = `${s.shape} (${s.method})`;
      option.title = s.answered;
      return option;
    }));
    $("shape").value = state.shape.name;
    showAnswered();
  }).catch(say);
  $("shape").addEventListener("change", () => {
    chooseShape($("shape").value);
    $("seed").value = "";
    scramble();
  });
  $("metric").addEventListener("change", () => {
    showAnswered();
    setStart(state.start);
  });
  $("notation").addEventListener("change", render);
  $("board-form").addEventListener("submit", (event) => {
    event.preventDefault();
    setBoard($("board").value);
  });
  $("goal-form").addEventListener("submit", (event) => {
    event.preventDefault();
    setGoal($("goal").value);
  });
  // Enter sets the board or goal written, as in a one-line field; the
  // field grows to show all it holds.
  for (const id of ["board", "goal"]) {
    fit($(id));
    $(id).addEventListener("input", () => fit($(id)));
    window.addEventListener("resize", () => fit($(id)));
    $(id).addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        $(`${id}-form`).requestSubmit();
      }
    });
  }
  $("next").addEventListener("click", () => {
    $("seed").value = "";
    scramble();
  });
  $("scramble-form").addEventListener("submit", (event) => {
    event.preventDefault();
    scramble();
  });
  $("solve").addEventListener("click", solve);
  $("cancel").addEventListener("click", () => halt(state.solving));
  $("play").addEventListener("click", toggle);
  $("first").addEventListener("click", () => { stop(); show(0); });
  $("back").addEventListener("click", () => { stop(); show(state.frame - 1); });
  $("forward").addEventListener("click", () => { stop(); show(state.frame + 1); });
  $("restart").addEventListener("click", () => setStart(state.start));
  $("hide-distance").addEventListener("change", () => {
    document.body.classList.toggle("hide-distance", $("hide-distance").checked);
  });
  $("export-csv").addEventListener("click", exportCsv);
  $("export-json").addEventListener("click", exportJson);
  $("import").addEventListener("change", () => {
    const file = $("import").files[0];
    if (file) importJson(file);
    $("import").value = "";
  });
  $("clear").addEventListener("click", () => {
    if (state.session.length && confirm(`Clear the ${state.session.length} solves of this session?`)) {
      state.session = [];
      saveSession();
    }
  });
  loadSession();
  showSession();
  $("grid").addEventListener("click", (event) => {
    const cell = event.target.dataset && event.target.dataset.cell;
    if (cell === undefined) return;
    // A tile in the blank's row or column slides with those between.
    const cols = state.shape.cols;
    const blank = state.board.indexOf(0);
    const at = Number(cell);
    const [br, bc, r, c] = [Math.floor(blank / cols), blank % cols, Math.floor(at / cols), at % cols];
    let letters = "";
    if (r === br && c !== bc) letters = (c > bc ? "r" : "l").repeat(Math.abs(c - bc));
    if (c === bc && r !== br) letters = (r > br ? "d" : "u").repeat(Math.abs(r - br));
    play(letters);
  });
  // A swipe on the board slides the tile beside the blank its way.
  let swipe = null;
  $("grid").addEventListener("pointerdown", (event) => {
    swipe = { x: event.clientX, y: event.clientY };
  });
  $("grid").addEventListener("pointerup", (event) => {
    if (!swipe) return;
    const [dx, dy] = [event.clientX - swipe.x, event.clientY - swipe.y];
    swipe = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;
    const key = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "ArrowRight" : "ArrowLeft") : dy > 0 ? "ArrowDown" : "ArrowUp";
    play(ARROWS[key]);
  });
  $("hint").addEventListener("click", hint);
  $("paste-form").addEventListener("submit", (event) => {
    event.preventDefault();
    analysePasted($("paste").value);
  });
  $("chart").addEventListener("click", (event) => {
    const index = event.target.dataset && event.target.dataset.index;
    if (index !== undefined) review(Number(index));
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const layout = LAYOUTS[$("keys").value] || {};
    const letter = ARROWS[event.key] || layout[event.key.toLowerCase()];
    if (letter) {
      event.preventDefault();
      play(letter);
    } else if (event.key === " " && event.target === document.body) {
      event.preventDefault();
      toggle();
    }
  });
  state.board = usualGoal();
  await Promise.all([shapes, scramble()]);
}

// The page as written is painted first, and `start` (the listeners, the
// session, the first board) runs in the task after that frame: a fresh
// browser's first paint waits for none of it (docs/performance.md). A
// hidden page has no frames to wait for.
if (document.visibilityState === "hidden") start();
else requestAnimationFrame(() => setTimeout(start));
