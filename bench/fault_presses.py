"""Random presses at full count: bursts on every button and key of the real firmware.

    python bench/fault_presses.py [--presses 10000] [--seed 1] [--storage flash_full|nvs_failing]

Bursts of 10-60 random presses (buttons held 10-400 ms, the pause switch sometimes
past the 2 s of the last-move gesture, keys 10-120 ms, gaps up to 0.5 s) in every phase
of games in turn, every fifth burst on the "referee decides" screen; after each burst
the players and the referee bring a clock back to running with buttons and keys only
(tests/host/fault_presses.py).  Prints the bursts per phase, the most game time that
took (10 ms steps) and the time.  Figures: docs/faults.md.
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.host import fault_presses  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--presses", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--storage", choices=("flash_full", "nvs_failing"), default="",
                    help="the filesystem full or the NVS failing throughout")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fault-presses-") as tmp:
        figures = fault_presses.run(args.presses, args.seed, Path(tmp) / "device",
                                    storage=args.storage)
    print(json.dumps(figures, indent=1, sort_keys=True))
    print("presses %d in %d bursts, exceptions 0, bursts without a running clock after 0, "
          "%.0f s" % (figures["presses"], figures["bursts"], figures["seconds"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
