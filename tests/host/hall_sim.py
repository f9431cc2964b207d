"""Simulated clocks for the hall's tests and benchmark: `clockctl sim --clocks N --broker
URL --headless` (the real firmware under MicroPython, network.WLAN faked, real sockets
to the broker), played through the simulator's JSON API (/clock/K/api/...)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from tests.host.drain import Drain
from tests.host.hall_helpers import EVENT, HANG_S, KEY, REPO, free_port, wait_for

MOSQUITTO = os.environ.get("TILECLOCK_MOSQUITTO") or shutil.which("mosquitto") \
    or "/usr/sbin/mosquitto"


class Mosquitto:
    """A real Mosquitto on a free port of 127.0.0.1 with its own configuration, nothing
    kept (as tests/host/test_hall_mosquitto.py runs it); start() again after stop() is a
    broker restart on the same port."""

    def __init__(self, folder: Path, port: int | None = None):
        # below Linux's ephemeral ports (32768-60999): while the broker is down for a
        # restart, a client trying again could otherwise be given its port as its own
        # and connect to itself, and the broker could not listen there again
        self.port = port or _free_port_below(32768)
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n"
                             "log_dest stderr\nmax_queued_messages 10000\n" % self.port)
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True, start_new_session=True)
        self._log = Drain(self.proc.stderr)     # a line per connection: read, never left to fill
        wait_for(lambda: _accepts(self.port) or self.proc.poll() is not None,
                 "mosquitto listening")
        if self.proc.poll() is not None:
            raise RuntimeError("mosquitto did not start: %s" % self._log.text())
        return self

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


def _free_port_below(limit: int) -> int:
    import random
    import socket

    for _ in range(1000):
        port = random.randrange(20000, limit)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue
    return free_port()


def _accepts(port: int) -> bool:
    import socket

    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


class SimClocks:
    """N simulated clocks publishing to `broker`; ready once the simulator has started
    them (their firmware then boots, joins the simulated Wi-Fi and connects)."""

    def __init__(self, folder: Path, count: int, broker: str, event: str = EVENT,
                 key: str = KEY, extra=()):
        folder.mkdir(parents=True, exist_ok=True)
        key_file = folder / "event.key"
        key_file.write_text(key + "\n")
        for k in range(1, count + 1):      # English panels (the simulator merges its own)
            clock_dir = folder / "clocks" / ("clock-%d" % k)
            clock_dir.mkdir(parents=True, exist_ok=True)
            if not (clock_dir / "config.json").exists():
                (clock_dir / "config.json").write_text(json.dumps({"lang": "en"}))
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        cmd = [sys.executable, "-m", "host_tools", "sim", "--clocks", str(count),
               "--broker", broker, "--headless", "--event", event, "--key-file",
               str(key_file), "--device-dir", str(folder / "clocks"), "--port",
               str(self.port)] + list(extra)
        self.started = time.monotonic()
        self.proc = subprocess.Popen(cmd, cwd=str(REPO), stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True,
                                     start_new_session=True)
        self.ready_at = None
        self.out: list[str] = []
        self.err: list[str] = []
        self._ready = threading.Event()
        threading.Thread(target=self._read, args=(self.proc.stdout, self.out), daemon=True).start()
        threading.Thread(target=self._read, args=(self.proc.stderr, self.err), daemon=True).start()
        if not self._ready.wait(HANG_S * 2):
            self.stop()
            raise RuntimeError("the simulator did not start: %r %r" % (self.out, self.err[-20:]))

    def _read(self, stream, lines):
        for line in stream:
            lines.append(line.rstrip("\n"))
            if line.startswith("tileclock simulator:"):
                self.ready_at = time.monotonic()
                self._ready.set()

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        return "\n".join(self.err)

    def tracebacks(self) -> list[str]:
        return [line for line in self.err if "Traceback" in line or "Error" in line]

    # -- the JSON API -----------------------------------------------------------------

    def post(self, clock: int, what: str, body: dict):
        req = urllib.request.Request("%s/clock/%d/api/%s" % (self.url, clock, what),
                                     data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            answer = json.loads(r.read())
        assert answer.get("ok"), answer
        return answer

    def button(self, clock: int, name: str, down: bool):
        return self.post(clock, "button", {"name": name, "down": down})

    def press(self, clock: int, name: str, hold_s: float = 0.08):
        self.button(clock, name, True)
        time.sleep(hold_s)          # a held button, as a finger holds it (not a wait)
        self.button(clock, name, False)

    def key(self, clock: int, key: str):
        self.post(clock, "key", {"key": key, "down": True})
        time.sleep(0.06)
        self.post(clock, "key", {"key": key, "down": False})

    def wifi(self, clock: int, up: bool):
        return self.post(clock, "wifi", {"up": up})

    def state(self, clock: int) -> dict:
        with urllib.request.urlopen("%s/clock/%d/api/state" % (self.url, clock),
                                    timeout=30) as r:
            return json.loads(r.read())

    def shows(self, clock: int, text: str) -> bool:
        """The clock's terminal shows `text` on one of its lines (its small font, read
        back by tests/host/sim_helpers.panel_lines)."""
        return any(text in line for line in self.screen(clock))

    def screen(self, clock: int) -> list[str]:
        """The clock's terminal lines as read back from its pixels."""
        from tests.host.sim_helpers import panel_lines

        return panel_lines(self.state(clock)["panels"]["terminal"])

    def hold_key(self, clock: int, key: str, until, what: str):
        """A key held until its effect shows (a busy machine may let a short press pass
        between two of the keypad's scans), then let go."""
        self.post(clock, "key", {"key": key, "down": True})
        try:
            wait_for(until, what)
        except AssertionError as e:
            raise AssertionError("%s; the terminal shows %s" % (e, self.screen(clock))) from None
        finally:
            self.post(clock, "key", {"key": key, "down": False})

    def type_keys(self, clock: int, text: str):
        """Type `text` on the clock's keypad: each key held until the terminal changes
        (every key the callers type changes it), then let go and seen up."""
        for key in text:
            before = self.state(clock)["panels"]["terminal"]["rows"]
            self.hold_key(clock, key,
                          lambda: self.state(clock)["panels"]["terminal"]["rows"] != before,
                          "clock %d taking key %s" % (clock, key))
            wait_for(lambda: key not in self.state(clock)["keys_down"],
                     "clock %d: key %s up" % (clock, key))

    def finish_game(self, clock: int):
        """End the game on `clock` through its buttons and keypad, from whatever its
        terminal shows (a fresh clock, one played for a while, one half way through this):
        the player on turn stops their clock with the pause switch held (the last move,
        TSO 5.1b i) and confirms with #; the opponent accepts the final play (C, then #).
        A final play left alone stands once its window closes: the game is over too."""
        deadline = time.monotonic() + 6 * HANG_S
        while True:
            try:
                lines = self.screen(clock)
            except OSError as e:    # a connection the busy simulator dropped: ask again
                if time.monotonic() > deadline:
                    raise AssertionError("clock %d: no game end; %r" % (clock, e)) from None
                time.sleep(0.2)
                continue
            shows = lambda text: any(text in line for line in lines)  # noqa: E731
            if shows("END"):
                return
            if time.monotonic() > deadline:
                raise AssertionError("clock %d: no game end; the terminal shows %s"
                                     % (clock, lines))
            if shows("Game over?") or shows("Accept the play"):
                self.hold_key(clock, "#", lambda: self.screen(clock) != lines,
                              "clock %d taking #" % clock)
            elif shows("Last move") and shows("C Accept"):
                self.hold_key(clock, "C", lambda: self.screen(clock) != lines,
                              "clock %d taking C" % clock)
            elif shows("Ready"):
                # right ends a turn (left's clock runs, if it did not already), then the
                # pause switch held until the question shows
                self.press(clock, "right")
                self.button(clock, "pause", True)
                try:
                    wait_for(lambda: self.shows(clock, "Game over?") or self.shows(clock, "END"),
                             "clock %d asking whether that was the last move" % clock)
                finally:
                    self.button(clock, "pause", False)
            else:
                time.sleep(0.2)     # a notice or a screen on its way: look again
