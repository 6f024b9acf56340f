"""The page of `eight serve` in a real browser (headless Chromium, driven by
WebDriver): a board entered, its answer shown and played to the goal, moves
played by keyboard and judged, a scramble drawn from a seed. Every figure
the page shows is checked against the program on the same board.

    EIGHT_BIN=target/release/eight python -m pytest tests/browser

Needs Chromium and its driver (Debian: chromium, chromium-driver) and
selenium. With EIGHT_SCREENSHOT=PATH, a screenshot of the page goes there.
"""

import json
import os
import shutil
import subprocess
import tempfile
import urllib.parse
import urllib.request

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

EIGHT = os.environ.get("EIGHT_BIN", os.path.join("target", "release", "eight"))

# An empty data folder of the tests' own, for the page and the program
# alike: what is built in answers, the same on every machine (databases
# made on this one would answer the long search below too fast to watch).
DATA = tempfile.mkdtemp(prefix="eight-page-")
ENV = {**os.environ, "EIGHT_DATA": DATA}


def program(args, stdin=""):
    """The program's output on `stdin`."""
    return subprocess.run(
        [EIGHT, *args], input=stdin, capture_output=True, text=True, check=True, env=ENV
    ).stdout


@pytest.fixture(scope="module")
def server():
    child = subprocess.Popen(
        [EIGHT, "serve", "--listen", "127.0.0.1:0"], stderr=subprocess.PIPE, text=True, env=ENV
    )
    line = child.stderr.readline()
    url = line.split(" ")[2]
    yield url
    child.terminate()
    assert child.wait(timeout=30) == 0
    shutil.rmtree(DATA, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1000,1100",
    ]:
        options.add_argument(flag)
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    yield driver
    driver.quit()


def text(browser, id):
    return browser.find_element(By.ID, id).text


def wait_for(browser, check, timeout=20):
    # The page redraws the grid as it goes: an element found just before a
    # redraw is stale when read, and the check is tried again.
    waiting = WebDriverWait(browser, timeout, ignored_exceptions=(StaleElementReferenceException,))
    return waiting.until(lambda _: check())


def tiles(browser):
    return [tile.text or "x" for tile in browser.find_elements(By.CSS_SELECTOR, "#grid .tile")]


def set_board(browser, board):
    field = browser.find_element(By.ID, "board")
    field.clear()
    field.send_keys(board)
    browser.find_element(By.ID, "set-board").click()


def test_a_board_is_solved_shown_and_played_to_the_goal(server, browser):
    browser.get(server)
    wait_for(browser, lambda: len(tiles(browser)) == 9 and text(browser, "distance") not in ("", "…", "–"))
    board = "2 3 4 1 5 x 7 6 8"
    set_board(browser, board)
    want = program([], board + "\n").strip()
    wait_for(browser, lambda: text(browser, "distance") == str(len(want)))
    browser.find_element(By.ID, "solve").click()
    wait_for(browser, lambda: text(browser, "length") == str(len(want)))
    assert text(browser, "moves").replace(" ", "") == want
    # Played at full speed to its end: the board drawn is the goal.
    browser.execute_script("document.getElementById('speed').value = 20")
    browser.find_element(By.ID, "play").click()
    wait_for(browser, lambda: text(browser, "step") == f"{len(want)} / {len(want)}")
    assert tiles(browser) == ["1", "2", "3", "4", "5", "6", "7", "8", "x"]
    wait_for(browser, lambda: text(browser, "distance") == "0")
    # Stepped back one move: one move from the goal.
    browser.find_element(By.ID, "back").click()
    wait_for(browser, lambda: text(browser, "distance") == "1")
    # In the speedsolvers' notation, as the program spells it.
    Select(browser.find_element(By.ID, "notation")).select_by_value("tile-runs")
    runs = program(["--notation", "tile-runs"], board + "\n").strip()
    wait_for(browser, lambda: text(browser, "moves") == runs)
    Select(browser.find_element(By.ID, "notation")).select_by_value("blank")


