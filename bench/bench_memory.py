"""Heap figures of the memory tests' game for each target, measured with room to spare.

    .venv/bin/python bench/bench_memory.py [--heap 256K] [--bits 32]

The memory tests (tests/host/test_memory_wroom.py, test_memory_s3.py) play the game with
the full Polish list on the images `clockctl image` writes, in the board's heap, and fail
when it does not fit.  This prints the same figures with a heap large enough that the game
always completes, so that a change can be weighed before and after (firmware peak against
the lean target's 60 KB, the whole game against its 96 KB).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.host.memory_game import figures, play, report  # noqa: E402

KB = 1024
BUDGET = {"wroom": (96 * KB, 60 * KB)}     # whole game, firmware peak


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heap", default="256K")
    parser.add_argument("--bits", type=int, default=32, choices=(32, 64))
    parser.add_argument("--target", action="append", choices=("wroom", "s3"))
    args = parser.parse_args(argv)
    for target in args.target or ["wroom", "s3"]:
        with tempfile.TemporaryDirectory() as tmp:
            _images, proc = play(target, Path(tmp), bits=args.bits,
                                 heap=["-X", "heapsize=" + args.heap])
            f = figures(proc)
        print(report("%s, %d-bit, -X heapsize=%s" % (target, args.bits, args.heap), f))
        if target in BUDGET:
            whole, firmware = BUDGET[target]
            print("  peak live %.1f KB of the %d KB budget; firmware %.1f KB of %d KB"
                  % (f.peak / KB, whole // KB, f.firmware_peak / KB, firmware // KB))
    return 0


if __name__ == "__main__":
    sys.exit(main())
