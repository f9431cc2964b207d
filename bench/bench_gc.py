"""Garbage-collection pauses of the firmware on the heap each board gives, and what they
mean for a clock's charges and its displays.

    .venv/bin/python bench/bench_gc.py [--steps 9000]

For each target, `clockctl image` writes the images and the game of the memory tests
(tests/host/runtime_driver.py, mode gcpause: 90 s of play with challenges typed and
judged by the full Polish list, the game's end and both scores typed and confirmed) boots from them on the 32-bit MicroPython built from
../shared (tests/mpbuild.py), with the board's heap: on the reference board 64 KB growing
into 2 MB of PSRAM as the port's heap grows (MICROPY_GC_SPLIT_HEAP_AUTO), on the lean
target 96 KB of internal RAM, on the interpreter with its firmware frozen as its image
freezes it (tests/mpbuild.py, frozen_interpreter).  The
collections timed are the firmware's own: once a press or a key was handled (or the
terminal's screen changed, or the heap runs low), the display task collects at the first
frame from which no panel changes by itself for 250 ms (Device.quiet_ms), at most one every
500 ms and within a second of the event (firmware/app/tasks.py, display_step).  The driver
prints, for each, the ms until the next change of a panel the firmware saw; collections
outside the display task (a mode's modules dropped, an allocation that forced one) are
counted apart, with the same figure.

From host to chip: a model, not a measurement on a chip.  A collection marks what is
live and sweeps the heap up to its highest used block; both are memory-bound loops that
run the same py/gc.c on the host and on the chip.  Each of the firmware's collections is
timed five times on the host (the real one, then the same live set again at once) and
the shortest kept: other work on the host can only lengthen a timing.  The chip's time is
host time x scale:

    chip_ms(f) = host_us x (22.5 ms / cal_us) x (240 MHz / f)

- 22.5 ms: a published measurement of the same code: on an ESP32-S3 with 2 MB of SPIRAM,
  a collection with about 43 KB live takes 22-23 ms (micropython/micropython pull
  request #10235, "py/gc: Speed up incremental GC cycles by tracking the high watermark",
  measured with that change, which every release since v1.20 has).  The pull request
  does not give the CPU clock; the model takes it as 240 MHz, the S3's highest, so that
  the figures at a lower clock are not understated.
- cal_us: the same situation on this host (43 KB of small objects live in a 2 MB heap),
  the shortest of 30 collections in each of 5 runs.
- f: the clock the image runs, read from the port's configuration
  (tests/host/data/esp32_port_api.json, tests/host/gen_port_api.py): 160 MHz for the
  stock ESP32_GENERIC_S3 image (an N8R2; ESP-IDF's default, which the board does not
  change), 240 MHz for its SPIRAM_OCT variant (an N16R8; boards/sdkconfig.240mhz), 160 MHz
  for the WROOM (ESP32_GENERIC's default, which boards/TILECLOCK_WROOM keeps).  A
  collection is taken to scale with the CPU clock; the PSRAM's own clock does not change
  with it, so at 160 MHz this errs long too.
- The scale comes from PSRAM; the lean target's heap is in internal RAM, which is
  faster, so its chip figures are upper bounds.

What a player sees.  Nothing runs during a collection (starting at `at`, lasting `ms` on
the chip); after it, the tasks resume at once (app.tasks keeps each task's period from the
start of its round).  The panels' own changes (a running clock's next second, the
challenge window's countdown, a timed screen) due within (at, at + ms] are shown late by
at + ms - due; the first is the latest, so a collection holds the panels back by
ms - (ms until the next change) if that is positive.  Target: 95th percentile and most,
over the collections, <= 50 ms (the exit status).  Collections outside the display task
are taken as long as its median; one that came with a change of the terminal's screen
holds that change back by its whole length.  Inputs: on the ESP32 port a pin interrupt's
Python handler is scheduled (ports/esp32/machine_pin.c, mp_sched_schedule) and runs
between bytecodes, never during a collection, so a press made during one is timestamped
when it ends (the firmware charges presses at that timestamp, firmware/hal_buttons.py):
its charge moves by at + ms - t.  Keys are scanned, so one pressed during a collection
is seen and shown that much later.  Both are counted with their largest delay.  The
scripted game presses the challenge button 80 ms after a turn and types a key every 70 ms,
faster than a person does.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests import mpbuild  # noqa: E402
from tests.host import chip_api  # noqa: E402
from tests.host import device_image  # noqa: E402
from tests.host.memory_game import WROOM_HEAP, polish_image  # noqa: E402

# micropython/micropython#10235: ESP32-S3, 2 MB SPIRAM, ~43 kB live: 22-23 ms a collection,
# its clock taken as 240 MHz (not stated there; the S3's highest).
PUBLISHED_LIVE = 43 * 1024
PUBLISHED_MS = 22.5
PUBLISHED_MHZ = 240
LAG_TARGET_MS = 50

CALIBRATION = """
import gc, time
class Obj:
    def __init__(self, i):
        self.a = i; self.b = [i, i + 1]; self.c = "s%d" % i
