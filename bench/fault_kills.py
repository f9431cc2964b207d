"""Power cuts at full count: SIGKILL the real firmware at random moments of games.

    python bench/fault_kills.py [--kills 240] [--seed 1]

Each kill is drawn (a random time after the boot, a moment in the start-up itself,
the first moment of a drawn phase plus a random delay, or the moment a save begins)
and checked as tests/host/fault_kills.py describes.  Prints the kills per phase in
which they landed, the recoveries checked, the game log records checked and the time.
Figures: docs/faults.md.
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.host import fault_kills  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--kills", type=int, default=240)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fault-kills-") as tmp:
        figures = fault_kills.run(args.kills, args.seed, Path(tmp) / "device",
                                  log=lambda m: print(m, file=sys.stderr, flush=True))
    print(json.dumps(figures, indent=1, sort_keys=True))
    # fault_kills.run raises at the first boot that does not continue the game
    print("kills %d (%d of them in a start-up), games lost 0, recoveries checked %d, "
          "game log records in order %d, %.0f s"
          % (args.kills, figures["boots_cut"], figures["recoveries_checked"],
             figures["log_records"], figures["seconds"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
