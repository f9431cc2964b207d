# The players' gestures on the device (docs/runtime.md, Gestures): challenge
# button, keypad B (hold) and C (accept), the pause switch held for the end of
# the game, the end-of-game screen, and the accidental versions of each.
# Time is driven by the rig's ManualClock.

import machine
import runtime_rig
from app.device import FINISH_HOLD_MS
from clock.engine import PHASE_ENDING, PHASE_OVER, PHASE_PLAY
from hal_buttons import Button
from terminal.flow import ACCEPT_ASK, FINISH_ASK, NEUTRAL, SCORE
from timebase import ManualClock


# The tests that take more than a few seconds: left out of `python3 -m tests --fast`
# (tests/conftest.py reads this; a firmware test module cannot import pytest).
SLOW = ("test_no_window_preset_end_phase_waits_for_the_opponents_accept",)


def _rig(preset=None):
    config = {"lang": "en"}
    if preset is not None:
        config["preset"] = preset
    return runtime_rig.Rig(terminal=True, config=config)


def _left_played(rig):
    """Right starts left's clock, left plays and presses: right may hold/challenge."""
    rig.press("right")
    rig.run(3000)
    rig.press("left")
    assert rig.dev.engine.challenger_side() == 1


def _right_on_turn(rig):
    """... and right is on turn after left's play, the window over."""
    _left_played(rig)
    rig.run(21000)
    assert rig.dev.engine.challenger_side() == -1 and rig.dev.engine.on_turn == 1


def _hold_pause(rig, ms):
    """Pause down for ms with the loop running; returns the down time (not released)."""
    t = rig.now()
    rig.down("pause")
    rig.run(ms)
    return t


def _lines(rig):
    return rig.dev.flow.screen().lines


def _text(rig, key):
    return rig.dev.flow.text(key)


# --- hal_buttons: long presses ----------------------------------------------

def _button():
    machine.sim_reset_all()
    clock = ManualClock()
    machine.sim_set_clock(clock)
    pin = machine.Pin(13, machine.Pin.IN, machine.Pin.PULL_UP)
    b = Button(pin, clock, 0, 20)
    b.attach(machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING)
    return clock, b


def test_long_press_is_reported_once_and_a_bounce_while_held_is_no_break():
    clock, b = _button()
    t0 = clock.ticks_ms()
    machine.sim_press(13)
    fired = []
    for _ in range(300):                       # 3 s held, polled every 10 ms
        clock.advance(10)
        now = clock.ticks_ms()
        assert b.poll(now) in (-1, t0)
        if now == t0 + 1000:                   # a 5 ms contact bounce at 1 s
            machine.sim_release(13)
            clock.advance(5)
            machine.sim_press(13)
        if b.long_press(clock.ticks_ms(), 2000):
            fired.append(clock.ticks_ms())
    assert len(fired) == 1 and 2000 <= fired[0] - t0 <= 2020, fired
    machine.sim_release(13)
    for _ in range(5):
        clock.advance(10)
        b.poll(clock.ticks_ms())
    assert not b.long_press(clock.ticks_ms(), 2000)


def test_short_press_is_never_long():
    clock, b = _button()
    machine.sim_press(13)
    for _ in range(150):                       # 1.5 s, released
        clock.advance(10)
        b.poll(clock.ticks_ms())
        assert not b.long_press(clock.ticks_ms(), 2000)
    machine.sim_release(13)
    for _ in range(100):                       # long after the release
        clock.advance(10)
        b.poll(clock.ticks_ms())
        assert not b.long_press(clock.ticks_ms(), 2000)


# --- hold: key B ---------------------------------------------------------------

def test_key_b_holds_the_last_play_and_the_window_still_ends_at_its_time():
    rig = _rig()
    try:
        _left_played(rig)
        engine = rig.dev.engine
        assert _lines(rig)[3] == _text(rig, "key_hold")
        assert _lines(rig)[4] == _text(rig, "key_accept")
        rig.key("B")
        assert engine.hold_side == 1
        assert engine.display(0).hold and engine.display(1).hold
        assert _lines(rig)[3] == _text(rig, "hold_on")
        assert engine.display(1).running                  # hold stops no clock
        rig.key("B")                                      # a second B changes nothing
        assert engine.hold_side == 1
        rig.run(20000)                                    # 3.1.3b: the window ends anyway
        assert engine.hold_side == -1 and engine.challenger_side() == -1
        assert _lines(rig)[3] != _text(rig, "hold_on")
    finally:
        runtime_rig.leave()


