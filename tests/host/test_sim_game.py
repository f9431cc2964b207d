"""A German game in the simulator's page in headless Chromium, played as a person plays it
(the page's buttons and keyboard), read from what the page draws: the keys carry the
letters of the list in use, a challenge's words are checked on the terminal in the
panels' pixel font, the verdict is drawn whole, each player's panel shows the opponent's
time; and the page's own controls (the battery slider, the CHALLENGE button) stay usable."""

import json
import shutil

import pytest

from tests.host.sim_helpers import (HANG_S, KEY_RETRY_S, KEY_UP_S, REPO, Sim, drawn, pixel_of,
                                    terminal_rows)
from tests.host.test_sim_page import CHROMIUM, open_page, playwright_api  # noqa: F401
from wordlist_packer import legend
from wordlist_packer.image import Image

GERMAN = REPO / "tests" / "firmware" / "data" / "lexicon_de.dawg"
MEDIUM, LARGE = 1, 2


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from tests.host.test_sim_page import chromium

    yield from chromium(tmp_path_factory, 1000)


def panel(page, name):
    return page.evaluate("n => window.tileclock.state.panels[n]", name)


def until(page, what, predicate, timeout=HANG_S):
    """Poll the page's state until predicate(state) holds (`timeout` only ends a hang)."""
    import time

    deadline = time.monotonic() + timeout
    state = None
    while True:
        state = page.evaluate("window.tileclock.state")
        if predicate(state):
            return state
        if time.monotonic() >= deadline:
            break
        page.wait_for_timeout(50)
    from tests.host.sim_helpers import panel_lines

    page.screenshot(path=str(shots() / "timeout.png"))
    raise AssertionError("timed out waiting for %s; the terminal shows %s"
                         % (what, panel_lines(state["panels"]["terminal"])))


def key_pixel_fn(page, key):
    rows = page.evaluate("k => window.tileclock.keyRows(k)", key)
    return lambda x, y: int(rows[y][x]) if 0 <= y < len(rows) and 0 <= x < len(rows[0]) else 0


def press(page, button, effect, what):
    """Hold a player's button (keyboard) until its effect shows, then let go."""
    name = {"left": "z", "right": "m", "challenge": "x", "pause": " "}[button]
    page.keyboard.down(name)
    until(page, what, effect)
    page.keyboard.up(name)
    until(page, button + " up", lambda s: button not in s["buttons_down"])


def tap(page, k):
    """A key held until the terminal shows what it did (every key typed here changes it),
    then let go: the keypad's scan has taken it however late the firmware ran.  The same
    key again comes KEY_UP_S after it was let go; if the keypad saw one long press (the
    firmware did not scan it up twice in between), nothing changes within KEY_RETRY_S and
    the key is let go and pressed again (tests/host/sim_helpers.py, keys)."""
    import time

    if _last_key[0] == k:
        page.wait_for_timeout(KEY_UP_S * 1000)
    _last_key[0] = k
    before = terminal_rows(page.evaluate("window.tileclock.state"))
    deadline = time.monotonic() + HANG_S
    while True:
        page.keyboard.down(k)
        try:
            until(page, "the effect of key %s" % k, lambda s: terminal_rows(s) != before,
                  timeout=min(KEY_RETRY_S, max(0.0, deadline - time.monotonic())))
            break
        except AssertionError:
            if time.monotonic() >= deadline:
                raise
            page.keyboard.up(k)
            until(page, "key %s up" % k, lambda s: k not in s["keys_down"])
            page.wait_for_timeout(KEY_UP_S * 1000)
    page.keyboard.up(k)
    until(page, "key %s up" % k, lambda s: k not in s["keys_down"])


_last_key = [None]


def presses(layout, word):
    """The keys that type word: for each letter its key pressed as often as its place on
    the key, B between two letters of one key."""
    where = {t: (k, i) for k, tiles in layout.items() for i, t in enumerate(tiles)}
    out, last = "", None
    for letter in word:
        k, i = where[letter]
        out += ("B" if k == last else "") + k * (i + 1)
        last = k
    return out


def terminal_has(text, size=0):
    if size == 0:
        from tests.host.sim_helpers import panel_lines

        return lambda s: any(text in line for line in panel_lines(s["panels"]["terminal"]))
    return lambda s: drawn(s["panels"]["terminal"], text, size)


