# A power cut between a challenge's record and the save of its verdict: every challenge
# is in the challenge log once, with the turn, words, verdict and penalty the same
# game without cuts gives it (tests/firmware/challenge_cuts.py; the full count of 200
# is bench/fault_challenge_cuts.py).

import challenge_cuts

QUICK = 20


# The tests that take more than a few seconds: left out of `python3 -m tests --fast`
# (tests/conftest.py reads this; a firmware test module cannot import pytest).
SLOW = ("test_cuts_between_a_challenge_record_and_its_save_leave_each_challenge_once",)


def test_cuts_between_a_challenge_record_and_its_save_leave_each_challenge_once():
    reference, ref_games, cuts = challenge_cuts.run(QUICK, cut=False)
    assert cuts == 0 and len(reference) == QUICK
    turns = [r["turn"] for r in reference]
    assert turns == sorted(turns) and turns[-1] > turns[0] > 0
    records, games, cuts = challenge_cuts.run(QUICK, cut=True)
    assert cuts == QUICK
    challenge_cuts.check(QUICK, records, games, reference)
    assert [g["verdict"] for g in games] == [g["verdict"] for g in ref_games]


def test_a_verdict_given_again_after_such_a_cut_is_not_written_twice():
    # What an older recovery did: the challenge back at "# = check" and # pressed again.
    # The record's seq is the challenge's: the file has it, the second one is not written.
    from terminal.log import ChallengeLog
    from mpytest import tmpdir

    log = ChallengeLog(tmpdir() + "/logs")
    seq = log.next_seq()
    assert log.append({"verdict": "acceptable"}, seq) == seq
    assert log.append({"verdict": "acceptable"}, seq) == seq
    assert [r["seq"] for r in log.records()] == [seq]
    assert log.find(seq)["verdict"] == "acceptable" and log.find(seq + 1) is None
    # a record that did not reach the file keeps its seq for the next try
    assert not log.has(seq + 1)
    assert log.append({"verdict": "cancelled"}) == seq + 1
