"""The simulator's host link: the real firmware in the simulator answers `clockctl`
on a pseudo-terminal exactly as a clock on USB does, and the port stays the same
across resets and power cuts (docs/simulator.md, "The host link")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from host_tools.link import encode
from host_tools.sim.linkpty import NoiseFilter
from tests.host.sim_helpers import REPO, Sim, panel_lines

WORDS = "cat\ndog\nquiz\nzebra\noxen\njam\n"


def clockctl(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "host_tools.cli", *args], cwd=str(REPO),
                          capture_output=True, text=True, timeout=timeout)


def clockctl_until_ok(*args, deadline_s=60.0, what="clockctl"):
    """Run clockctl until it succeeds (the firmware may still be booting)."""
    deadline = time.monotonic() + deadline_s
    while True:
        r = clockctl(*args)
        if r.returncode == 0:
            return r
        if time.monotonic() > deadline:
            raise AssertionError("%s kept failing: %s\n%s" % (what, r.stdout, r.stderr[-2000:]))


def table_row(out: str, port: str) -> list[str]:
    rows = [line.split() for line in out.splitlines() if line.startswith(port + " ")]
    assert len(rows) == 1, out
    return rows[0]


@pytest.fixture
def sim(tmp_path):
    s = Sim(tmp_path / "device", extra=["--link-pty", str(tmp_path / "tileclock-usb")])
    yield s
    err = s.stop()
    assert "Traceback" not in err, err[-3000:]


def test_clockctl_talks_to_the_simulated_clock(sim, tmp_path):
    port = sim.link_port
    assert port == str(tmp_path / "tileclock-usb")
    link = sim.state()["link"]
    assert os.path.realpath(port) == link["path"] and link["path"].startswith("/dev/pts/")

    r = clockctl_until_ok("devices", "--port", port, what="clockctl devices")
    row = table_row(r.stdout, port)
    assert row[1] == "ok" and "sample-en.txt" in row, r.stdout

    r = clockctl("config", "--port", port, "lang=en", "verdict_ms=12000", "--show")
    assert r.returncode == 0, r.stderr
    shown = json.loads(r.stdout[r.stdout.index("{"):r.stdout.rindex("}") + 1])
    assert shown["lang"] == "en" and shown["verdict_ms"] == 12000
    on_flash = json.loads((tmp_path / "device" / "config.json").read_text())
    assert on_flash["lang"] == "en" and on_flash["verdict_ms"] == 12000
    r = clockctl("config", "--port", port, "verdict_ms=soon")
    assert r.returncode != 0 and "E_CONFIG" in r.stdout + r.stderr

    words = tmp_path / "words.txt"
    words.write_text(WORDS)
    image = tmp_path / "small.dawg"
    subprocess.run([sys.executable, "-m", "wordlist_packer", "build", str(words), "--language", "en",
                    "--name", "simlink-test", "--list-version", "7", "-o", str(image), "--quiet"],
                   cwd=str(REPO), check=True)
    r = clockctl("push-lexicon", str(image), "--port", port, "--timeout", "2")
    assert r.returncode == 0, r.stdout + r.stderr
    assert table_row(r.stdout, port)[1:3] == ["ok", "simlink-test"], r.stdout
    assert (tmp_path / "device" / "lexicon.dawg").read_bytes() == image.read_bytes()
    # The firmware reopened the list: the terminal's idle screen names it.
    sim.wait_for(lambda s: "simlink-test 7" in panel_lines(s["panels"]["terminal"]),
                 what="the new list's name and version on the terminal")
    r = clockctl("devices", "--port", port)
    assert r.returncode == 0 and "simlink-test" in table_row(r.stdout, port), r.stdout

    out = tmp_path / "logs"
    r = clockctl("logs", "--port", port, "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(list(out.glob("*-games.jsonl"))) == 1, r.stdout
    assert len(list(out.glob("*-challenges.jsonl"))) == 1, r.stdout


def test_the_port_survives_a_power_cut(sim, tmp_path):
    port = sim.link_port
    before = sim.state()["link"]["path"]
    clockctl_until_ok("config", "--port", port, "lang=pl", what="config before the cut")
    sim.post("/api/power-cut", {})
    state = sim.wait_for(lambda s: s["boots"] == 2 and s["connected"], what="boot after the cut")
    assert state["resets"][-1]["why"] == "power cut"
    assert state["link"]["path"] == before and os.path.realpath(port) == before
    r = clockctl_until_ok("config", "--port", port, "--show", what="config after the cut")
    assert table_row(r.stdout, port)[1:4] == ["ok", "tso30", "pl"], r.stdout
    assert sim.state()["boots"] == 2


def test_firmware_text_reaches_the_console_and_the_link_still_works(tmp_path):
    main = tmp_path / "noisy_main.py"
    main.write_text('print("noise before the link: ~ a tilde")\n'
                    'import app\napp.run()\n')
    s = Sim(tmp_path / "device", main=main)
    try:
        port = s.link_port
        r = clockctl_until_ok("devices", "--port", port, what="devices with noise")
        assert table_row(r.stdout, port)[1] == "ok"
        log = s.state()["log"]
        assert "noise before the link: ~ a tilde" in log, log
        # The link's frames (the INFO reply names "proto") never show up as text.
        assert not any('"proto"' in line for line in log), log
    finally:
        s.stop()


def test_noise_filter_keeps_text_and_drops_frames():
    lines = []
    f = NoiseFilter(lines.append)
    frame = encode(0x81, 1, b'{"proto": 1}')
    f.feed(b"MicroPython v1.24\n" + frame + b"warn: ~ low\n" + frame[:7])
    f.feed(frame[7:] + frame + b"a~b~" + frame + b"tail\n~~\n")
    f.feed(b">>> ")
    assert lines == ["MicroPython v1.24", "warn: ~ low", "a~b~tail", "~~"]
    f.idle()
    assert lines[-1] == ">>> "
    f.feed(b"~" + frame[1:-1])   # a frame cut off by a reset
    f.end()
    assert lines[-1].startswith("~}!")   # the escaped version byte: shown as text
