"""The simulator's page in headless Chromium (Debian's chromium, driven by
Playwright): buttons by mouse and keyboard, the keypad, the panels' pixels,
a power cut, and a screenshot of the real firmware."""

import os
import shutil
from pathlib import Path

import pytest

from tests.host.sim_helpers import FIXTURE_MAIN, REPO, Sim, bar

CHROMIUM = os.environ.get("TILECLOCK_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

playwright_api = pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)",
                allow_module_level=True)


def chromium(tmp_path_factory, height):
    """Headless Chromium with its own profile folder, for a module's tests."""
    profile = tmp_path_factory.mktemp("chromium-profile")
    with playwright_api.sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True,
            args=ARGS, viewport={"width": 1280, "height": height})
        yield ctx
        ctx.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    yield from chromium(tmp_path_factory, 900)


def open_page(browser, sim):
    page = browser.new_page()
    page.goto(sim.url)
    page.wait_for_function("window.tileclock && window.tileclock.ready", timeout=60000)
    return page


def panel(page, name):
    return page.evaluate("n => window.tileclock.state.panels[n]", name)


def wait_js(page, expr, arg=None, timeout=60000):
    page.wait_for_function(expr, arg=arg, timeout=timeout)


BAR = """([name, y]) => { const t = window.tileclock; let n = 0;
  while (n < 128 && t.pixel(name, n, y)) n++; return n; }"""


def bar_is(page, name, y, n, timeout=60000):
    page.wait_for_function("([name, y, n]) => (" + BAR + ")([name, y]) === n",
                           arg=[name, y, n], timeout=timeout)


def test_mouse_and_keyboard_drive_the_fixture(browser, tmp_path):
    sim = Sim(tmp_path / "device", main=FIXTURE_MAIN)
    try:
        page = open_page(browser, sim)
        bar_is(page, "terminal", 16, 8)  # booted once, drawn
        page.click("#btn-left")
        bar_is(page, "left", 0, 8)
        page.keyboard.press("z")
        page.keyboard.press("ArrowLeft")
        bar_is(page, "left", 0, 24)
        page.keyboard.press("m")
        bar_is(page, "right", 0, 8)
        # The LED on the page follows the firmware's pin.
        assert page.evaluate("window.tileclock.state.leds.left") == 1
        assert "on" in page.get_attribute("#led-left", "class")
        # Keypad by mouse (held until scanned) and by keyboard.
        page.hover("#key-7")
        page.mouse.down()
        bar_is(page, "terminal", 0, 8)
        page.mouse.up()
        page.keyboard.down("a")
        bar_is(page, "terminal", 0, 16)
        page.keyboard.up("a")
        # Challenge held: the buzzer shows.
        page.keyboard.down("x")
        page.wait_for_function("window.tileclock.state.buzzer.on || window.tileclock.state.boots > 1",
                               timeout=60000)
        assert sim.state()["resets"] == [], "the fixture restarted: %s" % sim.state()["resets"]
        assert "2700 Hz" in page.inner_text("#buzzer")
        page.keyboard.up("x")
        page.wait_for_function("!window.tileclock.state.buzzer.on", timeout=60000)
        # The page's pixels are the panel model's pixels.
        state = sim.state()
        assert page.evaluate("window.tileclock.state.panels.left.rows") == state["panels"]["left"]["rows"]
        assert bar(state["panels"]["left"], 0) == 24
        # Power cut: the device boots again (boot count in NVS is 2).
        page.click("#power-cut")
        bar_is(page, "terminal", 16, 16)
        assert page.evaluate("window.tileclock.state.boots") == 2
        assert bar(sim.state()["panels"]["left"], 0) == 0
        page.close()
    finally:
        sim.stop()


def test_real_firmware_screenshot(browser, tmp_path):
    shots = REPO / "build" / "sim-screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    sim = Sim(tmp_path / "device")
    try:
        page = open_page(browser, sim)
        # All three panels lit by the firmware.
        page.wait_for_function(
            "['left','right','terminal'].every(n => window.tileclock.lit(n) > 20)", timeout=30000)
        page.screenshot(path=str(shots / "boot.png"))
        # The page names the host link's port and the command to try on it.
        assert page.inner_text("#link-port") == sim.link_port
        assert page.inner_text("#link-try") == "clockctl devices --port " + sim.link_port
        before = panel(page, "left")["rows"]
        # The right player ends the first turn: left's clock runs.  Held until the
        # firmware reacts (its debounce rejects a press of no length).
        page.keyboard.down("m")
        page.wait_for_function("r => JSON.stringify(window.tileclock.state.panels.left.rows) !== "
                               "JSON.stringify(r)", arg=before, timeout=60000)
        page.keyboard.up("m")
        page.screenshot(path=str(shots / "running.png"))
        assert (shots / "running.png").stat().st_size > 10000
        page.close()
    finally:
        err = sim.stop()
    assert "Traceback" not in err, err[-3000:]
