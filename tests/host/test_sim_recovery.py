"""The real firmware in the simulator, operated through the page's API as a person
operates it, read back from the panels as they show it: a power cut in the middle of
typing a challenge comes back to the typing, and the challenge ends with a verdict and
a running clock; an empty battery says so, goes to deep sleep, and the pause switch
wakes the device with the game still there (docs/simulator.md, docs/runtime.md)."""

from __future__ import annotations

import json
import time

import pytest

from tests.host.sim_helpers import Sim, band, panel_lines, press


def terminal(state) -> list[str]:
    return panel_lines(state["panels"]["terminal"])


def shows(text):
    return lambda s: any(text in line for line in terminal(s))


@pytest.fixture
def sim(tmp_path):
    device = tmp_path / "device"
    device.mkdir()
    (device / "config.json").write_text(json.dumps({"lang": "en"}))
    s = Sim(device)
    yield s
    err = s.stop()
    assert "Traceback" not in err, err[-3000:]


def key(sim, label, effect, what):
    sim.post("/api/key", {"key": label, "down": True})
    state = sim.wait_for(effect, what=what)
    sim.post("/api/key", {"key": label, "down": False})
    sim.wait_for(lambda s: label not in s["keys_down"], what="key up")
    return state


@pytest.mark.slow
def test_a_power_cut_while_a_challenge_is_typed_comes_back_to_the_typing(sim):
    sim.wait_for(shows("Ready"), timeout=60, what="the terminal ready")
    press(sim, "right", lambda s: s["leds"]["left"] == 1, "the left clock running")
    press(sim, "left", lambda s: s["leds"]["right"] == 1, "the right clock running")
    press(sim, "challenge", shows("CHALLENGE"), "the challenge")
    state = key(sim, "1", shows("Word 1/1"), "the word entry")
    # the word's line (MEDIUM, rows 8-19) as the page draws it
    empty = band(state["panels"]["terminal"], 8, 20)
    state = key(sim, "2", lambda s: band(s["panels"]["terminal"], 8, 20) != empty, "a letter")
    first = band(state["panels"]["terminal"], 8, 20)
    state = key(sim, "3", lambda s: band(s["panels"]["terminal"], 8, 20) != first,
                "a second letter")
    word = band(state["panels"]["terminal"], 8, 20)
    assert state["leds"]["left"] == 0 and state["leds"]["right"] == 0     # clocks stopped

    sim.post("/api/power-cut", {})
    state = sim.wait_for(lambda s: s["boots"] == 2 and shows("Word 1/1")(s), timeout=60,
                         what="the word entry after the cut")
    assert band(state["panels"]["terminal"], 8, 20) == word
    key(sim, "#", shows("Opponent checks"), "the opponent's check")
    key(sim, "C", shows("# = check"), "the confirmation")
    # the verdict (its first line drawn double size): penalty or withdrawal, whose clock
    state = key(sim, "#", shows("Key: continue"), "the verdict")
    assert shows("penalty pts")(state) or shows("Play withdrawn")(state), terminal(state)
    sim.wait_for(lambda s: s["leds"]["left"] == 1 or s["leds"]["right"] == 1,
                 what="a clock running after the verdict")


@pytest.mark.slow
def test_an_empty_battery_sleeps_and_the_pause_switch_wakes_the_game(sim):
    sim.wait_for(shows("Ready"), timeout=60, what="the terminal ready")
    press(sim, "right", lambda s: s["leds"]["left"] == 1, "the left clock running")
    sim.post("/api/battery", {"mv": 3200})
    sim.post("/api/power-cut", {})                 # on again with the cell at 3.2 V
    sim.wait_for(lambda s: s["boots"] == 2 and shows("BATTERY EMPTY")(s), timeout=60,
                 what="the empty battery's message")
    state = sim.wait_for(lambda s: s["status"].startswith("deep sleep"), timeout=60,
                         what="deep sleep")
    assert not any(p["on"] for p in state["panels"].values())          # the panels are off
    assert state["resets"][-1]["why"] == "deep sleep"
    sim.post("/api/battery", {"mv": 3900})        # on the charger
    sim.post("/api/button", {"name": "pause", "down": True})
    state = sim.wait_for(lambda s: s["boots"] == 3 and s["status"] == "running"
                         and shows("Ready")(s), timeout=60, what="woken by the pause switch")
    assert state["cause"] == "deep sleep"
    sim.post("/api/button", {"name": "pause", "down": False})
    state = sim.state()
    assert state["leds"]["left"] == 0 and state["leds"]["status"] == 1   # still paused
    # the same switch again: the firmware takes a press only after it saw the switch up
    # in two scans (10 ms apart) of the simulator's real-time firmware
    sim.wait_for(lambda s: "pause" not in s["buttons_down"], what="the switch up")
    time.sleep(0.1)
    press(sim, "pause", lambda s: s["leds"]["left"] == 1, "the left clock running again")
