"""The time from a solve's last move to its analysis drawn, on the page of
`eight serve`, in headless Chromium.

    eight serve --listen 127.0.0.1:8090 &
    python3 docs/analysis_timing.py http://127.0.0.1:8090 BOARD MOVES [RUNS]

Sets BOARD (4x4, single-tile metric), plays MOVES (blank letters) by the
arrow keys, and measures in the page's own clock from the keydown of the
last move to the chart holding a point a move; prints each run and their
median. Needs selenium, Chromium and its driver (as tests/browser does).
"""

import os
import statistics
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# The page's arrows move a tile: the blank goes the other way.
KEYS = {"r": "\ue012", "l": "\ue014", "d": "\ue013", "u": "\ue015"}

WATCH = """
window.lastKey = 0; window.drawn = 0;
document.addEventListener('keydown', () => { window.lastKey = performance.now(); }, true);
new MutationObserver(() => {
  if (document.querySelectorAll('#chart circle.point').length === arguments[0] && !window.drawn)
    window.drawn = performance.now();
}).observe(document.getElementById('chart'), {childList: true, subtree: true});
"""


def main():
    url, board, moves = sys.argv[1], sys.argv[2], sys.argv[3]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
        options.add_argument(flag)
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    browser = webdriver.Chrome(options=options, service=service)
    seconds = []
    try:
        for run in range(runs):
            browser.get(url)
            wait = WebDriverWait(browser, 60)
            wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#grid .tile"))
            field = browser.find_element(By.ID, "board")
            field.clear()
            field.send_keys(board)
            browser.find_element(By.ID, "set-board").click()
            wait.until(lambda b: b.find_element(By.ID, "count").text == "0")
            browser.execute_script(WATCH, len(moves) + 1)
            body = browser.find_element(By.TAG_NAME, "body")
            body.send_keys("".join(KEYS[m] for m in moves))
            wait.until(lambda b: b.execute_script("return window.drawn") > 0)
            took = browser.execute_script("return (window.drawn - window.lastKey) / 1000")
            seconds.append(took)
            print(f"run {run + 1}: {took:.3f} s from the last move to the chart")
    finally:
        browser.quit()
    print(f"median {statistics.median(seconds):.3f} s ({min(seconds):.3f}-{max(seconds):.3f})")


if __name__ == "__main__":
    main()
