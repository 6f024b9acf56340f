"""The page of `eight serve` painted, and its first board drawn, in headless
Chromium on loopback.

    eight serve --listen 127.0.0.1:8090 &
    python3 docs/paint_timing.py http://127.0.0.1:8090 [BROWSERS] [LOADS]
    python3 docs/paint_timing.py URL,URL2,... [BROWSERS] [LOADS]

Starts BROWSERS fresh browsers (3 unless said) one after the other; each
loads the page LOADS times (12 unless said), with its cache off, and
reads the page's own clock: the first paint
(`performance.getEntriesByType('paint')`) and the board's tiles in the
grid. The first load of each browser (a browser just started) is
reported apart from the loads after it. Pages given together, comma
between, are loaded in turn, each by its own browsers, in a new order
each round. Any other page (one with no board) gets its first paint
alone: a page of one line served by `python3 -m http.server` gives what
Chromium itself takes. Needs selenium, Chromium and its driver (as
tests/browser does).
"""

import os
import random
import statistics
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

# The page's clock when the grid first holds tiles.
WATCH = """
window.boardAt = 0;
const grid = document.getElementById('grid');
if (grid) {
  const seen = () => grid.querySelector('[data-cell]') && !window.boardAt
    && (window.boardAt = performance.now());
  new MutationObserver(seen).observe(grid, {childList: true, subtree: true});
  seen();
}
"""

READ = """
const paint = performance.getEntriesByType('paint').find((e) => e.name === 'first-paint');
const board = document.getElementById('grid') ? window.boardAt || null : -1;
return [paint ? paint.startTime : null, board];
"""


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    flags = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
    for flag in flags + ["--no-first-run", "--window-size=1000,1100"]:
        options.add_argument(flag)
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    # The watch starts with the page, before its script draws the board.
    driver.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument",
        {"source": "document.addEventListener('DOMContentLoaded', () => {" + WATCH + "});"},
    )
    return driver


def load(driver, url):
    driver.get(url)
    for _ in range(500):
        paint, board = driver.execute_script(READ)
        if paint is not None and board is not None:
            return paint, (board if board >= 0 else None)
        time.sleep(0.01)
    raise SystemExit(f"{url}: no paint or no board after 5 s")


def summary(name, values):
    values = sorted(values)
    return f"{name}: median {statistics.median(values):.0f} ms, {values[0]:.0f}-{values[-1]:.0f} ms ({len(values)} loads)"


def main():
    urls = sys.argv[1].split(",")
    browsers = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    loads = int(sys.argv[3]) if len(sys.argv) > 3 else 12
    first = {url: [] for url in urls}
    later = {url: [] for url in urls}
    for _ in range(browsers):
        # Pages compared take turns in a new order each round, so that
        # whatever else the machine does falls on them alike.
        for url in random.sample(urls, len(urls)):
            driver = browser()
            try:
                for i in range(loads):
                    paint, board = load(driver, url)
                    drawn = f", board {board:.0f} ms" if board is not None else ""
                    print(f"{url} load {i + 1}: first paint {paint:.0f} ms{drawn}")
                    (first if i == 0 else later)[url].append((paint, board))
            finally:
                driver.quit()
    for url in urls:
        print(url)
        for name, runs in [("a browser's first load", first[url]), ("its later loads", later[url])]:
            if runs:
                print("  " + name)
                print("    " + summary("first paint", [p for p, _ in runs]))
                if runs[0][1] is not None:
                    print("    " + summary("board drawn", [b for _, b in runs]))


if __name__ == "__main__":
    main()
