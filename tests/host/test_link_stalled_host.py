"""A host that stops reading: 4,000 INFO requests written to the simulated clock's USB
port and their replies left unread for 15 s, while a clock runs.

On the chip a write to a host that holds the port open and does not read waits up to
500 ms, then returns what fitted; the simulated port does the same
(host_tools/sim/linkpty.py).  The firmware's link writes one reply at a time with the
loop yielding between them, and drops the replies of a host that does not read
(firmware/link/server.py, Sender): the clock goes on, the chip does not restart, and
once the host reads again the link answers.  The check of the clock: the running
clock's charged time grows by exactly the firmware's elapsed ticks across the stall
(INFO "clock": "ticks" and "used_ms" at the moment of the reply), within 10 ms."""

from __future__ import annotations

import threading
import time

import pytest

import serial

from host_tools.link import INFO, Link, encode
from tests.host.sim_helpers import REPO, Sim
from tests.host.test_link_ctrl_c import _start_game

REQUESTS = 4000
UNREAD_S = 15.0


def _info(port: str, deadline_s: float = 60.0) -> dict:
    """INFO once the link answers (a reply to a host seen stalled may be dropped)."""
    deadline = time.monotonic() + deadline_s
    while True:
        try:
            with Link(port, timeout=2, retries=2) as link:
                return link.info(set_time=False)
        except Exception:
            if time.monotonic() > deadline:
                raise


def _running(info: dict) -> int:
    clock = info["clock"]
    assert clock["phase"] == 1 and not clock["paused"], clock
    return clock["on_turn"]


@pytest.mark.slow
def test_a_host_that_stops_reading_never_holds_the_clock(tmp_path):
    sim = Sim(tmp_path / "device", extra=["--link-pty", str(tmp_path / "usb")])
    try:
        _start_game(sim)
        before = _info(sim.link_port)
        side = _running(before)
        assert before["dropped"] == 0
        frames = [encode(INFO, 1 + i % 65535) for i in range(REQUESTS)]
        redraws = []                       # (time, frames drawn) while the host does not read
        with serial.serial_for_url(sim.link_port, baudrate=115200, timeout=0.1,
                                   write_timeout=None) as ser:
            writer = threading.Thread(target=lambda: ser.write(b"".join(frames)), daemon=True)
            writer.start()
            start = time.monotonic()
            while time.monotonic() - start < UNREAD_S:
                state = sim.state()
                redraws.append((time.monotonic(), sum(p["frames"] for p in state["panels"].values())))
                assert state["boots"] == 1, state["log"]
                time.sleep(0.1)
            writer.join(timeout=60)
            assert not writer.is_alive(), "the requests were never taken"
            # the host reads again: everything waiting, until the clock is quiet
            got = 0
            quiet = time.monotonic()
            while time.monotonic() - quiet < 1.0:
                n = len(ser.read(65536))
                got += n
                if n:
                    quiet = time.monotonic()
        after = _info(sim.link_port)
        state = sim.state()
        assert state["boots"] == 1 and not state["resets"], state["log"]
        assert _running(after) == side
        # the running clock charged exactly the time that passed on the chip
        elapsed = after["clock"]["ticks"] - before["clock"]["ticks"]
        charged = after["clock"]["used_ms"][side] - before["clock"]["used_ms"][side]
        assert elapsed > UNREAD_S * 1000
        assert abs(charged - elapsed) <= 10, (charged, elapsed)
        # the replies of the stalled host were dropped, and counted
        assert after["dropped"] > 0, after
        # the panels went on redrawing the running clock's seconds: never held for long
        changes = [t for (t, n), (_, m) in zip(redraws, redraws[1:]) if m != n]
        gaps = [b - a for a, b in zip(changes, changes[1:])]
        assert changes and max(gaps) < 2.5, max(gaps)
    finally:
        sim.stop()


class _Clock:
    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now


class _Port:
    """A port whose host reads or not: a write to a host that does not read waits
    `wait_ms` (on the driven clock) and takes nothing, as TinyUSB's does."""

    def __init__(self, clock, wait_ms=500):
        self.clock = clock
        self.wait_ms = wait_ms
        self.reading = True
        self.out = []
        self.writes = 0

    def write(self, data):
        self.writes += 1
        if self.reading:
            self.out.append(bytes(data))
            return len(data)
        self.clock.now += self.wait_ms
        return 0


def test_sender_drops_the_replies_of_a_host_that_does_not_read_and_tries_again():
    import sys

    firmware = str(REPO / "firmware")
    sys.path.insert(0, firmware)
    try:
        from link.server import _RETRY_MS, Sender
    finally:
        sys.path.remove(firmware)
    clock = _Clock()
    port = _Port(clock)
    send = Sender(port, clock)
    assert send(b"a") and send.dropped == 0
    port.reading = False
    assert not send(b"b")                       # waited 500 ms, nothing fitted
    assert send.dropped == 1 and clock.now == 500
    for _ in range(100):                         # no more waits until _RETRY_MS have passed
        assert not send(b"c")
    assert port.writes == 2 and send.dropped == 101 and clock.now == 500
    clock.now += _RETRY_MS
    assert not send(b"d")                        # one try: still not reading
    assert port.writes == 3 and clock.now == 500 + _RETRY_MS + 500
    port.reading = True
    clock.now += _RETRY_MS - 1
    assert not send(b"e") and port.writes == 3
    clock.now += 1
    assert send(b"f") and send(b"g") and port.out == [b"a", b"f", b"g"]
    assert send.dropped == 103
