"""Power cuts: the kill script at a quick count (the full count: bench/fault_kills.py,
figures in docs/faults.md): SIGKILLs of the real firmware at random moments of games
with typed challenges, verdicts, the referee, holds, the end phase, overtime and
resets; what comes back must be what was shown or being saved, with both times within
1 s, the game must go on, and the game log must hold every record once, in order."""

import pytest

from tests.host import fault_kills

KILLS = 12


@pytest.mark.slow
def test_power_cuts_at_random_moments_lose_no_game(tmp_path):
    figures = fault_kills.run(KILLS, seed=20240612, folder=tmp_path / "device", log=None)
    assert figures["recoveries_checked"] + figures["boots_cut"] == KILLS
    assert figures["log_records"] > 0
