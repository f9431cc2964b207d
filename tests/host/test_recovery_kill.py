"""Power-loss recovery: SIGKILL the running firmware at random moments of
simulated games, start it again, and check that it comes back paused, says so,
and that neither player lost or gained more than 1 s."""

import os
import random
import select
import signal
import time

import pytest

from tests.host import runtime_proc

DRIVER = str(runtime_proc.HERE / "runtime_driver.py")
TOLERANCE_MS = 1000


def _parse_states(text):
    states = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] == "S":
            states.append((int(parts[1]), int(parts[2]), int(parts[3])))
    return states


def _boot_line(text):
    for line in text.splitlines():
        if line.startswith("B "):
            p = line.split()
            return {"recovered": p[1] == "1", "paused": p[2] == "1", "phase": int(p[3]),
                    "left": (int(p[4]), int(p[5])), "note": p[6]}
    raise AssertionError("no boot line in:\n" + text[-2000:])


def _play_and_kill(device_dir, seed, min_lines, deadline_s=60):
    """Start a game, kill -9 once it has printed at least min_lines states."""
    proc = runtime_proc.start([DRIVER, "play", str(seed), "100000000"], device_dir)
    os.set_blocking(proc.stdout.fileno(), False)
    buf = b""
    end = time.monotonic() + deadline_s
    while buf.count(b"\nS ") < min_lines:
        assert proc.poll() is None, proc.stderr.read().decode(errors="replace")
        assert time.monotonic() < end, "the firmware made no progress"
        select.select([proc.stdout], [], [], max(0.0, end - time.monotonic()))
        chunk = proc.stdout.read()
        if chunk:
            buf += chunk
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    os.set_blocking(proc.stdout.fileno(), True)
    buf += proc.stdout.read()
    text = buf.decode(errors="replace")
    # A line cut off by the kill is not a state the firmware completed.
    if not text.endswith("\n"):
        text = text[:text.rfind("\n") + 1]
    return text


@pytest.mark.slow
def test_killed_firmware_comes_back_paused_and_loses_at_most_a_second(tmp_path):
    rng = random.Random(20240601)
    device = tmp_path / "device"
    device.mkdir()
    kills = 0
    for cycle in range(8):
        text = _play_and_kill(device, seed=rng.randrange(1 << 30),
                              min_lines=rng.randrange(200, 6000))
        boot = _boot_line(text)
        if cycle:
            assert boot["recovered"] and boot["paused"], boot
        states = _parse_states(text)
        assert states, text[-500:]
        last = states[-1]
        code, out, err = runtime_proc.run([DRIVER, "check"], device, timeout=60)
        assert code == 0, err
        after = _boot_line(out)
        assert after["recovered"], (after, err)
        assert after["paused"], after
        assert after["note"] == "recovered_note"
        for side in (0, 1):
            # The kill came after the last printed step and before the next one
            # (10 ms later): the truth lies between them.
            lost = last[1 + side] - after["left"][side]
            assert -TOLERANCE_MS - 10 <= lost <= TOLERANCE_MS, (cycle, side, last, after)
        kills += 1
    assert kills == 8
