"""Random presses on every button and key of the real firmware, burst after burst in
every phase of games (the referee decides screen included), at a quick count (the
full count: bench/fault_presses.py, figures in docs/faults.md): no exception, and after
each burst buttons and keys bring a clock back to running."""

import pytest

from tests.host import fault_presses

PRESSES = 600


@pytest.mark.slow
def test_random_presses_in_every_phase_never_strand_the_clock(tmp_path):
    figures = fault_presses.run(PRESSES, seed=20240613, folder=tmp_path / "device")
    assert figures["presses"] >= PRESSES
    assert figures["bursts_by_phase"].get("referee-decides", 0) >= 3
    assert len(figures["bursts_by_phase"]) >= 10, figures
