"""Cable pulls at full count: random byte offsets of word-list pushes to the real firmware.

    python bench/fault_pulls.py [--pulls 60] [--seed 1]

Kinds in turn: the line cut, the host (clockctl) killed, the device
killed; each lands at its drawn byte (tests/host/fault_pulls.py).  Prints the pulls per
kind, how many pushes resumed, and the time.  Figures: docs/faults.md.
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.host import fault_pulls  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--pulls", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fault-pulls-") as tmp:
        figures = fault_pulls.run(args.pulls, args.seed, Path(tmp) / "device",
                                  log=lambda m: print(m, file=sys.stderr, flush=True))
    print(json.dumps(figures, indent=1, sort_keys=True))
    print("pulls %d, old list answered every time, pushes resumed %d, complete before the "
          "pull %d, %.0f s" % (figures["pulls"], figures["resumed"],
                              figures["complete_before_the_pull"], figures["seconds"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