def test_moves_played_by_keyboard_are_measured_and_judged(server, browser):
    browser.get(server)
    wait_for(browser, lambda: len(tiles(browser)) == 9)
    # A mouse and a keyboard: the arrow keys are told of, not a swipe.
    assert text(browser, "how-to-play").startswith("Arrow keys slide")
    set_board(browser, "1 2 3 4 5 6 7 x 8")
    wait_for(browser, lambda: text(browser, "distance") == "1")
    grid = browser.find_element(By.ID, "grid")
    browser.execute_script("arguments[0].focus()", grid)
    # The arrow slides a tile its way: right slides 7 right, the blank left.
    grid.send_keys(Keys.ARROW_RIGHT)
    wait_for(browser, lambda: text(browser, "distance") == "2")
    assert text(browser, "closer") == "farther"
    grid.send_keys(Keys.ARROW_LEFT)
    wait_for(browser, lambda: text(browser, "distance") == "1")
    assert text(browser, "closer") == "closer"
    grid.send_keys(Keys.ARROW_LEFT)
    verdict = program(["--judge"], "1 2 3 4 5 6 7 x 8 lrr\n").strip()
    wait_for(browser, lambda: verdict in text(browser, "verdict"))
    assert text(browser, "yours") == "l r r"
    assert tiles(browser) == ["1", "2", "3", "4", "5", "6", "7", "8", "x"]


def test_a_scramble_is_the_programs_for_its_seed(server, browser):
    browser.get(server)
    wait_for(browser, lambda: len(tiles(browser)) == 9)
    seed = browser.find_element(By.ID, "seed")
    seed.clear()
    seed.send_keys("7")
    browser.find_element(By.ID, "scramble").click()
    want = program(["--random", "1", "--seed", "7"]).split()
    wait_for(browser, lambda: tiles(browser) == want)
    assert browser.find_element(By.ID, "seed").get_attribute("value") == "7"
    # Another shape: a 4x4 board, searched, solved as the program solves it.
    Select(browser.find_element(By.ID, "shape")).select_by_value("4x4")
    wait_for(browser, lambda: len(tiles(browser)) == 16)
    board = "1 2 3 4 5 6 7 8 9 10 11 12 x 13 14 15"
    set_board(browser, board)
    wait_for(browser, lambda: text(browser, "distance") == "3")
    browser.find_element(By.ID, "solve").click()
    wait_for(browser, lambda: text(browser, "length") == "3")
    assert text(browser, "moves").replace(" ", "") == program([], board + "\n").strip()
    paint = browser.execute_script(
        "return performance.getEntriesByType('paint').map(e => [e.name, e.startTime])"
    )
    print("paint timings (ms):", paint)
    shot = os.environ.get("EIGHT_SCREENSHOT")
    if shot:
        Select(browser.find_element(By.ID, "shape")).select_by_value("3x3")
        wait_for(browser, lambda: len(tiles(browser)) == 9)
        set_board(browser, "8 6 7 2 5 4 3 x 1")
        wait_for(browser, lambda: text(browser, "distance") == "31")
        browser.find_element(By.ID, "solve").click()
        wait_for(browser, lambda: text(browser, "length") == "31")
        for _ in range(12):
            browser.find_element(By.ID, "forward").click()
        wait_for(browser, lambda: text(browser, "step") == "12 / 31")
        browser.save_screenshot(shot)


def test_a_long_search_shows_its_progress_and_is_cancelled(server, browser):
    browser.get(server)
    wait_for(browser, lambda: len(tiles(browser)) == 9)
    wait_for(browser, lambda: "3x3 table built into the program" in text(browser, "answered"))
    Select(browser.find_element(By.ID, "shape")).select_by_value("4x4")
    wait_for(browser, lambda: len(tiles(browser)) == 16)
    # What answers the shape in each metric, and what makes it faster.
    assert "(6-6-3)" in text(browser, "answered")
    assert "eight-gen --shape 4x4 --blank 15" in text(browser, "answered")
    # One of the farthest 4x4 boards, in the multi-tile metric: seconds.
    Select(browser.find_element(By.ID, "metric")).select_by_value("mtm")
    assert "eight-gen --metric mtm --shape 4x4 --blank 15" in text(browser, "answered")
    set_board(browser, "x 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1")
    wait_for(browser, lambda: tiles(browser)[:3] == ["x", "12", "9"])
    browser.find_element(By.ID, "solve").click()
    wait_for(browser, lambda: text(browser, "progress").startswith("searching"))
    browser.find_element(By.ID, "cancel").click()
    wait_for(browser, lambda: text(browser, "progress") == "cancelled")
    assert text(browser, "length") == "–"


