"""Cable pulls at random offsets of a word-list push to the real firmware, at a quick
count (the full count: bench/fault_pulls.py, figures in docs/faults.md): the line cut,
the host killed, the device killed; the old list answers lookups through the
firmware's reader every time, and the push made again resumes, completes and verifies."""

import pytest

from tests.host import fault_pulls

PULLS = 6


@pytest.mark.slow
def test_cable_pulls_keep_the_old_list_and_the_push_resumes(tmp_path):
    figures = fault_pulls.run(PULLS, seed=20240614, folder=tmp_path / "device", log=None)
    assert figures["kinds"] == {"line": 2, "host": 2, "device": 2}
    assert figures["resumed"] + figures["complete_before_the_pull"] >= PULLS - 1
