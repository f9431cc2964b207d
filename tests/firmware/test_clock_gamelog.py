# The game log: every turn, pause, challenge, adjustment and the end, as
# JSON lines, in bounded memory.

import json

from clock_helpers import MIN, SEC, game
from clock.gamelog import GameLog


def kinds(engine):
    return [json.loads(line)["kind"] for line in engine.log.export_jsonl()]


def test_a_game_is_logged_turn_by_turn():
    table = game()
    table.wait(40 * SEC)
    table.press(0)
    table.wait(5 * SEC)
    table.engine.pause(table.now())
    table.wait(1 * MIN)
    table.engine.resume(table.now())
    table.wait(5 * SEC)
    table.engine.hold(table.now(), 1)
    table.wait(2 * SEC)
    table.engine.start_challenge(table.now(), 1)
    table.wait(30 * SEC)
    table.engine.challenge_verdict(table.now(), True, 2)
    table.engine.adjust(table.now(), 0, -1 * MIN)
    table.wait(3 * SEC)
    table.engine.end_game(table.now())
    records = [json.loads(line) for line in table.engine.log.export_jsonl()]
    assert [r["kind"] for r in records] == [
        "start", "turn", "pause", "resume", "hold", "challenge", "adjust", "turn", "end"]
    start, turn0, turn1 = records[0], records[1], records[7]
    assert start["side"] == 0 and start["preset"] == "tso30" and start["at"] == 0
    assert turn0 == {"seq": 1, "kind": "turn", "side": 0, "start": 0, "end": 40 * SEC,
                     "ms": 40 * SEC, "left": 30 * MIN - 40 * SEC}
    # 1's turn spans the pause and the challenge; it ends with the game
    assert turn1["side"] == 1 and turn1["start"] == 40 * SEC and turn1["ms"] == 15 * SEC
    assert turn1["end"] == 40 * SEC + 15 * SEC + 1 * MIN + 30 * SEC
    assert records[2]["at"] == 45 * SEC and records[3] == {"seq": 3, "kind": "resume",
                                                           "at": 45 * SEC + 1 * MIN, "side": -1}
    challenge = records[5]
    assert challenge["side"] == 1 and challenge["words"] == 2
    assert challenge["verdict"] == "acceptable" and challenge["penalty"] == 20
    assert challenge["at"] == 40 * SEC + 5 * SEC + 1 * MIN + 7 * SEC
    assert records[6]["ms"] == -1 * MIN and records[6]["side"] == 0
    end = records[-1]
    assert end["left"] == [29 * MIN - 40 * SEC, 30 * MIN - 15 * SEC]
    assert end["penalty"] == [0, 0] and end["notes"] == []
    assert [r["seq"] for r in records] == list(range(len(records)))


def test_late_arrival_forfeit_and_withdrawn_play_are_logged():
    from clock_helpers import Table

    table = Table()
    table.engine.late_start(table.now(), 1)
    table.wait(2 * MIN)
    table.engine.arrive(table.now(), 1)
    table.press(1)
    table.press(0)
    table.engine.start_challenge(table.now(), 1)
    table.engine.challenge_verdict(table.now(), False, 1)
    table.press(0)  # the tiles taken back, the player restarts the challenger's clock
    table.wait(36 * MIN)
    records = [json.loads(line) for line in table.engine.log.export_jsonl()]
    assert [r["kind"] for r in records] == [
        "late", "arrive", "start", "turn", "challenge", "turn", "forfeit", "end"]
    assert records[1]["late_ms"] == 2 * MIN
    assert records[4]["verdict"] == "withdrawn" and records[4]["penalty"] == 0
    assert records[6]["side"] == 1 and records[6]["reason"] == "overtime"
    assert records[-1]["penalty"] == [0, 60]


def test_memory_is_bounded_and_old_records_are_dropped():
    log = GameLog(capacity=8)
    for n in range(20):
        log.add(4, n)  # pause records
    assert len(log) == 8 and log.dropped == 12
    lines = list(log.export_jsonl())
    assert len(lines) == 8 and json.loads(lines[0]) == {"seq": 12, "kind": "pause", "at": 12}
    assert [json.loads(x)["seq"] for x in log.lines_since(17)] == [18, 19]
    assert json.loads(GameLog.to_json(log.last()))["seq"] == 19


def test_a_long_game_keeps_the_log_in_its_capacity():
    table = game()
    for _ in range(600):
        table.wait(2 * SEC)
        table.press(table.engine.on_turn)
    log = table.engine.log
    assert len(log) == log.capacity and log.dropped == 601 - log.capacity
    assert json.loads(list(log.export_jsonl())[-1])["seq"] == 600


def test_reset_starts_a_new_log_numbered_on_and_keeps_the_old_one_for_its_holder():
    table = game()
    table.press(0)
    old = table.engine.log
    table.engine.confirm_reset(table.engine.request_reset())
    assert table.engine.log is not old and len(table.engine.log) == 0
    # the old log ends with the reset; the new one goes on numbering after it
    assert len(old) == 3 and json.loads(GameLog.to_json(old.last())) == {
        "seq": 2, "kind": "reset", "at": 0, "phase": 1}
    assert table.engine.log.next_seq() == 3
    table.press(1)
    assert table.engine.log.last()[0] == 3
