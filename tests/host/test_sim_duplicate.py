"""A duplicate game in the simulator (docs/clock-engine.md, Duplicate game): the real
firmware started with `--preset duplicate`, operated through the page's API as the
players and the referee operate it, and read back from the panels as they show them:
both player panels show the same countdown (the seven-segment digits decoded) and the
move's number on their top line; the buttons start a move and do nothing during it;
the referee takes time from the move on the keypad; the warning sounds with 30 s left
and the move ends at 00:00 with its own tone and TIME UP; the next move starts from
the full time; the referee ends the game and the terminal shows the moves."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.host.sim_helpers import REPO, Sim, drawn, keys, panel_lines, pixel, pixel_of, press

sys.path.insert(0, str(REPO / "firmware"))
from render import sevenseg  # noqa: E402  (pure geometry)
from panel_read import find  # noqa: E402
from render.player import TIME_X, TIME_Y  # noqa: E402
from render.typeset import MEDIUM  # noqa: E402

BASE_HZ = 4000           # hwconfig.BUZZER_FREQ
WARNING_HZ = BASE_HZ * 163 // 200       # hal_buzzer: move_warning, 0.815 x base
END_HZ = BASE_HZ                        # hal_buzzer: move_end


def panel_time(panel: dict) -> str:
    """The seven-segment time of a player panel, read back from its pixels (" mm:ss")."""
    w, h, t = sevenseg.DIGIT_W, sevenseg.DIGIT_H, sevenseg.STROKE
    y = TIME_Y
    sign = "-" if pixel(panel, TIME_X + 2, y + h // 2) else " "
    x = TIME_X + sevenseg.SIGN_W + sevenseg.GAP
    out = sign
    for i in range(4):
        probes = ((x + w // 2, y + t // 2), (x + w - t // 2 - 1, y + h // 4),
                  (x + w - t // 2 - 1, y + 3 * h // 4), (x + w // 2, y + h - t // 2 - 1),
                  (x + t // 2, y + 3 * h // 4), (x + t // 2, y + h // 4),
                  (x + w // 2, y + h // 2))
        bits = sum(1 << n for n, (px, py) in enumerate(probes) if pixel(panel, px, py))
        out += str(sevenseg.SEGMENTS.index(bits)) if bits in sevenseg.SEGMENTS else "?"
        x += w + sevenseg.GAP
        if i == 1:
            out += ":"
            x += sevenseg.COLON_W + sevenseg.GAP
    return out


TOPS = ("MOVE 1", "MOVE 2", "TIME UP", "GAME OVER")    # what this game's top lines show


def panel_top(panel: dict) -> tuple[str, bool | None]:
    """The top line of a player panel, read back from its pixels in the panels' pixel
    font (one of TOPS), and whether it is inverted (the clock runs)."""
    pixel = pixel_of(panel)
    for text in TOPS:
        for inverted in (False, True):
            at = find(pixel, text, MEDIUM, inverted=inverted)
            if at is not None and at[1] <= 2:          # on the top line
                return text, inverted
    return "", None


def both(state) -> tuple:
    """What both player panels show, when they show the same (the two panels are drawn one
    after the other: for a moment after a change they may differ); else ("", ("", None))."""
    left = (panel_time(state["panels"]["left"]), panel_top(state["panels"]["left"]))
    right = (panel_time(state["panels"]["right"]), panel_top(state["panels"]["right"]))
    return left if left == right else ("", ("", None))


def terminal(state) -> list[str]:
    return panel_lines(state["panels"]["terminal"])


def on_terminal(state, text: str) -> bool:
    """text on the terminal: in the 8x8 font or the pixel font (MEDIUM)."""
    return any(text in line for line in terminal(state)) or \
        drawn(state["panels"]["terminal"], text, MEDIUM)


@pytest.fixture
def sim(tmp_path):
    device = tmp_path / "device"
    device.mkdir()
    (device / "config.json").write_text(json.dumps({"lang": "en",
                                                    "preset_edits": {"move_ms": 60000}}))
    s = Sim(device, extra=["--preset", "duplicate"])
    yield s
    err = s.stop()
    assert "Traceback" not in err, err[-3000:]


def test_the_preset_option_checks_the_name(tmp_path):
    from host_tools.sim import main

    assert main(["--device-dir", str(tmp_path / "d"), "--preset", "blitz"]) == 2


@pytest.mark.slow
def test_a_duplicate_game_runs_in_the_simulator(sim):
    state = sim.wait_for(lambda s: on_terminal(s, "Ready")
                         and both(s) == (" 01:00", ("MOVE 1", False)),
                         what="both panels at the first move's full time")
    assert not on_terminal(state, "Challenge")                       # none in a duplicate game

    # either button starts the move; both panels count down together, both LEDs on
    state = press(sim, "right", lambda s: both(s)[1] == ("MOVE 1", True), "the move running")
    state = sim.wait_for(lambda s: both(s)[0] == " 00:59", what="the countdown")
    assert state["leds"]["left"] == 1 and state["leds"]["right"] == 1
    press(sim, "left", lambda s: True, "a press during the move")
    state = sim.wait_for(lambda s: " " < both(s)[0] <= " 00:58", what="the countdown going on")
    assert both(state)[1] == ("MOVE 1", True)                       # no new move

    # the referee sets the move's time to 00:19: less than 30 s left, the warning sounds
    keys(sim, "D0000#3" + "1" + "19#")
    state = sim.wait_for(lambda s: s["buzzer"]["on"] and s["buzzer"]["freq"] == WARNING_HZ,
                         what="the 30-s warning")
    assert " " < both(state)[0] <= " 00:19" or both(state)[0] == ""
    keys(sim, "D")
    state = sim.wait_for(lambda s: s["buzzer"]["on"] and s["buzzer"]["freq"] == END_HZ,
                         what="the move's end tone")
    state = sim.wait_for(lambda s: both(s) == (" 00:00", ("TIME UP", False)),
                         what="TIME UP at 00:00")
    assert state["leds"]["left"] == 0 and state["leds"]["right"] == 0

    # the next move: full time again, number 2
    press(sim, "left", lambda s: both(s) == (" 01:00", ("MOVE 2", True)), "move 2")
    sim.wait_for(lambda s: both(s)[0] == " 00:59", what="move 2 counting down")

    # the referee ends the game: the terminal's end screen counts the moves
    keys(sim, "D0000#63")
    state = sim.wait_for(lambda s: both(s)[1][0] == "GAME OVER", what="game over on the panels")
    keys(sim, "DD")
    state = sim.wait_for(lambda s: on_terminal(s, "Moves: 2"),
                         what="the end screen with the moves")
    lines = (Path(sim_device(sim)) / "logs" / "games.jsonl").read_text().splitlines()
    kinds = [json.loads(line)["kind"] for line in lines]
    assert kinds[:1] == ["start"] and kinds.count("move") == 2 and kinds[-1] == "end"
    assert "adjust" in kinds


def sim_device(sim) -> str:
    return sim.proc.args[sim.proc.args.index("--device-dir") + 1]
