"""Start the simulator as a person does (python -m host_tools.sim) and talk to
its page's API; shared by the simulator's tests."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.host.drain import Drain

REPO = Path(__file__).resolve().parents[2]
FIXTURE_MAIN = REPO / "tests" / "host" / "sim_fixture" / "main.py"
# How long a test waits for an event of the simulated clock before it gives up: a bound
# that only ends a hang, never a measure.  The firmware runs in real time beside whatever
# else the machine runs, so an event can come seconds late; a test waits for the event
# (a state the page's API shows), not for a time sized to an idle machine.
HANG_S = 120.0


class Sim:
    """`command` starts the simulator (default: this Python's host_tools.sim in the
    repository; an installed `clockctl sim` elsewhere), in `cwd` with `env`."""

    def __init__(self, device_dir: Path, main: Path | None = None, extra=(),
                 command=None, cwd: Path | None = None, env: dict | None = None):
        cmd = list(command or [sys.executable, "-m", "host_tools.sim"])
        cmd += ["--device-dir", str(device_dir)]
        if main is not None:
            cmd += ["--main", str(main)]
        cmd += list(extra)
        self.proc = subprocess.Popen(cmd, cwd=str(cwd or REPO), env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, start_new_session=True)
        self._err = Drain(self.proc.stderr)     # its log: one line per firmware line
        line = self.proc.stdout.readline()
        found = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        link = self.proc.stdout.readline() if found else ""
        port = re.search(r"^host link: (\S+) .*--port (\S+)$", link.strip())
        if not found or not port:
            err = self.stop()
            raise RuntimeError("the simulator did not start: %r %r %s" % (line, link, err))
        self._out = Drain(self.proc.stdout)
        self.url = found.group(1)
        self.link_port = port.group(2)   # what `clockctl ... --port` takes (the pty or its alias)

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        return self._err.text()

    def get(self, path: str):
        with urllib.request.urlopen(self.url.rstrip("/") + path, timeout=10) as r:
            body = r.read()
            return json.loads(body) if r.headers.get_content_type() == "application/json" else body.decode()

    def post(self, path: str, body: dict):
        req = urllib.request.Request(self.url.rstrip("/") + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def state(self):
        return self.get("/api/state")

    def wait_for(self, predicate, timeout: float = HANG_S, what: str = "condition"):
        """Poll the state until predicate(state) is true; fail after `timeout` (a hang)."""
        deadline = time.monotonic() + timeout
        state = None
        while time.monotonic() < deadline:
            state = self.get("/api/state?since=%d&wait=0.5" % (state["version"] if state else -1))
            if predicate(state):
                return state
        raise AssertionError("timed out waiting for %s; last state: status=%s boots=%s log=%s"
                             % (what, state and state["status"], state and state["boots"],
                                state and state["log"][-15:]))


def pixel(panel: dict, x: int, y: int) -> int:
    return (int(panel["rows"][y][x >> 2], 16) >> (3 - (x & 3))) & 1


def bar(panel: dict, y: int) -> int:
    """Length of the lit run starting at x = 0 on row y (the fixture's bars)."""
    n = 0
    while n < 128 and pixel(panel, n, y):
        n += 1
    return n


def lit(panel: dict) -> int:
    return sum(bin(int(row, 16)).count("1") for row in panel["rows"])


_GLYPHS: dict[bytes, str] = {}


def _glyphs() -> dict[bytes, str]:
    """framebuf's 8x8 font as the real micropython draws it: 8 row bytes -> character."""
    if not _GLYPHS:
        code = ("import framebuf\nb=bytearray(8)\nf=framebuf.FrameBuffer(b,8,8,framebuf.MONO_HLSB)\n"
                "for c in range(32,127):\n f.fill(0)\n f.text(chr(c),0,0,1)\n print(c,bytes(b).hex())\n")
        mp = Path(sys.executable).parent / "micropython"
        out = subprocess.run([str(mp) if mp.exists() else "micropython", "-c", code],
                             capture_output=True, text=True, check=True).stdout
        for line in out.split("\n"):
            if line.strip():
                c, hexrows = line.split()
                _GLYPHS.setdefault(bytes.fromhex(hexrows), chr(int(c)))
    return _GLYPHS


def panel_lines(panel: dict) -> list[str]:
    """The panel read back as 8 lines of 16 characters of the 8x8 font ("?" for a cell
    that is no ASCII character: accents, big text, lines), right-stripped."""
    glyphs = _glyphs()
    rows = [int(r, 16) for r in panel["rows"]]
    lines = []
    for ty in range(8):
        chars = []
        for tx in range(16):
            cell = bytes((rows[ty * 8 + r] >> (120 - 8 * tx)) & 0xFF for r in range(8))
            chars.append(glyphs.get(cell, "?"))
        lines.append("".join(chars).rstrip())
    return lines


def pixel_of(panel: dict):
    """pixel(x, y) of a panel of the page's state (0 outside the panel)."""
    rows = [int(r, 16) for r in panel["rows"]]

    def pixel(x, y):
        if 0 <= x < 128 and 0 <= y < 64:
            return (rows[y] >> (127 - x)) & 1
        return 0
    return pixel


def drawn(panel: dict, text: str, size: int = 1) -> bool:
    """text is drawn on the panel in the panels' pixel font at `size` (render.typeset:
    1 MEDIUM, 2 LARGE), lit or inverted: its exact pixels (tests/firmware/panel_read.py)."""
    from panel_read import shown

    return shown(pixel_of(panel), text, size)


def band(panel: dict, y0: int, y1: int) -> list[str]:
    """The rows y0..y1-1 of a panel (to see that a line changed)."""
    return panel["rows"][y0:y1]


def press(sim, name, effect, what):
    """Hold a button until its effect shows, then let go."""
    sim.post("/api/button", {"name": name, "down": True})
    state = sim.wait_for(effect, what=what)
    sim.post("/api/button", {"name": name, "down": False})
    return state


def terminal_rows(state) -> list[str]:
    """The terminal panel's pixel rows: what a key press changes."""
    return state["panels"]["terminal"]["rows"]


# The keypad (firmware/hal_keypad.py) takes a press once it saw the key down in two scans
# 10 ms apart, and the same key again only after it saw it up in two scans.
KEY_UP_S = 0.1
KEY_RETRY_S = 10.0


def keys(sim, text: str) -> None:
    """Type `text` on the keypad: each key held until the terminal shows what it did
    (every key the callers type changes it), then let go.

    A key pressed again right after it was let go may come while the firmware, waiting
    for a CPU, has not yet scanned it up twice: the keypad then sees one long press.  So
    a press that changes nothing within KEY_RETRY_S is let go and made again; one that
    never does fails after HANG_S."""
    last = None
    for label in text:
        if label == last:
            time.sleep(KEY_UP_S)
        last = label
        before = terminal_rows(sim.state())
        deadline = time.monotonic() + HANG_S
        while True:
            sim.post("/api/key", {"key": label, "down": True})
            try:
                sim.wait_for(lambda s: terminal_rows(s) != before,
                             timeout=min(KEY_RETRY_S, max(0.0, deadline - time.monotonic())),
                             what="the effect of key %s" % label)
                break
            except AssertionError:
                if time.monotonic() >= deadline:
                    raise
                sim.post("/api/key", {"key": label, "down": False})
                sim.wait_for(lambda s: label not in s["keys_down"], what="key %s up" % label)
                time.sleep(KEY_UP_S)
        sim.post("/api/key", {"key": label, "down": False})
        sim.wait_for(lambda s: label not in s["keys_down"], what="key %s up" % label)
