"""Random presses on every button and key of the real firmware, burst after burst in
every phase of games (the referee decides screen included), at a quick count (the
full count: bench/fault_presses.py, figures in docs/faults.md): no exception, and after
each burst buttons and keys bring a clock back to running."""

import pytest

from tests.host import fault_presses

PRESSES = 800   # every phase of fault_driver.PHASES at least once


@pytest.mark.slow
def test_random_presses_in_every_phase_never_strand_the_clock(tmp_path):
    figures = fault_presses.run(PRESSES, seed=20240613, folder=tmp_path / "device")
    assert figures["presses"] >= PRESSES
    assert figures["bursts_by_phase"].get("referee-decides", 0) >= 3
    assert len(figures["bursts_by_phase"]) >= 10, figures
    # the score entry after a game, both its steps
    assert {"score", "score-confirm"} <= set(figures["bursts_by_phase"]), figures


STORAGE_PRESSES = 300


@pytest.mark.slow
@pytest.mark.parametrize("storage, said", [("flash_full", "log_full"),
                                           ("nvs_failing", "not_saving")])
def test_random_presses_with_a_full_flash_or_a_failing_nvs_never_strand_the_clock(
        tmp_path, storage, said):
    # the storage fails from the start to the end: the game goes on all the same, and
    # the device says so
    figures = fault_presses.run(STORAGE_PRESSES, seed=20261127, folder=tmp_path / "device",
                                storage=storage)
    assert figures["presses"] >= STORAGE_PRESSES and len(figures["bursts_by_phase"]) >= 8
    assert figures["storage"] == said
    if storage == "flash_full":
        assert figures["lines_lost"] > 0
        assert not (tmp_path / "device" / "logs" / "games.jsonl").exists()
    else:
        assert figures["failed_saves"] > 0 and figures["log_records"] > 0
