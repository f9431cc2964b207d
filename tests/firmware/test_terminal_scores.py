# The scores at the end of a game (terminal/scores.py): typed from the sheets on the
# keypad, each confirmed by the opponent, shown with the penalties the clock applied,
# written to the game log, kept across power cuts at every step, given to the hall.  The
# device on the fakes (runtime_rig) with the German fixture list, time driven by the
# test.  CPython and MicroPython.

import json

import runtime_rig
from clock.engine import PHASE_OVER, PHASE_PLAY
from terminal import flow as F


def _rig():
    return runtime_rig.Rig(terminal=True, lexicon="de", config={"lang": "en"})


def _cut(rig):
    rig.power_cut()
    rig.clock.advance(5000)
    return rig.boot()


def _game_with_penalties(rig):
    """A game with a wrongly challenged play (10 points for the right side, the
    challenger) and 70 s of overtime on the left (20 points), then its end."""
    rig.press("right")                      # left's clock runs
    rig.run(1000)
    rig.press("left")                       # left plays; right challenges a good word
    rig.press("challenge")
    rig.keys("1")
    rig.type_word("HAUS")
    rig.keys("#C#")
    assert rig.dev.flow.state == F.VERDICT
    rig.run(10000)                          # the verdict goes; right's clock runs
    rig.press("right")
    rig.dev.engine.adjust(rig.now(), 0, -(rig.left_ms(0) + 70000))   # left into overtime
    rig.run(100)
    rig.dev.engine.end_game(rig.now())
    rig.run(2000)                           # (keys are taken 1.5 s after a verdict goes)
    assert rig.dev.engine.phase == PHASE_OVER


def _records(kind):
    out = []
    with open("logs/games.jsonl") as f:
        for line in f:
            r = json.loads(line)
            if r["kind"] == kind:
                out.append(r)
    return out


def test_scores_typed_corrected_disputed_confirmed_and_shown_with_the_penalties():
    rig = _rig()
    try:
        _game_with_penalties(rig)
        flow = rig.dev.flow
        assert flow.state == F.SCORE and flow.active()      # asked at once
        shown = rig.screen()
        assert "END" in shown and "Score left:" in shown
        assert "Overtime" in shown and "-20" in shown       # left's penalties beside
        # a key at the wrong moment changes nothing: C, B, # with nothing typed
        rig.keys("CB#")
        assert flow.state == F.SCORE and flow.scores.digits == ["", ""]
        rig.keys("4129*")                       # a typo, corrected
        assert flow.scores.digits[0] == "412" and "412_" in rig.screen()
        rig.keys("#")
        assert flow.state == F.SCORE_CONFIRM and "Opponent" in rig.screen()
        rig.keys("*")                           # the opponent disputes: typed again
        assert flow.state == F.SCORE and flow.scores.digits[0] == "412"
        rig.keys("*3#")                         # 413 after all
        rig.keys("#1")                          # the opponent's keys: only C and * count
        assert flow.state == F.SCORE_CONFIRM and flow.scores.digits[0] == "413"
        rig.keys("C")
        assert flow.state == F.SCORE and flow.scores.side == 1
        assert "Score right:" in rig.screen() and "Challenges" in rig.screen()
        rig.keys("00")                          # one leading zero, not two
        assert flow.scores.digits[1] == "0"
        rig.keys("*38012345")                   # four digits at most
        assert flow.scores.digits[1] == "3801"
        rig.keys("*#C")
        assert flow.state == F.NEUTRAL and flow.sheet_scores() == [413, 380]
        lines = rig.screen().split("\n")
        assert lines[0].startswith("END") and lines[0].endswith("   L    R")
        assert lines[1] == "Sheet\t 413  380"
        assert lines[2] == "Time\t -20    0"
        assert lines[3] == "Chal.\t   0  -10"
        assert lines[4] == "Final\t 393  370"
        # in the game log, and so in logs/games.jsonl once the terminal is idle again
        [record] = _records("score")
        assert record["score"] == [413, 380] and record["final"] == [393, 370]
        # confirmed scores are final: A does not open the entry again
        rig.keys("A")
        assert flow.state == F.NEUTRAL and flow.sheet_scores() == [413, 380]
    finally:
        runtime_rig.leave()


def test_a_power_cut_at_every_step_of_the_entry_resumes_it():
    rig = _rig()
    try:
        _game_with_penalties(rig)
        steps = (("41", F.SCORE, ["41", ""]), ("2#", F.SCORE_CONFIRM, ["412", ""]),
                 ("C", F.SCORE, ["412", ""]), ("3", F.SCORE, ["412", "3"]),
                 ("00#", F.SCORE_CONFIRM, ["412", "300"]))
        for typed, state, digits in steps:
            rig.keys(typed)
            dev = _cut(rig)
            flow = dev.flow
            assert dev.engine.phase == PHASE_OVER
            assert flow.state == state and flow.scores.digits == digits, (typed, flow.state)
        assert flow.scores.confirmed == [True, False] and flow.scores.side == 1
        rig.keys("C")
        assert rig.dev.flow.sheet_scores() == [412, 300]
        dev = _cut(rig)                         # confirmed: kept, shown, logged once
        assert dev.flow.state == F.NEUTRAL and dev.flow.sheet_scores() == [412, 300]
        assert "Final\t 392  290" in rig.screen()
        rig.run(100)
        assert len(_records("score")) == 1
    finally:
        runtime_rig.leave()


def test_the_referee_key_leaves_the_entry_and_A_takes_it_up_again():
    rig = _rig()
    try:
        _game_with_penalties(rig)
        rig.keys("250#")
        rig.keys("D")                           # the referee's PIN entry at once
        flow = rig.dev.flow
        assert flow.state == F.REFEREE and flow.referee is not None
        rig.keys("D")                           # left again: the result, no scores
        assert flow.state == F.NEUTRAL and flow.sheet_scores() is None
        assert "A Enter scores" in rig.screen()
        dev = _cut(rig)                         # what was typed survives a cut meanwhile
        rig.run(100)
        assert dev.flow.state == F.NEUTRAL and "A Enter scores" in rig.screen()
        rig.keys("A")                           # back at the opponent's check
        assert dev.flow.state == F.SCORE_CONFIRM and dev.flow.scores.digits[0] == "250"
        assert _records("score") == []          # nothing logged before both confirmed
    finally:
        runtime_rig.leave()


def test_the_referee_taking_the_end_back_forgets_the_entry_and_a_reset_clears_it():
    rig = _rig()
    try:
        _game_with_penalties(rig)
        rig.keys("1#")
        from clock.corrections import undo

        engine = rig.dev.engine
        assert undo(engine, rig.now())          # the referee's undo of the end
        rig.run(100)
        flow = rig.dev.flow
        assert engine.phase == PHASE_PLAY and flow.state == F.NEUTRAL and flow.scores is None
        engine.end_game(rig.now())
        rig.run(100)
        assert flow.state == F.SCORE and flow.scores.digits == ["", ""]     # asked afresh
        engine.confirm_reset(engine.request_reset())
        rig.run(100)
        assert flow.state == F.NEUTRAL and flow.scores is None
        assert rig.dev.flow.saved_bytes() == b""
    finally:
        runtime_rig.leave()
