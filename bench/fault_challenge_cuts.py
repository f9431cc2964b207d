"""Power cuts between a challenge's record and its save, at full count.

    python bench/fault_challenge_cuts.py [--cuts 200]

A game of turns and challenges on the simulated device (tests/firmware/challenge_cuts.py:
verdicts from the list both ways, the referee's verdict, withdrawn challenges), the power
cut at every challenge the moment its record is in logs/challenges.jsonl and before the
state with its verdict is saved; then the same game without cuts.  Each challenge must be
in the challenge log once, with the turn, words, verdict and penalty of the uncut game,
and once in the game log.  Figures: docs/faults.md.
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
for extra in (REPO / "tests" / "firmware", REPO / "host_tools" / "fakes", REPO / "firmware"):
    sys.path.insert(0, str(extra))

import challenge_cuts  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuts", type=int, default=200)
    args = ap.parse_args(argv)
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="challenge-cuts-") as tmp:
        os.environ["MPYTEST_TMP"] = tmp          # the device folders (mpytest.tmpdir)
        reference, _, _ = challenge_cuts.run(args.cuts, cut=False)
        records, games, cuts = challenge_cuts.run(args.cuts, cut=True)
    challenge_cuts.check(args.cuts, records, games, reference)    # raises on a difference
    print("cuts %d between a challenge record and its save, challenges logged once %d, "
          "turn numbers as uncut %d, %.0f s"
          % (cuts, len(records), len(records), time.monotonic() - began))
    return 0


if __name__ == "__main__":
    sys.exit(main())
