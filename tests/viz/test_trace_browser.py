"""The trace page in a real browser: Debian's headless Chromium, driven over WebDriver.

Skips when Chromium, its driver or selenium is missing (``.ci/run`` installs them).
"""

import re
import shutil

import pytest

import micrograph as mg
from micrograph.i18n import using
from micrograph.viz import trace_backward

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = [pytest.mark.skipif(CHROMIUM is None or DRIVER is None, reason="needs chromium and chromedriver (apt)"),
              pytest.mark.xdist_group("trace-browser")]  # one Chromium for the module
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1300,900")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    options = webdriver.ChromeOptions()
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.binary_location = CHROMIUM
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def page_of(tmp_path, **kwargs):
    w, x = mg.Value(1.0, requires_grad=True), mg.Value(2.0, requires_grad=True)
    a, b = x + w, w + 1
    y = a * b
    names = {"w": w, "x": x, "a": a, "b": b, "y": y}
    trace = trace_backward(y, names=names, **kwargs)
    return trace, trace.save_html(tmp_path / "backward.html")


SHOWN = """
const title = g => g.querySelector("title").textContent;
const grads = {};
for (const g of document.querySelectorAll("g.node")) {
  for (const t of g.querySelectorAll("text")) {
    if (t.textContent.startsWith("grad ")) grads[title(g)] = t.textContent;
  }
}
return [document.body.getAttribute("data-position"),
        Array.from(document.querySelectorAll("g.node.running"), title), grads,
        Array.from(document.querySelectorAll("#trace-overlay .edge-grad"), t => t.textContent)];
"""


def shown(driver):
    """What the page shows: the position, the highlighted nodes, the grad lines, the edge gradients
    (read by one script: a WebDriver call per element cost a round trip to the browser each)."""
    position, running, grads, edge_labels = driver.execute_script(SHOWN)
    return int(position), sorted(running), grads, edge_labels


def test_next_highlights_each_node_and_fills_gradients_as_the_trace_says(browser, tmp_path):
    trace, path = page_of(tmp_path)
    browser.get(path.as_uri())
    position, running, grads, labels = shown(browser)
    assert position == 0 and running == [] and set(grads.values()) == {"grad None"} and labels == []
    nodes = trace.data["nodes"]
    written = {}
    for k, step in enumerate(trace.steps, start=1):
        browser.find_element(By.ID, "next").click()
        position, running, grads, labels = shown(browser)
        node = nodes[step["node"]]
        assert position == k
        assert running == sorted(i for i in (node["op"], node["value"]) if i)
        if step["wrote"]:
            written[step["wrote"]["value"]] = f"grad {step['wrote']['grad']:g}"
        assert {i: grads[i] for i in written} == written
        assert all(text == "grad None" for i, text in grads.items() if i not in written)
        sent = [f"\u2190 {e['grad']:g}" for s in trace.steps[:k] for e in s["sent"] if e["grad"] is not None]
        assert sorted(labels) == sorted(sent)
    assert browser.find_element(By.ID, "next").get_attribute("disabled") == "true"
    by_label = {s["wrote"]["label"]: written[s["wrote"]["value"]] for s in trace.steps if s["wrote"]}
    assert by_label == {"w": "grad 5", "x": "grad 2"}


def test_keyboard_and_slider_move_between_steps(browser, tmp_path):
    _, path = page_of(tmp_path)
    browser.get(path.as_uri())
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("\ue014")  # ArrowRight
    body.send_keys("\ue014")
    assert shown(browser)[0] == 2
    body.send_keys("\ue012")  # ArrowLeft
    assert shown(browser)[0] == 1
    browser.execute_script("const s = document.getElementById('slider'); s.value = 5; s.dispatchEvent(new Event('input'));")
    assert shown(browser)[0] == 5


def test_a_failing_backward_ends_on_the_failing_node(browser, tmp_path):
    w = mg.Value(1.0, requires_grad=True)
    y = (w * 3).exp()
    y.backward()
    trace = trace_backward(y, errors="record", names={"y": y})
    path = trace.save_html(tmp_path / "failed.html")
    browser.get(path.as_uri())
    browser.find_element(By.ID, "next").click()
    what = browser.find_element(By.ID, "what")
    assert "RuntimeError: Trying to backward through the graph a second time" in what.text
    failing = browser.find_elements(By.CSS_SELECTOR, "g.node.failing title")
    node = trace.data["nodes"][trace.error["node"]]
    assert sorted(t.get_attribute("textContent") for t in failing) == sorted([node["op"], node["value"]])


ENGLISH_RUN = re.compile(r"(?<![\w.(])[A-Za-z]{2,}(?:[ ,]+[A-Za-z]{2,}){2,}")  # three English words in a row


def test_the_zh_page_says_every_step_in_chinese(browser, tmp_path):
    with using("zh"):
        trace, path = page_of(tmp_path)
    browser.get(path.as_uri())
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-CN"
    seen = []
    for _ in range(len(trace.steps) + 1):
        text = browser.find_element(By.TAG_NAME, "body").text
        seen.append(text)
        assert ENGLISH_RUN.findall(text) == [], text
        browser.find_element(By.ID, "next").click()
    assert "就绪队列" in seen[0] and "第 0 步，共" in seen[0] and "起点是" in seen[0]
    assert any("运行，收到的梯度是" in text for text in seen), seen
    assert any("写入 w.grad = 5（AccumulateGrad）" in text for text in seen), seen
    assert "到目前为止写入的 .grad" in seen[-1] and "空：反向传播结束" in seen[-1]
