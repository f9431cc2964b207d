"""The buzzer sounds at the transducer's resonance (hwconfig.BUZZER_FREQ, from the part in
hardware/bom.csv): the firmware's own cues, played on the real interpreter with the fakes."""

import csv
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "hardware"))

import board  # noqa: E402
import pinmap  # noqa: E402

SCRIPT = r'''
import machine, hwconfig, hal_buzzer
machine.sim_reset_all()
b = hal_buzzer.create()
tones = []
for cue in ("test", "challenge_end", "forfeit"):
    b.enabled[cue] = True
    b.play(cue, 0)
    t = 0
    while b.busy() and t < 5000:
        f, duty = machine.sim_pwm(hwconfig.PIN_BUZZER)
        if duty:
            tones.append(f)
        t += 10
        b.update(t)
print("BASE", hwconfig.BUZZER_FREQ)
print("TONES", sorted(set(tones)))
'''


def test_cues_sound_at_and_near_the_resonance(tmp_path):
    exe = os.path.join(ROOT, ".venv", "bin", "micropython")
    if not os.path.exists(exe):
        pytest.skip("no micropython interpreter in .venv")
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(
        [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host_tools", "fakes")]))
    r = subprocess.run([exe, "-c", SCRIPT], capture_output=True, text=True, timeout=60, env=env, cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    out = dict(line.split(" ", 1) for line in r.stdout.splitlines())
    base = int(out["BASE"])
    tones = [int(t) for t in out["TONES"].strip("[]").split(",")]
    assert base in tones                                   # the main tone is the resonance
    assert all(base * 2 // 3 - 1 <= t <= base for t in tones), tones


def test_resonance_matches_the_transducer_in_the_bom():
    names = pinmap.build_names(pinmap.load())
    with open(os.path.join(ROOT, "hardware", "bom.csv"), newline="", encoding="utf-8") as f:
        ref = board.designators(pinmap.load())["BUZZER"]
        line = next(r for r in csv.DictReader(f) if r["refs"] == ref)
    assert "%.1f kHz" % (names["BUZZER_FREQ"] / 1000) in line["part"]
