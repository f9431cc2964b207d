"""Heap figures of the memory tests' game for each target, measured with room to spare.

    .venv/bin/python bench/bench_memory.py [--heap 256K] [--bits 32] [--down-to 60]
                                           [--extra-names 300] [--target wroom]

The memory tests (tests/host/test_memory_wroom.py, test_memory_s3.py) play the game with
the full Polish list on the images `clockctl image` writes, in the board's heap, and fail
when it does not fit.  This prints the same figures with a heap large enough that the game
always completes, so that a change can be weighed before and after (firmware peak against
the lean target's 60 KB, the whole game beside the fakes' share against its 80 KB; the
lean target's firmware is frozen into the interpreter as into its image, tests/mpbuild.py).
With --down-to N it also plays the lean target's game in smaller heaps, from the memory
test's heap (its 80 KB beside the fakes' pinned 21 KB: 101 KB) down by 1 KB to N KB, and
prints the smallest it completes in: the margin the budget leaves (a heap fragments, so
the live peak alone does not say it).  --extra-names N interns N names of no use
before the game (the memory test's 300: no cliff at a qstr pool's edge).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.host.memory_game import figures, play, report  # noqa: E402
from tests.host.test_memory_wroom import BUDGET as WROOM_BUDGET  # noqa: E402
from tests.host.test_memory_wroom import FAKES, FIRMWARE_PEAK  # noqa: E402

KB = 1024
BUDGET = {"wroom": (WROOM_BUDGET, FIRMWARE_PEAK)}     # whole game beside the fakes, firmware


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heap", default="256K")
    parser.add_argument("--bits", type=int, default=32, choices=(32, 64))
    parser.add_argument("--target", action="append", choices=("wroom", "s3"))
    parser.add_argument("--down-to", type=int, metavar="KB",
                        help="also find the smallest heap (KB) the lean target's game "
                             "completes in, down to this")
    parser.add_argument("--extra-names", type=int, default=0, metavar="N",
                        help="intern N names of no use before the game")
    args = parser.parse_args(argv)
    for target in args.target or ["wroom", "s3"]:
        with tempfile.TemporaryDirectory() as tmp:
            _images, proc = play(target, Path(tmp), bits=args.bits,
                                 heap=["-X", "heapsize=" + args.heap],
                                 extra_names=args.extra_names)
            f = figures(proc)
        print(report("%s, %d-bit, -X heapsize=%s" % (target, args.bits, args.heap), f))
        if target in BUDGET:
            whole, firmware = BUDGET[target]
            print("  peak live %.1f KB beside the fakes' %.1f KB, of the %d KB budget; "
                  "firmware %.1f KB of %d KB" % ((f.peak - f.fakes) / KB, f.fakes / KB,
                                                 whole // KB, f.firmware_peak / KB,
                                                 firmware // KB))
        if target == "wroom" and args.down_to:
            print("  " + smallest(args.bits, (BUDGET["wroom"][0] + FAKES) // KB,
                                  args.down_to, args.extra_names))
    return 0


def smallest(bits: int, start: int, stop: int, extra_names: int = 0) -> str:
    """The smallest heap (in 1 KB steps from `start` KB down) the game completes in."""
    done = None
    for kb in range(start, stop - 1, -1):
        with tempfile.TemporaryDirectory() as tmp:
            _images, proc = play("wroom", Path(tmp), bits=bits, heap=["-X", "heapsize=%dK" % kb],
                                 extra_names=extra_names)
        if proc.returncode != 0:
            last = (proc.stdout + proc.stderr).strip().splitlines()[-1:]
            return ("completes in %s; not in %d KB (%s)"
                    % ("%d KB and more" % done if done else "none of these", kb,
                       last[0] if last else "no output"))
        done = kb
    return "completes in %d KB and more (and perhaps less)" % done


if __name__ == "__main__":
    sys.exit(main())