def test_a_shape_without_its_data_says_so_and_scrambles_near_the_goal(server, browser):
    browser.get(server)
    wait_for(browser, lambda: len(tiles(browser)) == 9)
    # 5x5 out of the box: a random board is far, its data is not made here;
    # the page says which command makes it, never "undefined".
    Select(browser.find_element(By.ID, "shape")).select_by_value("5x5")
    wait_for(browser, lambda: len(tiles(browser)) == 25)
    assert_board_field_shows_it_all(browser, 25)
    wait_for(browser, lambda: "eight-gen --shape 5x5" in text(browser, "error"), timeout=120)
    assert "undefined" not in browser.find_element(By.TAG_NAME, "body").text
    # A scramble near the goal, by depth: a walk that long, answered.
    depth = browser.find_element(By.ID, "depth")
    depth.clear()
    depth.send_keys("12")
    browser.find_element(By.ID, "next").click()
    wait_for(browser, lambda: text(browser, "distance") not in ("", "…", "–"), timeout=60)
    assert int(text(browser, "distance")) <= 12
    assert text(browser, "error") == ""
    # Solved, and played by the player to the goal from the answer's letters.
    distance = text(browser, "distance")
    browser.find_element(By.ID, "solve").click()
    wait_for(browser, lambda: text(browser, "length") == distance, timeout=60)
    letters = text(browser, "moves").replace(" ", "")
    keys = {"d": Keys.ARROW_UP, "u": Keys.ARROW_DOWN, "l": Keys.ARROW_RIGHT, "r": Keys.ARROW_LEFT}
    press(browser, [keys[letter] for letter in letters])
    wait_for(browser, lambda: "optimal" in text(browser, "verdict"), timeout=60)


def press(browser, keys):
    """Presses arrow keys on the board, each once its move is drawn."""
    grid = browser.find_element(By.ID, "grid")
    browser.execute_script("arguments[0].focus()", grid)
    for at, key in enumerate(keys, 1):
        grid.send_keys(key)
        wait_for(browser, lambda: text(browser, "count") == str(at))


def fresh_page(server, browser):
    """The page with an empty session, its first board drawn."""
    browser.get(server)
    browser.execute_script("localStorage.clear()")
    browser.get(server)
    wait_for(browser, lambda: len(tiles(browser)) == 9)


def session(browser):
    return browser.execute_script("return JSON.parse(localStorage.getItem('eight-session') || '[]')")


