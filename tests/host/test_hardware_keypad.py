"""Keypad rows are open-drain (firmware/hal_keypad.py): on the real MicroPython interpreter with
the fakes of the chip, two keys held in one column are both read and no row drives against
another; the same scan with push-pull rows shorts a high row to a low one."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCRIPT = r'''
import machine, hwconfig, hal_keypad
from machine import Pin

shorts = []

def check():
    parent = {}
    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            x = parent[x]
        return x
    for a, b in machine.sim_links:
        parent[find(a.id)] = find(b.id)
    levels = {}
    for s in machine.sim_pin_list:
        d = machine._drives(s)
        if d is not None and s.id in parent:
            levels.setdefault(find(s.id), set()).add(d)
    for root, seen in levels.items():
        if len(seen) > 1:
            shorts.append(root)

class Watched:
    def __init__(self, pin):
        self.pin = pin
    def value(self, x=None):
        r = self.pin.value(x)
        check()
        return r

def run(kp):
    kp.rows = tuple(Watched(p) for p in kp.rows)
    # the S3 board has no resistors on the columns: only the chip's pull-ups
    matrix = machine.SimKeyMatrix(hwconfig.KEYPAD_ROWS, hwconfig.KEYPAD_COLS, hwconfig.KEYPAD_LAYOUT, col_pull=None)
    got = []
    matrix.press_key("1")
    matrix.press_key("4")        # same column, next row
    matrix.press_key("9")
    for t in (0, 10, 20):
        kp.scan(t, lambda ch, ticks: got.append(ch))
    return sorted(got)

machine.sim_reset_all()
kp = hal_keypad.create()
print("MODES", [machine.sim_mode(n) for n in hwconfig.KEYPAD_ROWS], Pin.OPEN_DRAIN)
print("PULLS", [machine.sim_pull(n) for n in hwconfig.KEYPAD_COLS], Pin.PULL_UP)
print("KEYS", "".join(run(kp)))
print("SHORTS", len(shorts))

machine.sim_reset_all()
shorts[:] = []
rows = [Pin(n, Pin.OUT, value=1) for n in hwconfig.KEYPAD_ROWS]
cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in hwconfig.KEYPAD_COLS]
run(hal_keypad.Keypad(rows, cols, hwconfig.KEYPAD_LAYOUT, 0))
print("PUSHPULL_SHORTS", len(shorts))
'''


def micropython():
    exe = os.path.join(ROOT, ".venv", "bin", "micropython")
    if not os.path.exists(exe):
        pytest.skip("no micropython interpreter in .venv")
    return exe


def test_open_drain_rows_read_two_keys_of_one_column_without_a_short(tmp_path):
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(
        [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host_tools", "fakes")]))
    r = subprocess.run([micropython(), "-c", SCRIPT], capture_output=True, text=True, timeout=60, env=env,
                       cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    out = dict(line.split(" ", 1) for line in r.stdout.splitlines() if " " in line)
    modes, od = out["MODES"].rsplit(" ", 1)
    assert modes == "[%s]" % ", ".join([od] * 4)
    pulls, up = out["PULLS"].rsplit(" ", 1)
    assert pulls == "[%s]" % ", ".join([up] * 4)        # the firmware enables the chip's pull-ups
    assert out["KEYS"] == "149"
    assert out["SHORTS"] == "0"
    assert int(out["PUSHPULL_SHORTS"]) > 0              # the check sees the short push-pull rows make
