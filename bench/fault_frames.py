"""Random and mutated frames at full count against the real firmware during a game.

    python bench/fault_frames.py [--frames 100000] [--seed 1]

Pieces of the kinds tests/host/fault_frames.py lists, in batches of 2000; after each
batch a clean INFO checks the running clock's accounting to the millisecond; at the end
the configuration and the word list are compared.  Prints the pieces sent, the replies
(error replies among them), the clock checks and the time.  Figures: docs/faults.md.
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.host import fault_frames  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fault-frames-") as tmp:
        figures = fault_frames.run(args.frames, args.seed, Path(tmp) / "device",
                                   log=lambda m: print(m, file=sys.stderr, flush=True))
    print(json.dumps(figures, indent=1, sort_keys=True))
    print("pieces %d, replies %d (%d errors), crashes 0, configuration and list unchanged, "
          "clock checks %d exact, %.0f s" % (figures["pieces"], figures["replies"],
                                             figures["error_replies"], figures["clock_checks"],
                                             figures["seconds"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