def test_a_timed_solve_is_analysed_and_kept(server, browser):
    fresh_page(server, browser)
    board = "1 2 3 4 5 6 x 7 8"
    set_board(browser, board)
    wait_for(browser, lambda: text(browser, "distance") == "2")
    assert text(browser, "time") == "0.00"
    # Blank right, back, then right twice: r l r r, two moves lost.
    left, right = Keys.ARROW_LEFT, Keys.ARROW_RIGHT
    press(browser, [left, right, left, left])
    wait_for(browser, lambda: not browser.find_element(By.ID, "analysis").get_attribute("hidden"))
    want = json.loads(program(["--analyse", "--json"], f"{board} rlrr\n"))
    assert want["distances"] == [2, 1, 2, 1, 0] and want["lost"] == 2
    points = browser.find_elements(By.CSS_SELECTOR, "#chart circle.point")
    worse = browser.find_elements(By.CSS_SELECTOR, "#chart circle.worse")
    assert len(points) == len(want["distances"])
    assert len(worse) == len(want["worse"])
    assert f"{want['lost']} lost" in text(browser, "analysis-summary")
    assert "longer by 2" in text(browser, "verdict")
    # The clock stopped at the goal; moves a second from its time.
    seconds = float(text(browser, "time"))
    assert seconds > 0
    # The time shown is rounded to hundredths: the moves a second lie
    # between the figures of its two ends.
    assert 4 / (seconds + 0.005) - 0.01 <= float(text(browser, "tps")) <= 4 / (seconds - 0.005) + 0.01
    kept = session(browser)
    assert len(kept) == 1
    assert kept[0]["moves"] == "rlrr" and kept[0]["count"] == 4
    assert kept[0]["optimal"] == 2 and kept[0]["lost"] == 2
    assert abs(kept[0]["time"] / 1000 - seconds) < 0.011
    rows = browser.find_elements(By.CSS_SELECTOR, "#solves tbody tr")
    assert len(rows) == 1
    # A point of the chart shows its board and the shortest answer from
    # there: after r l, back at the start, two moves out.
    browser.find_elements(By.CSS_SELECTOR, "#chart circle.point")[2].click()
    wait_for(browser, lambda: text(browser, "length") == "2")
    assert tiles(browser) == board.split()
    assert text(browser, "moves").replace(" ", "") == "rr"
    # A board played from the answer shown is not timed, and not kept.
    set_board(browser, board)
    wait_for(browser, lambda: text(browser, "distance") == "2" and text(browser, "count") == "0")
    browser.find_element(By.ID, "solve").click()
    wait_for(browser, lambda: text(browser, "length") == "2")
    browser.find_element(By.ID, "forward").click()
    browser.find_element(By.ID, "forward").click()
    wait_for(browser, lambda: text(browser, "distance") == "0")
    assert len(session(browser)) == 1


def test_a_session_averages_exports_and_imports(server, browser, tmp_path):
    fresh_page(server, browser)
    # Five solves of two moves: the clock runs from the first to the last.
    for _ in range(5):
        set_board(browser, "1 2 3 4 5 6 x 7 8")
        wait_for(browser, lambda: text(browser, "distance") == "2" and text(browser, "count") == "0")
        before = len(session(browser))
        press(browser, [Keys.ARROW_LEFT, Keys.ARROW_LEFT])
        wait_for(browser, lambda: len(session(browser)) == before + 1)
    kept = session(browser)
    times = [solve["time"] for solve in kept]
    assert all(time > 0 for time in times), times
    middle = sorted(times)[1:-1]
    assert text(browser, "ao5") == f"{sum(middle) / 3 / 1000:.2f}"
    assert text(browser, "mean") == f"{sum(times) / 5 / 1000:.2f}"
    assert text(browser, "best") == f"{min(times) / 1000:.2f}"
    assert text(browser, "ao12") == "–"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#solves tbody tr")) == 5
    # Exported as JSON, cleared (after a confirmation), imported back.
    browser.find_element(By.ID, "export-json").click()
    href = browser.find_element(By.ID, "download").get_attribute("href")
    exported = json.loads(urllib.parse.unquote(href.split(",", 1)[1]))
    assert exported == kept
    browser.find_element(By.ID, "export-csv").click()
    csv = urllib.parse.unquote(browser.find_element(By.ID, "download").get_attribute("href").split(",", 1)[1])
    assert csv.splitlines()[0].startswith("date,shape,metric,board,moves,time")
    assert len(csv.splitlines()) == 6
    browser.find_element(By.ID, "clear").click()
    browser.switch_to.alert.accept()
    wait_for(browser, lambda: session(browser) == [])
    assert text(browser, "mean") == "–"
    saved = tmp_path / "session.json"
    saved.write_text(json.dumps(exported))
    browser.find_element(By.ID, "import").send_keys(str(saved))
    wait_for(browser, lambda: session(browser) == kept)
    assert text(browser, "ao5") == f"{sum(middle) / 3 / 1000:.2f}"
    logs = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert logs == [], logs
    shot = os.environ.get("EIGHT_TRAINER_SCREENSHOT")
    if shot:
        # A 31-move board solved with two detours, analysed beside the session.
        board = "8 6 7 2 5 4 3 x 1"
        best = program([], board + "\n").strip()
        back = {"d": "u", "u": "d", "l": "r", "r": "l"}
        moves = best[:9] + best[9] + back[best[9]] + best[9:20] + best[20] + back[best[20]] + best[20:]
        keys = {"d": Keys.ARROW_UP, "u": Keys.ARROW_DOWN, "l": Keys.ARROW_RIGHT, "r": Keys.ARROW_LEFT}
        set_board(browser, board)
        wait_for(browser, lambda: text(browser, "distance") == "31" and text(browser, "count") == "0")
        press(browser, [keys[letter] for letter in moves])
        wait_for(browser, lambda: not browser.find_element(By.ID, "analysis").get_attribute("hidden"))
        browser.set_window_size(1000, 1500)
        browser.execute_script("document.querySelector('.yours').scrollIntoView()")
        browser.save_screenshot(shot)
        browser.set_window_size(1000, 1100)