def test_key_b_without_a_challengeable_play_does_nothing():
    rig = _rig()
    try:
        rig.key("B")                                      # before the game
        _right_on_turn(rig)                               # window over
        rig.key("B")
        engine = rig.dev.engine
        assert engine.hold_side == -1 and engine.display(1).running
        assert _lines(rig)[0].split("\t")[0] == _text(rig, "not_now")   # a notice on the top line
        assert rig.dev.flow.state == NEUTRAL
    finally:
        runtime_rig.leave()


def test_hold_in_a_no_window_preset_stays_until_accepted():
    rig = _rig("nsf")
    try:
        _left_played(rig)
        engine = rig.dev.engine
        rig.key("B")
        rig.run(120000)
        assert engine.hold_side == 1 and engine.challenger_side() == 1
        rig.key("C")                                      # accepted: drawn
        assert engine.hold_side == -1 and engine.challenger_side() == -1
        assert engine.display(1).running and engine.phase == PHASE_PLAY
    finally:
        runtime_rig.leave()


# --- accept: key C ---------------------------------------------------------------

def test_key_c_accepts_early_and_the_play_can_no_longer_be_challenged():
    rig = _rig()
    try:
        _left_played(rig)
        engine = rig.dev.engine
        rig.run(5000)
        rig.key("C")
        assert engine.challenger_side() == -1 and not engine.display(0).window_open
        assert _lines(rig)[0].split("\t")[0] == _text(rig, "accepted_note")
        assert engine.display(1).running                  # right thinks on
        rig.press("challenge")                            # too late now
        assert not engine.challenging and not rig.dev.flow.active()
        assert _lines(rig)[0].split("\t")[0] == _text(rig, "not_now")   # a notice on the top line
    finally:
        runtime_rig.leave()


# --- challenge: the challenge button (unchanged: one press) -----------------------

def test_challenge_button_stops_the_clocks_at_its_interrupt_time_late_in_the_window():
    rig = _rig()
    try:
        _left_played(rig)                                 # left's press was 100 ms ago
        engine = rig.dev.engine
        rig.run(19850)                                    # 50 ms of the window left
        used = rig.left_ms(1)
        rig.press("challenge")
        assert engine.challenging and rig.dev.flow.active()
        # right's clock stopped at the press, not when the loop confirmed it
        assert rig.left_ms(1) == used
        rig.key("D")
        rig.key("#")                                      # cancelled: clocks as before
        assert not engine.challenging and engine.display(1).running
    finally:
        runtime_rig.leave()


def test_a_challenge_in_the_last_milliseconds_of_the_window_is_not_lost():
    rig = _rig()
    try:
        _left_played(rig)                                 # left's press was 100 ms ago
        engine = rig.dev.engine
        rig.run(19895)                                    # 5 ms of the window left
        used = rig.left_ms(1)
        rig.press("challenge")                            # confirmed after the window's end
        assert engine.challenging and rig.dev.flow.active()
        assert rig.left_ms(1) == used
    finally:
        runtime_rig.leave()


def test_a_challenge_just_after_the_window_is_refused():
    rig = _rig()
    try:
        _left_played(rig)
        engine = rig.dev.engine
        rig.run(19905)                                    # the window ended 5 ms ago
        rig.press("challenge")
        assert not engine.challenging and not rig.dev.flow.active()
    finally:
        runtime_rig.leave()


def test_a_bounce_on_the_challenge_button_is_no_challenge():
    rig = _rig()
    try:
        _left_played(rig)
        rig.down("challenge")
        rig.clock.advance(5)
        rig.up("challenge")
        rig.run(200)
        assert not rig.dev.engine.challenging and not rig.dev.flow.active()
    finally:
        runtime_rig.leave()


# --- finish: the pause switch held ------------------------------------------------

