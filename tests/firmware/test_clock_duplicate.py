# mpytest-heapsize: 150K
# A duplicate game (FISF duplicate, the mail game's rounds; RULES.md): one countdown per
# move shown on both panels, 1-3 minutes, a warning 30 s before the end, no clock per
# player and no challenges; its game log.  Every scenario runs across the tick wrap.

import json

from mpytest import raises
from clock_helpers import MIN, SEC, Table, across_the_wrap
from clock import gamelog as gl
from clock.corrections import reopen, switch, undo
from clock.engine import (CUE_MOVE_END, CUE_MOVE_WARNING, Engine, PHASE_OVER, PHASE_PLAY,
                          PHASE_SETUP, new_engine)
from clock.presets import edit_preset, get_preset, validate_preset
from timebase import ManualClock


def shown(table):
    """What both panels show: (text, running, move), asserted to be the same."""
    a, b = table.show(0), table.show(1)
    assert bytes(a.text) == bytes(b.text) and a.running == b.running and a.move == b.move
    return bytes(a.text).decode(), a.running, a.move


def records(engine):
    return [json.loads(line) for line in engine.log.export_jsonl()]


def test_the_duplicate_preset_has_1_to_3_minutes_a_move_and_nothing_of_two_clocks():
    preset = get_preset("duplicate")
    assert preset["move_ms"] == 3 * MIN and validate_preset(preset)[0]
    assert preset["challenge_window_ms"] == 0 and preset["challenge_penalty_kind"] == "none"
    assert preset["late_forfeit_ms"] == 0 and preset["overtime_cap_consequence"] == "none"
    for ms in (1 * MIN, 90 * SEC, 3 * MIN):
        assert edit_preset(preset, {"move_ms": ms})["move_ms"] == ms
    for ms in (1 * MIN - 1, 3 * MIN + 1, -1):
        assert "move_ms" in str(raises(ValueError, edit_preset, preset, {"move_ms": ms}))
    assert get_preset("tso30")["move_ms"] == 0
    assert new_engine(preset, ManualClock()).duplicate
    assert not new_engine(get_preset("tso30"), ManualClock()).duplicate
    raises(ValueError, Engine, preset, ManualClock())       # another engine (new_engine)


@across_the_wrap
def test_one_countdown_per_move_on_both_panels(start):
    table = Table("duplicate", start=start)
    assert shown(table) == (" 03:00", False, 1)
    table.wait(10 * MIN)  # the letters are drawn and announced: no time runs
    assert table.engine.phase == PHASE_SETUP
    assert table.press(1)  # either button starts the move
    assert table.engine.phase == PHASE_PLAY and shown(table) == (" 03:00", True, 1)
    table.wait(1)
    assert shown(table)[0] == " 03:00"
    table.wait(999)
    assert shown(table)[0] == " 02:59"
    assert not table.press(0) and not table.press(1)  # during a move the buttons do nothing
    assert table.engine.challenger_side() == -1
    assert not table.engine.start_challenge(table.now(), 0)
    assert not table.engine.hold(table.now(), 1) and not table.engine.finish(table.now(), 0)
    assert not table.engine.late_start(table.now(), 0)
    assert not switch(table.engine, table.now(), 0, True)


@across_the_wrap
def test_a_warning_30s_before_the_end_and_the_move_ends_at_zero(start):
    table = Table("duplicate", start=start)
    table.press(0)
    assert not table.wait(150 * SEC - 1) & CUE_MOVE_WARNING  # 30.001 s left
    assert table.wait(1) & CUE_MOVE_WARNING
    assert shown(table) == (" 00:30", True, 1)
    assert not table.wait(30 * SEC - 1) & (CUE_MOVE_WARNING | CUE_MOVE_END)
    assert shown(table) == (" 00:01", True, 1) and table.engine.display(0).remaining_ms == 1
    assert table.wait(1) & CUE_MOVE_END
    assert shown(table) == (" 00:00", False, 1)
    table.wait(5 * MIN)  # the slips are collected, the next letters drawn
    assert shown(table) == (" 00:00", False, 1)
    assert table.press(1)
    assert shown(table) == (" 03:00", True, 2)
    move = records(table.engine)[-1]
    assert move == {"seq": 1, "kind": "move", "n": 1, "start": 0, "end": 3 * MIN, "ms": 3 * MIN}


