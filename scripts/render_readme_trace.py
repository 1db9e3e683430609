"""Render the docs' picture of the backward trace page: one step, in headless Chromium.

Needs Debian's ``chromium`` and ``chromium-driver`` (apt) and selenium (the test extra)::

    .venv/bin/python scripts/render_readme_trace.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from micrograph import Value
from micrograph.viz import trace_backward

OUT = Path(__file__).resolve().parent.parent / "docs" / "images" / "backward_trace.png"
STEP = 3  # AddBackward0 of a: it receives 2, writes a.grad (retain_grad), sends 2 to x and w
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1300,760")


def main() -> None:
    w, x = Value(1.0, requires_grad=True), Value(2.0, requires_grad=True)
    a, b = x + w, w + 1
    y = a * b
    a.retain_grad()
    trace = trace_backward(y, names={"w": w, "x": x, "a": a, "b": b, "y": y})
    with tempfile.TemporaryDirectory() as tmp:
        page = trace.save_html(Path(tmp) / "backward.html", title="y.backward(), step by step")
        options = webdriver.ChromeOptions()
        for flag in (*FLAGS, f"--user-data-dir={tmp}/profile"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            driver.get(page.as_uri())
            for _ in range(STEP):
                driver.find_element(By.ID, "next").click()
            driver.save_screenshot(str(OUT))
        finally:
            driver.quit()
    print(OUT)


if __name__ == "__main__":
    main()