keep = []
while gc.mem_alloc() < LIVE:
    keep.append(Obj(len(keep)))
    keep.append({"k%d" % (len(keep) % 50): len(keep)})
    keep.append(bytearray(64))
gc.collect()
ts = []
for i in range(30):
    t = time.ticks_us(); gc.collect(); ts.append(time.ticks_diff(time.ticks_us(), t))
print("CAL", gc.mem_alloc(), min(ts))
"""


def calibrate(interpreter: Path, runs: int = 5) -> tuple[int, int]:
    """(live bytes, host us) of the published situation on `interpreter`: the shortest
    of 30 collections in each of `runs` runs (other work on the machine only adds)."""
    code = CALIBRATION.replace("LIVE", str(PUBLISHED_LIVE))
    best = None
    for _ in range(runs):
        out = subprocess.run([str(interpreter), "-X", "heapsize=2M", "-c", code],
                             capture_output=True, text=True, check=True).stdout
        _, live, us = [line for line in out.splitlines() if line.startswith("CAL")][0].split()
        best = (int(live), int(us)) if best is None or int(us) < best[1] else best
    return best


def run(target: str, steps: int, tmp: Path) -> dict:
    images = device_image.clockctl_image(target, tmp / target / "images", lexicon=polish_image())
    # the lean target's budget (tests/host/memory_game.py)
    heap = ["-X", "heapsize=%d" % WROOM_HEAP] if target == "wroom" else None
    proc = device_image.boot(images, tmp / target / "boot", bits=32, target=target,
                             args="gcpause %d" % steps, heap=heap)
    if proc.returncode != 0:
        raise SystemExit("%s game failed:\n%s" % (target, (proc.stdout + proc.stderr)[-3000:]))
    lines = proc.stdout.splitlines()

    def row(tag):
        return [int(x) for x in [line for line in lines if line.startswith(tag + " ")][0].split()[1:]]

    collections = [tuple(map(int, line.split()[1:])) for line in lines if line.startswith("C ")]
    others = [tuple(map(int, line.split()[1:])) for line in lines if line.startswith("O ")]
    keys = [int(line.split()[1]) for line in lines if line.startswith("T ")]
    heap, areas = row("H")
    return {"collections": collections, "others": others, "presses": row("P"),
            "keys": keys, "heap": heap, "areas": areas}


def p95(values):
    return sorted(values)[int(0.95 * (len(values) - 1))] if values else 0.0


def lags(r: dict, scale: float) -> dict:
    """What the player sees of each collection, in chip time (module docstring)."""
    chip = [us * scale / 1000 for us, _at, _quiet in r["collections"]]
    spans = [(at, ms) for (_us, at, _quiet), ms in zip(r["collections"], chip)]
    # the panels' own changes: the first one due during a collection is the latest
    shown = [max(0.0, ms - quiet) for (_us, _at, quiet), ms in zip(r["collections"], chip)]
    # the collections outside the display task, taken as long as its median: one that
    # came with a change of the terminal's screen (a mode's modules dropped) holds that
    # change back by its whole length
    med = statistics.median(chip) if chip else 0.0
    forced = [med if screen else max(0.0, med - quiet) for _at, quiet, screen in r["others"]]
    spans += [(at, med) for at, _quiet, _screen in r["others"]]

    def late(times):
        out = []
        for t in times:
            held = [at + ms - t for at, ms in spans if at < t <= at + ms]
            if held:
                out.append(max(held))
        return out

    return {"chip": chip, "shown": shown, "forced": forced, "presses": late(r["presses"]),
            "keys": late(r["keys"])}


def clocks(target: str) -> list[tuple[str, int]]:
    """(image, CPU MHz) of each image the target runs, from the port's configuration."""
    data = chip_api.api()["targets"][target]
    if target == "s3":
        return [("N8R2", data["cpu_mhz"]), ("N16R8", data["variants"]["SPIRAM_OCT"]["cpu_mhz"])]
    return [("WROOM", data["cpu_mhz"])]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=9000, help="10 ms steps of play")
    ap.add_argument("--target", action="append", choices=("s3", "wroom"),
                    help="only this target (repeatable; default both)")
    args = ap.parse_args(argv)
    interpreter = mpbuild.interpreter(32)
    live, cal_us = calibrate(interpreter)
    scale240 = PUBLISHED_MS * 1000 / cal_us
    print("MODELLED chip times: host time (shortest of 5 timings of each collection) x "
          "scale x %d MHz / the image's clock" % PUBLISHED_MHZ)
    print("calibration: %d B live in a 2 MB heap: %d us on this host (32-bit build, "
          "shortest of 30 x 5); published for an ESP32-S3 with 2 MB SPIRAM: %.1f ms, "
          "taken as at %d MHz; scale %.0f x at %d MHz"
          % (live, cal_us, PUBLISHED_MS, PUBLISHED_MHZ, scale240, PUBLISHED_MHZ))
    print()
    print("%-6s %-5s %4s %5s %5s %15s %18s %16s %13s %14s %14s" % (
        "target", "image", "MHz", "heap", "colls", "host us med/p95", "chip ms med/p95/max",
        "panels late n p95/max", "forced n/late", "presses n/max", "keys n/max"))
    met = True
    worst = (0.0, 0.0)
    with tempfile.TemporaryDirectory() as tmp:
        for target in args.target or ("s3", "wroom"):
            r = run(target, args.steps, Path(tmp))
            host = [us for us, _at, _quiet in r["collections"]]
            for image, mhz in clocks(target):
                lag = lags(r, scale240 * PUBLISHED_MHZ / mhz)
                chip, shown = lag["chip"], lag["shown"]
                held = [x for x in shown if x > 0]
                print("%-6s %-5s %4d %4dK %5d %7d/%-7d %5.1f/%5.1f/%6.1f %4d %5.1f/%-6.1f "
                      "%4d/%-8d %3d/%-3d %5.1f %3d/%-3d %5.1f"
                      % (target, image, mhz, r["heap"] // 1024, len(host),
                         statistics.median(host), p95(host), statistics.median(chip),
                         p95(chip), max(chip), len(held), p95(shown), max(shown),
                         len(r["others"]), len([x for x in lag["forced"] if x > 0]),
                         len(lag["presses"]), len(r["presses"]),
                         max(lag["presses"], default=0.0), len(lag["keys"]), len(r["keys"]),
                         max(lag["keys"], default=0.0)))
                if target == "s3":
                    worst = max(worst, (p95(shown), max(shown)))
                    met = worst[0] <= LAG_TARGET_MS and worst[1] <= LAG_TARGET_MS
    print()
    print("peers (published, ESP32-S3 with 2 MB SPIRAM, micropython/micropython#10235): "
          "collection of an almost empty heap < 1 ms; with ~43 kB live 22-23 ms")
    print("panels late: collections during which a panel's own change (a clock's second, "
          "the window's countdown, a timed screen) fell due, and how late the latest one "
          "is shown, 95th percentile and most over all collections")
    print("forced: collections an allocation forced outside the display task, and of those "
          "(taken as long as the median) how many held a panel's change")
    print("presses, keys: how many of the game's came during a collection (of how many), "
          "and how much later their handler runs and timestamps them: a press's charge "
          "moves by that much")
    print("display lag of the panels' own changes on the reference board, modelled, at the "
          "slower clock: p95 %.1f ms, max %.1f ms (target <= %d ms: %s)"
          % (worst[0], worst[1], LAG_TARGET_MS, "met" if met else "NOT met"))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
