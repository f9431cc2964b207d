"""Presets over the link while a game runs, against the real firmware (app.run on the
reference board wired up with the fakes, a game running): refused with a clear error,
kept for the next game on request, or the game ended cleanly when forced; clockctl says
which.  A write that changes nothing touches no file."""

import json
import subprocess
import sys

import pytest

from host_tools.drivers import driver_dir
from host_tools.link import DeviceError, Link
from tests.host import fault_frames, runtime_proc
from tests.host.linkrig import Rig, wait_for


@pytest.fixture
def game(tmp_path):
    rig = Rig(tmp_path / "dev", script=fault_frames.ENTRY, path_extra=[driver_dir()],
              files={"lexicon.dawg": fault_frames.LEXICON.read_bytes()})
    rig.start()
    wait_for(lambda: fault_frames._game_running(rig.port), timeout=60, what="the game to run")
    yield rig
    err = rig.stop()
    assert "Traceback" not in err, err[-3000:]


def clockctl(*args):
    return subprocess.run([sys.executable, "-m", "host_tools.cli", *args], cwd=str(runtime_proc.REPO),
                          capture_output=True, text=True, timeout=120)


def test_a_preset_during_a_game_is_refused_kept_for_the_next_game_or_forced(game):
    folder = game.folder
    with Link(game.port, timeout=2.0) as link:
        assert link.config_set({})["ok"]                  # nothing to change: no file
        assert link.config_set({"preset": "tso30"})["ok"]  # what the game has: nothing either
        assert not (folder / "config.json").exists()
        with pytest.raises(DeviceError) as refused:
            link.config_set({"preset": "tso25", "lang": "en"})
        assert refused.value.code == "E_GAME" and "tso30" in refused.value.msg
        assert "next game" in refused.value.msg
        assert not (folder / "config.json").exists()      # nothing of it was applied
        assert link.config_set({"lang": "en"})["ok"]      # what the game does not need: fine
        reply = link.config_set({"preset": "tso25", "next_game": True})
        assert "tso25 takes effect with the next game" in reply["msg"]
        info = link.info()
        assert info["game"] and info["preset"] == "tso30" and info["next_preset"] == "tso25"
        assert json.loads((folder / "config.json").read_text())["preset"] == "tso25"

    r = clockctl("config", "preset=nsf", "--port", game.port)
    assert r.returncode != 0
    assert "a game is in progress (preset tso30)" in r.stdout and "--force" in r.stdout, r.stdout
    r = clockctl("config", "preset=nsf", "--next-game", "--port", game.port)
    assert r.returncode == 0 and "nsf takes effect with the next game" in r.stdout, r.stdout
    r = clockctl("config", "preset=tso25", "--force", "--port", game.port)
    assert r.returncode == 0 and "was ended" in r.stdout, r.stdout

    with Link(game.port, timeout=2.0) as link:
        info = link.info()
        assert not info["game"] and info["clock"]["phase"] == 3     # over, with its result
        games = link.read_log("games").decode().splitlines()
    records = [json.loads(line) for line in games]
    kinds = [r["kind"] for r in records]
    # the game's start, why it ended, the clock stopped, the last turn closed, the result
    assert kinds == ["start", "ended", "pause", "turn", "end"], kinds
    assert [r["seq"] for r in records] == list(range(len(records)))
    ended = records[kinds.index("ended")]
    assert ended["reason"] == "preset"
