"""clockctl flash-lexicon with the full Polish list onto a clock that writes its game log
as fast as it can, N times in a row; every line of the log checked after each run.

    python bench/bench_lexflash.py [--runs 20] [--image FILE]

The clock is the firmware's link task in real MicroPython (tests/host/link_device.py
--busy-log), its files in LittleFS on the fake flash, the lean target's partitions
(its board's table, then lexa and lexb, then the filesystem); esptool's own write-flash
goes through the simulated chip's download mode (tests/host/bootrig.py).  While the
clock runs, a task appends numbered lines to logs/games.jsonl with nothing between them
but a yield to the link.  Each run writes the list into the word list partition not in
use, the clock restarts, checks it and switches; then the log is read from the
filesystem and every line must be one the clock wrote, whole and in order
(tests/host/lexflash_race.py).  The run count and the outcome go into docs/host-tools.md.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.host import lexflash_race  # noqa: E402
from tests.host.memory_game import polish_image  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--image", help="word list image (default: the Polish list, built once)")
    args = ap.parse_args(argv)
    image = Path(args.image) if args.image else polish_image()
    print("image %s: %d bytes; %d runs" % (image, image.stat().st_size, args.runs))
    print("%4s %-6s %9s %11s %7s  %s" % ("run", "slot", "seconds", "log lines", "starts",
                                          "log"))
    intact = 0
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        rig = lexflash_race.busy_clock(Path(tmp) / "dev")
        try:
            for i in range(1, args.runs + 1):
                try:
                    r = lexflash_race.run(rig, image, Path(tmp))
                except lexflash_race.LogDamaged as e:
                    print("%4d %-6s %9s %11s %7s  DAMAGED: %s" % (i, "-", "-", "-", "-", e))
                    continue
                intact += 1
                print("%4d %-6s %9.1f %11d %7d  intact" % (i, r["slot"], r["seconds"],
                                                           r["lines"], r["starts"]))
        finally:
            rig.stop()
    print("%d of %d runs left every line of the log intact (%.0f s in all)"
          % (intact, args.runs, time.monotonic() - t0))
    return 0 if intact == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