def test_a_click_slides_a_run_and_a_second_layout_plays(server, browser):
    browser.get(server)
    wait_for(browser, lambda: len(tiles(browser)) == 9)
    Select(browser.find_element(By.ID, "metric")).select_by_value("mtm")
    board = "1 2 3 4 5 6 x 7 8"
    set_board(browser, board)
    wait_for(browser, lambda: text(browser, "distance") == "1" and text(browser, "count") == "0")
    # The 8, two cells right of the blank: both tiles slide, one move.
    browser.find_elements(By.CSS_SELECTOR, "#grid .tile")[8].click()
    wait_for(browser, lambda: "optimal" in text(browser, "verdict"))
    assert tiles(browser) == ["1", "2", "3", "4", "5", "6", "7", "8", "x"]
    assert text(browser, "count") == "1" and text(browser, "yours") == "r r"
    Select(browser.find_element(By.ID, "metric")).select_by_value("stm")
    Select(browser.find_element(By.ID, "keys")).select_by_value("wasd")
    set_board(browser, "1 2 3 4 5 6 7 x 8")
    wait_for(browser, lambda: text(browser, "distance") == "1" and text(browser, "count") == "0")
    browser.find_element(By.TAG_NAME, "body").send_keys("a")
    wait_for(browser, lambda: "optimal" in text(browser, "verdict"))
    Select(browser.find_element(By.ID, "keys")).select_by_value("arrows")


def test_the_page_fits_a_phone(server, browser):
    browser.set_window_size(390, 844)
    # A touch screen with no mouse: a swipe is told of, not the arrow keys.
    touch = {"enabled": True, "maxTouchPoints": 1}
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", touch)
    try:
        browser.get(server)
        wait_for(browser, lambda: len(tiles(browser)) == 9)
        told = text(browser, "how-to-play")
        assert told.startswith("A swipe slides") and "Arrow keys" not in told, told
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, width
        grid = browser.find_element(By.ID, "grid").rect
        assert grid["x"] >= 0 and grid["x"] + grid["width"] <= 390
        set_board(browser, "1 2 3 4 5 6 7 x 8")
        wait_for(browser, lambda: text(browser, "distance") == "1")
        # A swipe right slides the 7 right: the blank goes left, one away.
        browser.execute_script(
            """const grid = document.getElementById('grid');
            const at = (type, x) => grid.dispatchEvent(new PointerEvent(type,
                {clientX: x, clientY: 100, bubbles: true, pointerType: 'touch'}));
            at('pointerdown', 100); at('pointerup', 180);"""
        )
        wait_for(browser, lambda: text(browser, "distance") == "2" and text(browser, "count") == "1")
        browser.find_elements(By.CSS_SELECTOR, "#grid .tile")[8].click()
        wait_for(browser, lambda: "longer by 2" in text(browser, "verdict"))
        # A whole 5x5 board shows in its field, and the page still fits.
        Select(browser.find_element(By.ID, "shape")).select_by_value("5x5")
        wait_for(browser, lambda: len(tiles(browser)) == 25)
        assert_board_field_shows_it_all(browser, 25)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
    finally:
        browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        browser.set_window_size(1000, 1100)