@pytest.mark.slow
def test_a_german_game_through_challenges_as_the_page_shows_it(browser, tmp_path):
    device = tmp_path / "device"
    device.mkdir()
    # the longest multi-tap pause: the letters are typed at the pace of a busy machine
    (device / "config.json").write_text(json.dumps({"lang": "de", "multitap_ms": 3000}))
    shutil.copyfile(GERMAN, device / "lexicon.dawg")
    sim = Sim(device)
    try:
        page = open_page(browser, sim)
        page.wait_for_function("window.tileclock.keysDrawn", timeout=HANG_S * 1000)
        until(page, "the terminal ready", terminal_has("Bereit"))
        # every digit key carries its letters, as the clock cuts this list into keys
        layout = legend.image_layout(Image.load(GERMAN))
        assert "".join(layout["0"]) == "ZÄÜÖY"
        for k in "1234567890":
            pixel = key_pixel_fn(page, k)
            assert legend_drawn(pixel, "".join(layout[k])), (k, layout[k])
        assert page.inner_text("#list-name") == "DE FIXTURE-DE 1"

        press(page, "right", lambda s: s["leds"]["left"] == 1, "the left clock running")
        press(page, "left", lambda s: s["leds"]["right"] == 1, "the right clock running")
        # each player's panel shows the opponent's time (the left one's clock stopped)
        state = until(page, "the opponent's time", lambda s: drawn(s["panels"]["right"], "GEGNER"))
        left_time = bytes_time(state, "left")
        assert drawn(state["panels"]["right"], left_time), left_time

        # the right player challenges the left one's play: ZÜGE, a word of the list
        press(page, "challenge", terminal_has("ANFECHTUNG"), "the challenge")
        tap(page, "1")
        for k in presses(layout, "ZÜGE"):
            tap(page, k)
        tap(page, "#")
        # the screen's header and its word list come in separate frames: wait for the list
        state = until(page, "the opponent's check",
                      lambda s: terminal_has("Gegner pr")(s)
                      and drawn(s["panels"]["terminal"], "1 ZÜGE", MEDIUM))
        assert not drawn(state["panels"]["terminal"], "1 ZUGE", MEDIUM)
        tap(page, "C")
        until(page, "the confirmation", terminal_has("# = pr"))    # as a person looks
        tap(page, "#")
        state = until(page, "the verdict", terminal_has("ZULÄSSIG", LARGE))
        assert drawn(state["panels"]["terminal"], "ZULÄSSIG", LARGE)
        assert terminal_has("10 Strafpunkte")(state)
        page.screenshot(path=str(shots() / "verdict-de.png"))
        tap(page, "1")                                        # any key: back
        until(page, "the idle screen", terminal_has("Bereit"))

        # the right player moves (its clock ran after the verdict), then the left one;
        # the right one challenges a word not in the list
        press(page, "right", lambda s: s["leds"]["left"] == 1, "the left clock running")
        press(page, "left", lambda s: s["leds"]["right"] == 1, "the right clock running")
        press(page, "challenge", terminal_has("ANFECHTUNG"), "the second challenge")
        tap(page, "1")
        for k in presses(layout, "MAUJ"):
            tap(page, k)
        tap(page, "#")
        until(page, "the opponent's check", terminal_has("1 MAUJ", MEDIUM))
        tap(page, "C")
        until(page, "the confirmation", terminal_has("# = pr"))
        tap(page, "#")
        state = until(page, "the verdict", terminal_has("UNZULÄSSIG", LARGE))
        page.screenshot(path=str(shots() / "verdict-de-unzulaessig.png"))
        # the idle screen shows both times and the challenge penalty of the right side
        tap(page, "1")
        state = until(page, "the idle screen", terminal_has("Bereit"))
        assert drawn(state["panels"]["terminal"], "-10", MEDIUM)
        page.close()
    finally:
        err = sim.stop()
    assert "Traceback" not in err, err[-3000:]


def legend_drawn(pixel, letters):
    from panel_read import find

    return find(pixel, letters, MEDIUM) is not None


def bytes_time(state, name):
    """The time a player's panel shows in its large digits ("29:58"), read from the
    seven segments (at any of the four pixel-shift positions)."""
    from render import sevenseg

    px = pixel_of(state["panels"][name])
    for dx in (0, 1):
        digits = read_digits(px, sevenseg, dx)
        if digits:
            return "%d%d:%d%d" % tuple(digits)
    raise AssertionError("no digits on the %s panel" % name)


def read_digits(px, s, dx):
    from render.player import TIME_X, TIME_Y

    w, h, t = s.DIGIT_W, s.DIGIT_H, s.STROKE
    out = []
    for dy in (0, 1):
        x = TIME_X + dx + s.SIGN_W + s.GAP
        y = TIME_Y + dy
        out = []
        for i in range(4):
            probes = ((x + w // 2, y + t // 2), (x + w - t // 2 - 1, y + h // 4),
                      (x + w - t // 2 - 1, y + 3 * h // 4), (x + w // 2, y + h - t // 2 - 1),
                      (x + t // 2, y + 3 * h // 4), (x + t // 2, y + h // 4), (x + w // 2, y + h // 2))
            bits = sum(1 << j for j in range(7) if px(*probes[j]))
            if bits not in s.SEGMENTS:
                out = []
                break
            out.append(s.SEGMENTS.index(bits))
            x += w + s.GAP + (s.COLON_W + s.GAP if i == 1 else 0)
        if out:
            return out
    return []


def shots():
    path = REPO / "build" / "sim-screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def test_the_battery_slider_leaves_the_keys_to_the_clock_and_labels_fit(browser, tmp_path):
    from tests.host.sim_helpers import FIXTURE_MAIN

    sim = Sim(tmp_path / "device", main=FIXTURE_MAIN)
    try:
        page = open_page(browser, sim)
        # the slider once touched: the arrows still go to the players, not to the voltage
        page.click("#battery")            # sets the slider's middle: wait until it is taken
        page.wait_for_function("String(window.tileclock.state.battery_mv) === "
                               "document.getElementById('battery').value")
        mv = page.evaluate("window.tileclock.state.battery_mv")
        page.keyboard.down("ArrowLeft")
        until(page, "the left button held", lambda s: "left" in s["buttons_down"])
        page.keyboard.up("ArrowLeft")
        until(page, "the left button released", lambda s: "left" not in s["buttons_down"])
        assert page.evaluate("document.getElementById('battery').value") == str(
            page.evaluate("window.tileclock.state.battery_mv"))
        page.keyboard.press("7")                               # a keypad key too
        assert page.evaluate("window.tileclock.state.battery_mv") in (mv, int(mv))
        # every control's label fits its button
        for sel in ("#btn-challenge", "#btn-pause", "#btn-left", "#btn-right", "#power-cut"):
            over = page.evaluate("s => { const e = document.querySelector(s);"
                                 " return [e.scrollWidth, e.clientWidth]; }", sel)
            assert over[0] <= over[1], (sel, over)
        page.close()
    finally:
        sim.stop()
