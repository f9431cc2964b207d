"""The panels' current over a tournament round, with and without dimming.

    python bench/bench_power.py [--rounds 2] [--seed 1]

The real firmware under the `micropython` interpreter, with the three SSD1306 controllers
on their buses (tests/firmware/runtime_rig.py), plays rounds as a tournament day has them:
10 minutes before the game with no clock running (pairings, drawing tiles), a game of 30
minutes per side with a move every 20-100 s, two challenges and a 3-minute pause, then
the clocks stopped until the next round.  Every simulated second the contrast each panel
was given is read from its controller, every 10 s the share of its pixels lit.  The
panel-current model of hardware/power_budget.csv (SSD1309 segment current, boost
converter, controller current) turns them into milliamperes; with the rest of the
budget's loads that gives the cell's hours, next to the same round with every panel at
the configured contrast all the time (no dimming).  Figures: hardware/README.md, Power.
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BUDGET = REPO / "hardware" / "power_budget.csv"

GAME = r'''
import random
import runtime_rig

random.seed(%(seed)d)
rig = runtime_rig.Rig(terminal=True, lexicon="de", panels=True, config={"lang": "de"})
NAMES = ("left", "right", "terminal")
second = [0]

def sample(seconds):
    for _ in range(seconds):
        rig.run(1000, step=50)
        rig.refresh()
        second[0] += 1
        lit = "-"
        if second[0] %% 10 == 0:
            lit = " ".join("%%.4f" %% (sum(rig.models[n].pixels()) / 8192) for n in NAMES)
        print("S", " ".join(str(rig.contrast(n)) for n in NAMES), lit)

def challenge():
    rig.press("challenge")
    sample(3)
    rig.keys("1")
    rig.type_word("HAUS")
    rig.keys("#")
    sample(5)
    rig.keys("C#")
    sample(12)

for r in range(%(rounds)d):
    sample(600)                              # before the game: no clock runs
    rig.press("right")                       # the game starts
    turns = 0
    while rig.dev.engine.phase == 1 and turns < 60:
        sample(random.randint(20, 100))
        rig.press("left" if rig.dev.engine.on_turn == 0 else "right")
        turns += 1
        if turns in (15, 40):
            challenge()
        if turns == 25:
            rig.press("pause")
            sample(180)
            rig.press("pause")
    rig.press("pause")                       # the game is over: the clocks stop
    sample(900)
    rig.keys("D%(pin)s#4#D")                 # the referee resets the clock
print("END")
'''


def params():
    with open(BUDGET, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    p = {r["item"]: float(r["value"]) for r in rows if r["kind"] == "param"}
    loads = sum(float(r["value"]) * float(r["duty"]) for r in rows if r["kind"] == "load")
    return p, loads


def panel_ma(p, lit, contrast):
    """hardware/power_budget.csv's model (tests/host/test_hardware_power.py, display_ma)."""
    seg = lit * p["segments"] * p["segment current at contrast 255"] * (contrast + 1) / 256
    return p["display idle current"] + seg * p["panel voltage"] / (p["rail voltage"] * p["boost efficiency"])


def run_game(rounds: int, seed: int) -> list[tuple[list[int], list[float] | None]]:
    import tempfile

    env = dict(os.environ)
    work = tempfile.TemporaryDirectory(prefix="bench-power-")
    env["MPYTEST_TMP"] = work.name          # the rig's device folder
    env["MICROPYPATH"] = ":".join(str(REPO / d) for d in (
        "tests/firmware", "firmware", "host_tools/fakes", "build/drivers")) + ":.frozen"
    exe = Path(sys.executable).parent / "micropython"
    code = GAME % {"seed": seed, "rounds": rounds, "pin": "0000"}
    with work:
        proc = subprocess.run([str(exe) if exe.exists() else "micropython", "-c", code],
                              capture_output=True, text=True, env=env,
                              cwd=str(REPO / "tests" / "firmware"))
    if proc.returncode != 0 or "END" not in proc.stdout:
        raise SystemExit(proc.stdout[-2000:] + proc.stderr[-3000:])
    samples = []
    for line in proc.stdout.splitlines():
        if line.startswith("S "):
            parts = line.split()
            contrast = [int(v) for v in parts[1:4]]
            lit = [float(v) for v in parts[4:7]] if parts[4] != "-" else None
            samples.append((contrast, lit))
    return samples


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    from host_tools.drivers import driver_path

    driver_path("ssd1306")
    p, loads = params()
    configured = int(p["contrast"])
    samples = run_game(args.rounds, args.seed)
    # the lit share between two readings is taken as the last one read
    lit = [0.25, 0.25, 0.12]
    dimmed = [0.0, 0.0, 0.0]
    steady = [0.0, 0.0, 0.0]
    low = [0, 0, 0]
    for contrast, reading in samples:
        if reading is not None:
            lit = reading
        for i in range(3):
            dimmed[i] += panel_ma(p, lit[i], contrast[i])
            steady[i] += panel_ma(p, lit[i], configured)
            low[i] += contrast[i] < configured
    n = len(samples)
    names = ("left player", "right player", "terminal")
    print("%d rounds, %.1f h of simulated time; contrast %d, dimmed to 32" % (
        args.rounds, n / 3600, configured))
    print("%-13s %10s %14s %16s" % ("panel", "dimmed for", "mA dimming", "mA no dimming"))
    for i in range(3):
        print("%-13s %9.0f%% %14.1f %16.1f" % (names[i], 100 * low[i] / n, dimmed[i] / n,
                                              steady[i] / n))
    hours = []
    for label, panels in (("with dimming", dimmed), ("without", steady)):
        total = loads + sum(v / n for v in panels)
        h = p["cell capacity"] * p["usable fraction"] / total
        hw = p["worn capacity"] * p["usable fraction"] / total
        hours.append(h)
        print("%-13s cell current %6.1f mA: %5.1f h on a 2,500 mAh cell, %5.1f h worn"
              % (label, total, h, hw))
    print("dimming adds %.1f h (%.0f %%)" % (hours[0] - hours[1], 100 * (hours[0] / hours[1] - 1)))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    sys.exit(main())
