# The challenge log on flash: bounded, rotated, torn lines skipped, readable as JSON lines.
import json
import os

from mpytest import tmpdir
from terminal.log import NAME, OLD_NAME, ChallengeLog


def _size(path):
    return os.stat(path)[6]


def test_records_come_back_after_a_power_cycle_in_order():
    d = tmpdir()
    log = ChallengeLog(d)
    for i in range(3):
        log.append({"words": ["WORT%d" % i], "verdict": "acceptable"})
    again = ChallengeLog(d)
    assert [r["words"][0] for r in again.records()] == ["WORT0", "WORT1", "WORT2"]
    assert again.append({"words": []}) == 4


def test_rotation_bounds_the_flash_used():
    d = tmpdir()
    log = ChallengeLog(d, max_bytes=600)
    for i in range(100):
        log.append({"words": ["ZÜGE", "HAUS"], "n": i})
        assert _size(d + "/" + NAME) <= 600
    assert _size(d + "/" + OLD_NAME) <= 600
    seqs = [r["seq"] for r in ChallengeLog(d, max_bytes=600).records()]
    assert seqs == list(range(seqs[0], 101))      # the newest, in order, none lost between
    assert len(seqs) >= 6


def test_a_torn_last_line_is_skipped_and_not_glued_to_the_next():
    d = tmpdir()
    log = ChallengeLog(d)
    log.append({"words": ["A"]})
    with open(d + "/" + NAME, "ab") as f:
        f.write(b'{"words": ["\xc5')             # power cut in the middle of a record
    log = ChallengeLog(d)
    assert log.seq == 1
    log.append({"words": ["B"]})
    assert [r["words"] for r in log.records()] == [["A"], ["B"]]


def test_each_line_is_json_for_the_host_tools():
    d = tmpdir()
    log = ChallengeLog(d)
    log.append({"words": ["ŻÓŁW"], "verdict": "not_acceptable", "penalty": 0})
    with open(d + "/" + NAME, "rb") as f:
        lines = f.read().decode("utf-8").splitlines()
    assert json.loads(lines[0])["words"] == ["ŻÓŁW"]


def test_the_log_folder_is_made_when_missing():
    d = tmpdir() + "/logs"
    ChallengeLog(d).append({"x": 1})
    assert NAME in os.listdir(d)


def test_the_room_for_the_file_is_held_between_appends_and_after_a_failure():
    # The log holds a block the size of an open file from start-up and lets it go just
    # before an append opens the file: held again after, also when the write failed.
    d = tmpdir()
    log = ChallengeLog(d)
    assert log._room is not None and len(log._room) >= 252
    log.append({"words": ["A"]})
    assert log._room is not None
    os.rename(d, d + "-gone")                       # the folder is gone: the open fails
    try:
        log.append({"words": ["B"]})
        raise AssertionError("the append did not fail")
    except OSError:
        pass
    assert log._room is not None
    os.rename(d + "-gone", d)
    log.append({"words": ["C"]})
    assert [r["words"] for r in ChallengeLog(d).records()] == [["A"], ["C"]]
