"""An organiser's round with clockctl against two simulated clocks running the real
firmware (their USB ports are pseudo-terminals): tables numbered, the same list and
settings on every clock, a game played through a challenge to its end, its scores typed
and confirmed on the clock's keypad, the results of the round as one CSV and as tsh's score
entry with the players named by the pairings file, the logs named by table and round, and
the fresh games for the next round (refused while a game runs).  docs/first-tournament.md walks the same steps."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys

import pytest

from tests.host.sim_helpers import REPO, Sim, keys, panel_lines
from tests.host.test_sim_link import clockctl, clockctl_until_ok, table_row
from wordlist_packer import legend
from wordlist_packer.image import Image

GERMAN = REPO / "tests" / "firmware" / "data" / "lexicon_de.dawg"


@pytest.fixture
def clocks(tmp_path):
    sims = []
    for n in (1, 2):
        device = tmp_path / ("clock%d" % n)
        device.mkdir()
        sims.append(Sim(device, extra=["--link-pty", str(tmp_path / ("tileclock-%d" % n))]))
    yield sims
    errors = [s.stop() for s in sims]
    for err in errors:
        assert "Traceback" not in err, err[-3000:]


def ports(sims):
    return [a for s in sims for a in ("--port", s.link_port)]


def hold(sim, name, effect, what):
    sim.post("/api/button", {"name": name, "down": True})
    state = sim.wait_for(effect, what=what)
    sim.post("/api/button", {"name": name, "down": False})
    sim.wait_for(lambda s: name not in s["buttons_down"], what=name + " up")
    return state


def presses(layout, word):
    where = {t: (k, i) for k, tiles in layout.items() for i, t in enumerate(tiles)}
    out, last = "", None
    for letter in word:
        k, i = where[letter]
        out += ("B" if k == last else "") + k * (i + 1)
        last = k
    return out


def terminal_shows(text):
    return lambda s: any(text in line for line in panel_lines(s["panels"]["terminal"]))


@pytest.mark.slow
def test_a_round_run_with_clockctl(clocks, tmp_path):
    a, b = clocks
    every = ports(clocks)
    # the box of clocks: each answers, the default PIN is pointed out
    r = clockctl_until_ok("devices", *every, what="clockctl devices")
    assert "2 of 2 devices succeeded" in r.stdout
    assert table_row(r.stdout, a.link_port)[-1] == "DEFAULT"
    assert "default referee PIN 0000" in r.stderr

    # the same list, tables, language, PIN and preset on every clock
    image = tmp_path / "de.dawg"
    shutil.copyfile(GERMAN, image)
    r = clockctl("push-lexicon", str(image), *every)
    assert r.returncode == 0, r.stdout + r.stderr
    r = clockctl("config", "language=de", *every)
    assert r.returncode == 1 and "unknown setting 'language' (did you mean lang?)" in r.stdout
    for sim, table in ((a, 12), (b, 13)):
        r = clockctl("config", "table=%d" % table, "--port", sim.link_port)
        assert r.returncode == 0, r.stdout + r.stderr
    # (the longest multi-tap pause: the keys below are typed at the pace of a busy machine)
    r = clockctl("config", "lang=de", "referee_pin=4711", "preset=custom", "multitap_ms=3000",
                 'preset_edits={"initial_ms": 9000, "overtime_cap_ms": 3000}', *every)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "default referee PIN" not in r.stderr
    r = clockctl("devices", *every)
    row = table_row(r.stdout, a.link_port)
    assert row[2] == "12" and "fixture-de" in row and row[-4:] == ["no", "game", "ok", "set"]
    assert row[3] != table_row(r.stdout, b.link_port)[3]                    # two chip ids
    assert "fixture-de" in r.stdout and " 13 " in r.stdout                  # the word count
    assert "3.90 V 75%" in r.stdout and table_row(r.stdout, b.link_port)[2] == "13"

    # a game on table 12: a challenge of a valid word (10 points for the challenger),
    # then the right player's time runs out into overtime until the 3 s cap: forfeit
    layout = legend.image_layout(Image.load(GERMAN))
    a.wait_for(terminal_shows("Bereit"), what="table 12 ready")
    hold(a, "right", lambda s: s["leds"]["left"] == 1, "the left clock")
    hold(a, "left", lambda s: s["leds"]["right"] == 1, "the right clock")
    hold(a, "challenge", terminal_shows("ANFECHTUNG"), "the challenge")
    keys(a, "1" + presses(layout, "ZUG") + "#")
    a.wait_for(terminal_shows("Gegner pr"), what="the opponent's check")
    keys(a, "C#")
    a.wait_for(terminal_shows("10 Strafpunkte"), what="the verdict")
    # the right player's clock runs again: a reset is refused now
    r = clockctl("reset", *every)
    assert r.returncode == 1 and "a game is in progress" in r.stdout
    assert "1 of 2 devices succeeded" in r.stdout
    a.wait_for(terminal_shows("ENDE"), what="the end of the game")

    # the scores from the sheets, on the keypad: left types, right confirms (C), a typo
    # disputed (*) and typed again; then right's, confirmed by left
    a.wait_for(terminal_shows("Punkte links:"), what="the left score asked for")
    keys(a, "413#")
    a.wait_for(terminal_shows("Gegner pr"), what="the opponent's check of left's score")
    keys(a, "**2#C")
    a.wait_for(terminal_shows("Punkte rechts:"), what="the right score asked for")
    keys(a, "380#C")
    # (the figures stand right-aligned, off the 8-pixel cells panel_lines reads: the
    # firmware's test reads them, tests/firmware/test_terminal_scores.py)
    state = a.wait_for(terminal_shows("Summe"), what="the result with the scores")
    lines = panel_lines(state["panels"]["terminal"])
    assert [line[:5] for line in lines[1:5]] == ["Bogen", "Zeit ", "Anf. ", "Summe"], lines

    # the round's results: one CSV, spreadsheet-ready, and tsh's score entry, the players
    # named by the round's pairings
    pairings = tmp_path / "pairings.csv"
    pairings.write_text("round,table,player1,player2,number1,number2\n"
                        "1,12,Anna Schmidt,Jürgen Weiß,3,7\n1,13,Ola Nordmann,Kari Holm,1,2\n",
                        encoding="utf-8")
    out = tmp_path / "round1.csv"
    r = clockctl("results", "--pairings", str(pairings), "--out", str(out), *every)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 finished game" in r.stdout and "round1-tsh.txt: tsh score entry for 1" in r.stdout
    assert (tmp_path / "round1-tsh.txt").read_text(encoding="utf-8") == "a 1 a\n3 412 7 360\n\n"
    text = out.read_bytes().decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 1
    game = rows[0]
    assert game["left_player"] == "Anna Schmidt" and game["right_player"] == "Jürgen Weiß"
    assert (game["left_score"], game["right_score"]) == ("412", "380")
    assert (game["left_final"], game["right_final"]) == ("412", "360")
    assert game["round"] == "1" and game["table"] == "12" and game["preset"] == "custom"
    assert game["forfeit"] == "right" and game["forfeit_reason"] == "overtime"
    assert game["right_challenge_penalty"] == "10" and game["left_challenge_penalty"] == "0"
    assert int(game["right_time_s"]) <= -3 and int(game["left_time_s"]) > 0
    assert game["right_overtime_penalty"] == "10"
    assert game["started"][:2] == "20" and game["ended"] >= game["started"]  # wall-clock time
    assert "True" not in text and "[" not in text

    # the logs, named by round and table; the challenge record complete
    logs = tmp_path / "logs"
    r = clockctl("logs", "--round", "1", "--format", "csv", "--out", str(logs), *every)
    assert r.returncode == 0, r.stdout + r.stderr
    names = sorted(p.name for p in logs.iterdir())
    assert any(n.startswith("1-table12-") and n.endswith("-challenges.csv") for n in names), names
    assert any(n.startswith("1-table13-") and n.endswith("-games.csv") for n in names), names
    chal = [p for p in logs.iterdir() if p.name.startswith("1-table12-")
            and p.name.endswith("-challenges.csv")][0]
    [record] = list(csv.DictReader(io.StringIO(chal.read_bytes().decode("utf-8-sig"))))
    assert record["at"][:2] == "20" and record["turn"] == "1" and record["table"] == "12"
    assert record["list"] == "de fixture-de 1" and record["words"] == "ZUG"
    assert record["lost_turn"] == "no" and record["verdict"] == "acceptable"

    # the next round: fresh games on every clock
    r = clockctl("reset", *every)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 of 2 devices succeeded" in r.stdout
    a.wait_for(terminal_shows("Bereit"), what="table 12 ready again")