@across_the_wrap
def test_the_move_time_is_the_presets_and_the_central_switch_pauses_it(start):
    table = Table("duplicate", {"move_ms": 1 * MIN}, start=start)
    assert shown(table) == (" 01:00", False, 1)
    table.press(0)
    table.wait(20 * SEC)
    assert table.engine.pause(table.now())
    assert table.show(0).paused and table.show(1).paused and not table.show(0).running
    assert not table.wait(5 * MIN) & CUE_MOVE_WARNING  # paused: nothing moves
    assert shown(table)[0] == " 00:40"
    table.engine.resume(table.now())
    assert not table.wait(10 * SEC - 1) & CUE_MOVE_WARNING
    assert table.wait(1) & CUE_MOVE_WARNING
    assert table.wait(30 * SEC) & CUE_MOVE_END
    move = records(table.engine)[-1]
    assert move["kind"] == "move" and move["ms"] == 1 * MIN
    assert move["end"] - move["start"] == 1 * MIN + 5 * MIN  # the pause is in the span
    assert [r["kind"] for r in records(table.engine)] == ["start", "pause", "resume", "move"]


@across_the_wrap
def test_the_referee_adds_time_to_the_move_and_ends_the_game(start):
    table = Table("duplicate", start=start)
    table.press(0)
    table.wait(2 * MIN)
    assert table.engine.adjust(table.now(), 1, 30 * SEC)  # either side: the move's countdown
    assert shown(table)[0] == " 01:30"
    assert table.wait(90 * SEC) & CUE_MOVE_END
    table.press(0)
    assert shown(table) == (" 03:00", True, 2)  # the extra time was the last move's
    table.wait(1 * MIN)
    assert table.engine.end_game(table.now())
    assert table.engine.phase == PHASE_OVER and table.show(0).game_over
    log = records(table.engine)
    assert [r["kind"] for r in log] == ["start", "adjust", "move", "move", "end"]
    assert log[3]["n"] == 2 and log[3]["ms"] == 1 * MIN
    assert table.engine.result()["moves"] == 2
    assert not table.press(0)
    assert undo(table.engine, table.now())  # a mistaken end: the move comes back, paused
    assert table.engine.paused and shown(table) == (" 02:00", False, 2)
    table.engine.resume(table.now())
    assert table.wait(2 * MIN) & CUE_MOVE_END
    table.engine.end_game(table.now())
    assert reopen(table.engine, table.now(), 0)  # the game goes on: the next move waits
    assert table.engine.phase == PHASE_PLAY and not table.show(0).running
    assert table.press(1) and shown(table) == (" 03:00", True, 3)


@across_the_wrap
def test_a_duplicate_game_is_restored_paused_with_its_move(start):
    table = Table("duplicate", start=start)
    table.press(0)
    table.wait(3 * MIN)
    table.press(1)
    table.wait(155 * SEC)  # move 2, the warning given
    copy = Engine.restore(table.engine.snapshot(table.now()), None, table.clock)
    assert copy.duplicate and copy.moves == 2 and copy.paused
    assert copy.log.next_seq() == table.engine.log.next_seq()
    copy.update(table.now())
    assert bytes(copy.display(1).text) == b" 00:25" and copy.display(1).move == 2
    assert copy.resume(table.now())
    cues = copy.update(table.clock.advance(25 * SEC))
    assert cues & CUE_MOVE_END and not cues & CUE_MOVE_WARNING  # one warning a move
    assert [json.loads(line)["kind"] for line in copy.log.export_jsonl()] == ["resume", "move"]


@across_the_wrap
def test_a_reset_starts_again_at_move_1_and_may_change_the_game(start):
    table = Table("duplicate", start=start)
    table.press(0)
    table.wait(4 * MIN)
    table.press(0)
    engine = table.engine
    assert engine.confirm_reset(engine.request_reset())
    assert engine.phase == PHASE_SETUP and shown(table) == (" 03:00", False, 1)
    assert records(engine) == []
    raises(ValueError, engine.confirm_reset, engine.request_reset(), get_preset("tso30"))


def test_a_move_allocates_nothing_on_the_hot_path():
    from mpytest import only_micropython

    only_micropython("gc.mem_alloc measures the MicroPython heap")
    import gc

    table = Table("duplicate")
    engine, clock = table.engine, table.clock
    table.press(0)
    engine.update(clock.advance(10))
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        n = 0
        while n < 2000:     # 20 s of the move, with the warning's moment in it
            engine.update(clock.advance(10))
            engine.display(0)
            engine.display(1)
            n += 1
        used = gc.mem_alloc() - before
    finally:
        gc.enable()
    assert used == 0, used