def test_pause_held_by_the_last_mover_asks_and_hash_ends_the_turn_at_the_press():
    rig = _rig()
    try:
        _right_on_turn(rig)
        engine = rig.dev.engine
        before = rig.left_ms(1)
        rig.run(1234)
        _hold_pause(rig, FINISH_HOLD_MS - 20)
        assert engine.paused and rig.dev.flow.state == NEUTRAL      # not yet
        at_press = rig.left_ms(1)
        assert at_press == before - 1234
        rig.run(30)
        assert rig.dev.flow.state == FINISH_ASK
        assert _lines(rig)[0] == _text(rig, "finish_ask").split("\n")[0]
        rig.up("pause")
        rig.run(5000)                                     # thinking about it costs nobody
        assert rig.dev.flow.state == FINISH_ASK
        rig.key("#")
        assert engine.phase == PHASE_ENDING and not engine.paused
        assert not engine.display(0).running and not engine.display(1).running
        assert rig.left_ms(1) == at_press
        assert engine.challenger_side() == 0              # left may still hold/challenge
        assert _lines(rig)[0].split("\t")[0] == _text(rig, "last_move")
        rig.run(20000)                                    # the final window ends: game over
        assert engine.phase == PHASE_OVER
        assert rig.dev.flow.state == SCORE                # the scores are asked for at once
        rig.keys("DD")                                    # (left: the result screen)
        lines = _lines(rig)
        assert lines[0] == _text(rig, "result_title")
        assert lines[1].startswith("L ") and lines[4].startswith("R ")
        assert bytes(engine.display(1).text).decode() in lines[4]
        assert engine.display(0).game_over and engine.display(1).game_over
    finally:
        runtime_rig.leave()


def test_pause_held_too_short_is_a_plain_pause():
    rig = _rig()
    try:
        _right_on_turn(rig)
        engine = rig.dev.engine
        _hold_pause(rig, FINISH_HOLD_MS - 100)
        rig.up("pause")
        rig.run(10000)
        assert engine.paused and rig.dev.flow.state == NEUTRAL
        rig.press("pause")
        assert not engine.paused and engine.display(1).running
        assert engine.phase == PHASE_PLAY
    finally:
        runtime_rig.leave()


def test_finish_prompt_d_goes_back_and_the_game_stays_paused():
    rig = _rig()
    try:
        _right_on_turn(rig)
        engine = rig.dev.engine
        _hold_pause(rig, FINISH_HOLD_MS + 100)
        rig.up("pause")
        assert rig.dev.flow.state == FINISH_ASK
        rig.key("C")                                      # a stray key: ignored
        rig.key("A")
        assert rig.dev.flow.state == FINISH_ASK and not engine.challenging
        rig.press("left")                                 # players' buttons: paused
        rig.press("right")
        assert engine.on_turn == 1
        rig.key("D")
        assert rig.dev.flow.state == NEUTRAL
        assert engine.paused and engine.phase == PHASE_PLAY
        rig.press("pause")
        assert engine.display(1).running
    finally:
        runtime_rig.leave()


def test_pause_tapped_during_the_finish_prompt_closes_it_and_resumes():
    rig = _rig()
    try:
        _right_on_turn(rig)
        engine = rig.dev.engine
        _hold_pause(rig, FINISH_HOLD_MS + 100)
        rig.up("pause")
        rig.run(100)
        left = rig.left_ms(1)
        rig.press("pause")
        assert rig.dev.flow.state == NEUTRAL
        assert not engine.paused and engine.phase == PHASE_PLAY
        rig.run(1000)
        assert engine.display(1).running and rig.left_ms(1) < left
    finally:
        runtime_rig.leave()


def test_release_bounce_after_the_long_press_does_not_close_the_prompt():
    rig = _rig()
    try:
        _right_on_turn(rig)
        _hold_pause(rig, FINISH_HOLD_MS + 100)
        for level in ("up", "down", "up", "down", "up"):   # contact bounce on release
            getattr(rig, level)("pause")
            rig.clock.advance(2)
        rig.run(500)
        assert rig.dev.flow.state == FINISH_ASK and rig.dev.engine.paused
    finally:
        runtime_rig.leave()


