"""Random and mutated frames against the real firmware while a game runs, at a quick
count (the full count: bench/fault_frames.py, figures in docs/faults.md): no crash, the
configuration and the word list unchanged, the running side charged exactly the time
that passed and the other side nothing."""

import pytest

from tests.host import fault_frames

PIECES = 10000


@pytest.mark.slow
def test_noise_on_the_link_changes_nothing_and_charges_exactly(tmp_path):
    figures = fault_frames.run(PIECES, seed=20240615, folder=tmp_path / "device", log=None)
    assert figures["pieces"] == PIECES and figures["clock_checks"] >= PIECES // 2000
    assert figures["error_replies"] > 1000        # the device answered the damaged frames