def assert_board_field_shows_it_all(browser, tiles):
    """The board's field holds the board drawn, every tile in sight."""
    value, overflow = browser.execute_script(
        """const field = document.getElementById('board');
        return [field.value, field.scrollWidth > field.clientWidth
            || field.scrollHeight > field.clientHeight];"""
    )
    assert len(value.replace("/", " ").split()) == tiles, value
    assert not overflow, value


def test_a_hint_is_counted_and_a_pasted_solve_is_analysed(server, browser):
    fresh_page(server, browser)
    board = "1 2 3 4 5 6 x 7 8"
    set_board(browser, board)
    wait_for(browser, lambda: text(browser, "distance") == "2" and text(browser, "count") == "0")
    browser.find_element(By.ID, "hint").click()
    # The shortest answer starts r: the 7 slides left.
    wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#grid .hinted")) == 1)
    assert browser.find_element(By.CSS_SELECTOR, "#grid .hinted").text == "7"
    assert browser.find_element(By.CSS_SELECTOR, "#grid .hinted").get_attribute("aria-label") == "7, row 3, column 2"
    press(browser, [Keys.ARROW_LEFT, Keys.ARROW_LEFT])
    wait_for(browser, lambda: len(session(browser)) == 1)
    assert session(browser)[0]["hints"] == 1
    # Moves pasted in the tiles' notation, analysed from the board set.
    set_board(browser, board)
    wait_for(browser, lambda: text(browser, "count") == "0")
    field = browser.find_element(By.ID, "paste")
    field.send_keys("L R L2")
    browser.find_element(By.CSS_SELECTOR, "#paste-form button").click()
    want = json.loads(program(["--analyse", "--json"], f"{board} LRL2\n"))
    wait_for(browser, lambda: want["verdict"] in text(browser, "verdict"))
    points = browser.find_elements(By.CSS_SELECTOR, "#chart circle.point")
    assert len(points) == len(want["distances"]) == 5
    assert tiles(browser) == ["1", "2", "3", "4", "5", "6", "7", "8", "x"]
    assert len(session(browser)) == 1, "a pasted solve is not timed"


def test_an_inspection_counts_down_then_the_clock_runs(server, browser):
    browser.get(server)
    wait_for(browser, lambda: len(tiles(browser)) == 9)
    field = browser.find_element(By.ID, "inspection")
    field.clear()
    field.send_keys("1")
    set_board(browser, "1 2 3 4 5 6 x 7 8")
    wait_for(browser, lambda: text(browser, "time").startswith("inspect"))
    # No move made: the clock starts when the inspection ends.
    wait_for(browser, lambda: not text(browser, "time").startswith("inspect") and float(text(browser, "time")) > 0.1)
    press(browser, [Keys.ARROW_LEFT, Keys.ARROW_LEFT])
    wait_for(browser, lambda: "optimal" in text(browser, "verdict"))
    assert float(text(browser, "time")) > 0.1
    field.clear()
    field.send_keys("0")


def test_every_symbol_of_the_page_has_a_font_here(server):
    """A symbol no installed font draws shows as a box: each character of
    the page beyond ASCII must be in some font of this machine's (the fonts
    Debian's Chromium draws with)."""
    if shutil.which("fc-list") is None:
        pytest.skip("fc-list (fontconfig) is not installed: the fonts cannot be listed")
    page = urllib.request.urlopen(server).read().decode()
    symbols = sorted({c for c in page if ord(c) > 127})
    assert symbols, "the page has symbols to check"
    missing = [
        f"{c} (U+{ord(c):04X})"
        for c in symbols
        if not subprocess.run(
            ["fc-list", f":charset={ord(c):x}"], capture_output=True, text=True
        ).stdout.strip()
    ]
    assert not missing, f"no font here draws {', '.join(missing)}"