def test_pause_held_long_to_resume_or_by_the_wrong_moment_asks_nothing():
    rig = _rig()
    try:
        rig.press("right")
        rig.run(1000)
        rig.press("pause")
        _hold_pause(rig, 3000)                            # resuming, held long
        rig.up("pause")
        rig.run(100)
        engine = rig.dev.engine
        assert not engine.paused and rig.dev.flow.state == NEUTRAL
        _left_played(rig)                                 # the window is open: still fine
        rig.press("challenge")                            # during a challenge pause is ignored
        _hold_pause(rig, 3000)
        rig.up("pause")
        rig.run(100)
        assert engine.challenging and rig.dev.flow.state != FINISH_ASK
    finally:
        runtime_rig.leave()


# --- the end phase: hold, accept, challenge -------------------------------------------

def _finished(rig):
    _right_on_turn(rig)
    _hold_pause(rig, FINISH_HOLD_MS + 50)
    rig.up("pause")
    rig.run(50)
    rig.key("#")
    assert rig.dev.engine.phase == PHASE_ENDING


def test_end_phase_hold_restarts_the_holders_clock_and_accept_is_asked_twice():
    rig = _rig()
    try:
        _finished(rig)
        engine = rig.dev.engine
        rig.key("B")                                      # 5.1b iii
        assert engine.display(0).running and engine.hold_side == 0
        rig.key("C")
        assert rig.dev.flow.state == ACCEPT_ASK and engine.phase == PHASE_ENDING
        rig.key("*")                                      # no
        assert rig.dev.flow.state == NEUTRAL and engine.phase == PHASE_ENDING
        rig.key("C")
        rig.key("#")
        assert engine.phase == PHASE_OVER
        assert _lines(rig)[0].split("\t")[0] == _text(rig, "result_title")
    finally:
        runtime_rig.leave()


def test_accept_prompt_closes_itself_when_the_final_window_ends():
    rig = _rig()
    try:
        _finished(rig)
        rig.key("C")
        assert rig.dev.flow.state == ACCEPT_ASK
        rig.run(21000)
        # the question is gone: the score entry asks (terminal.scores)
        assert rig.dev.engine.phase == PHASE_OVER and rig.dev.flow.state == SCORE
    finally:
        runtime_rig.leave()


def test_no_window_preset_end_phase_waits_for_the_opponents_accept():
    rig = _rig("nsf")
    try:
        _left_played(rig)
        rig.key("C")                                      # right accepts left's play
        _hold_pause(rig, FINISH_HOLD_MS + 50)             # right's last move
        rig.up("pause")
        rig.run(50)
        rig.key("#")
        engine = rig.dev.engine
        rig.run(600000)                                   # no window: no end by itself
        assert engine.phase == PHASE_ENDING and engine.challenger_side() == 0
        rig.key("C")
        rig.key("#")
        assert engine.phase == PHASE_OVER
    finally:
        runtime_rig.leave()


def test_challenge_of_the_final_play_cancelled_ends_the_game():
    rig = _rig()
    try:
        _finished(rig)
        engine = rig.dev.engine
        rig.press("challenge")
        assert engine.challenging and rig.dev.flow.active()
        rig.key("D")
        rig.key("#")
        assert not engine.challenging and engine.phase == PHASE_OVER
    finally:
        runtime_rig.leave()


def test_result_screen_names_a_forfeit():
    rig = runtime_rig.Rig(terminal=True, config={
        "lang": "en", "preset": "custom",
        "preset_edits": {"initial_ms": 2000, "overtime_cap_ms": 60000}})
    try:
        rig.press("right")                                # left runs
        rig.run(63000)
        engine = rig.dev.engine
        assert engine.phase == PHASE_OVER and engine.forfeit_side == 0
        rig.keys("DD")                                    # the score entry left
        lines = _lines(rig)
        assert _text(rig, "forfeit_by") % _text(rig, "side_0") in lines
        # time, then the overtime and the challenge penalties apart
        assert lines[1:7] == ["L -01:01", "Overtime\t-20", "Challenges\t0",
                              "R  00:02", "Overtime\t0", "Challenges\t0"]
    finally:
        runtime_rig.leave()
