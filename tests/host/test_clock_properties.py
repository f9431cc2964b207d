"""Properties of the clock engine over random presets and event sequences.

The oracle for "the time a clock ran" is the display model before each step:
whatever it says runs during a step of dt ms must be charged exactly dt, and
nothing else may be charged.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clock import gamelog as gl
from clock.corrections import reopen, switch, undo
from clock.engine import BOTH, PHASE_OVER, Engine
from clock.presets import edit_preset, get_preset
from clock.snapshot import MAX_SIZE
from timebase import TICKS_MAX, ManualClock

MIN = 60000
ACTIONS = ("press", "press", "press", "press", "pause", "resume", "resume_side", "hold",
           "accept", "challenge", "verdict_ok", "verdict_bad", "cancel", "finish", "late",
           "arrive", "lend", "lose_turn", "end", "end_5_2d", "undo", "reopen", "wait")

presets = st.builds(
    lambda initial, points, per, cap, consequence, window, kind, kind_points, late: edit_preset(
        get_preset("custom"),
        {"initial_ms": initial, "overtime_penalty_points": points, "overtime_penalty_per": per,
         "overtime_cap_ms": cap, "overtime_cap_consequence": consequence,
         "challenge_window_ms": window, "challenge_penalty_kind": kind,
         "challenge_penalty_points": kind_points, "late_forfeit_ms": late}),
    st.integers(1000, 5 * MIN), st.integers(0, 50), st.sampled_from(("started", "full")),
    st.integers(0, 4 * MIN), st.sampled_from(("forfeit", "none")), st.integers(0, 30000),
    st.sampled_from(("per_word", "per_play", "lose_turn", "none")), st.integers(0, 20),
    st.integers(0, 3 * MIN))

events = st.lists(
    st.tuples(st.integers(0, 90000), st.sampled_from(ACTIONS), st.integers(0, 1),
              st.integers(1, 5)),
    max_size=60)


def apply(engine, t, action, side, words):
    if action == "press":
        engine.press(t, side)
    elif action == "pause":
        engine.pause(t)
    elif action == "resume":
        engine.resume(t)
    elif action == "resume_side":
        engine.resume(t, side)
    elif action == "hold":
        engine.hold(t, side)
    elif action == "accept":
        engine.accept(t, side)
    elif action == "challenge":
        engine.start_challenge(t, side)
    elif action == "verdict_ok":
        engine.challenge_verdict(t, True, words)
    elif action == "verdict_bad":
        engine.challenge_verdict(t, False, words)
    elif action == "cancel":
        engine.cancel_challenge(t)
    elif action == "finish":
        engine.finish(t, side)
    elif action == "late":
        engine.late_start(t, side)
    elif action == "arrive":
        engine.arrive(t, side)
    elif action == "lend":
        switch(engine, t, side, True)
    elif action == "lose_turn":
        switch(engine, t, side, False)
    elif action == "end":
        engine.end_game(t)
    elif action == "end_5_2d":
        engine.end_game(t, True)
    elif action == "undo":
        undo(engine, t)
    elif action == "reopen":
        reopen(engine, t, side)


def expected_penalty(preset, overtime_ms):
    if overtime_ms <= 0:
        return 0
    if preset["overtime_penalty_per"] == "started":
        return preset["overtime_penalty_points"] * -(-overtime_ms // MIN)
    return preset["overtime_penalty_points"] * (overtime_ms // MIN)


def run(preset, start, steps, check=None):
    clock = ManualClock(start)
    engine = Engine(preset, clock)
    ran = [0, 0]
    for dt, action, side, words in steps:
        engine.update(clock.ticks_ms())
        running = [engine.display(0).running, engine.display(1).running]
        stopped = engine.paused or engine.challenging or engine.phase == PHASE_OVER
        before = [engine.used_ms(0, clock.ticks_ms()), engine.used_ms(1, clock.ticks_ms())]
        t = clock.advance(dt)
        engine.update(t)
        for s in (0, 1):
            if running[s]:
                # a clock that runs is charged dt unless a forfeit stopped it on the way (a
                # late forfeit may leave the other late clock running, 2.4b ii)
                charged = engine.used_ms(s, t) - before[s]
                stopped_by = engine.phase == PHASE_OVER or engine.forfeit_side in (s, BOTH)
                assert charged == dt or (stopped_by and 0 <= charged < dt)
                ran[s] += charged
            else:
                assert engine.used_ms(s, t) == before[s]
        if stopped:
            assert engine.used_ms(0, t) == before[0] and engine.used_ms(1, t) == before[1]
        forfeited = engine.forfeit_side
        apply(engine, t, action, side, words)
        if action == "undo" and forfeited is not None and forfeited >= 0:
            # a late forfeit undone is the arrival at the limit (TSO 2.4b: the player was
            # there in time, the arrival keyed late): the late side is charged the limit
            for s in (0, 1):
                used = engine.used_ms(s, t)
                if forfeited in (s, BOTH) and used == preset["late_forfeit_ms"] < ran[s]:
                    ran[s] = used
        if check:
            check(engine, t)
    return engine, clock, ran


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(presets, st.integers(0, TICKS_MAX), events)
def test_time_is_conserved_and_nothing_is_charged_while_stopped(preset, start, steps):
    engine, clock, ran = run(preset, start, steps)
    t = clock.ticks_ms()
    assert [engine.used_ms(0, t), engine.used_ms(1, t)] == ran


@settings(max_examples=300, deadline=None)
@given(presets, st.integers(0, TICKS_MAX), events)
def test_penalty_is_the_preset_function_of_overtime(preset, start, steps):
    def check(engine, t):
        engine.update(t)
        result = engine.result(t)
        for side in (0, 1):
            d = engine.display(side)
            figures = result["sides"][side]
            excused = figures["excused_overtime_ms"]
            assert d.overtime_ms == figures["overtime_ms"]
            assert d.overtime == (d.overtime_ms > 0) and (d.remaining_ms == 0 or d.overtime_ms == 0)
            assert d.overtime_penalty == expected_penalty(preset, d.overtime_ms - excused)
            assert d.penalty_points == d.overtime_penalty + d.challenge_penalty

    run(preset, start, steps, check)


@settings(max_examples=300, deadline=None)
@given(presets, st.integers(0, TICKS_MAX), events)
def test_forfeit_exactly_when_the_cap_is_passed(preset, start, steps):
    def check(engine, t):
        cap = preset["overtime_cap_ms"]
        forfeits = preset["overtime_cap_consequence"] == "forfeit"
        result = engine.result(t)
        overtimes = [result["sides"][s]["overtime_ms"] for s in (0, 1)]
        if engine.forfeit_side < 0:
            if forfeits:
                # past the cap only by the 1 ms of a forfeit the referee took back
                undone = any(r[1] == gl.UNDO for r in engine.log.records())
                for over in overtimes:
                    assert over <= cap or (undone and over == cap + 1)
        elif result["forfeit_reason"] == "overtime":
            assert forfeits and overtimes[engine.forfeit_side] == cap + 1
            assert engine.phase == PHASE_OVER
        else:
            late = preset["late_forfeit_ms"]
            sides = (0, 1) if engine.forfeit_side == BOTH else (engine.forfeit_side,)
            for side in sides:
                assert late and result["sides"][side]["used_ms"] == late + 1

    run(preset, start, steps, check)


@settings(max_examples=200, deadline=None)
@given(presets, st.integers(0, TICKS_MAX), events, st.integers(0, 100000))
def test_snapshot_restores_the_same_game_paused(preset, start, steps, later):
    engine, clock, _ = run(preset, start, steps)
    t = clock.ticks_ms()
    blob = engine.snapshot(t)
    assert len(blob) <= MAX_SIZE
    copy = Engine.restore(blob, preset, clock)
    was_paused = engine.pause(t)
    assert copy.paused == (was_paused or engine.paused)
    # the same game; only the log position differs when the original's pause logged
    assert _game_part(copy.snapshot(t)) == _game_part(engine.snapshot(t))
    for side in (0, 1):
        a, b = engine.display(side), copy.display(side)
        assert bytes(a.text) == bytes(b.text) and a.__dict__ == b.__dict__
    # both go on alike
    if was_paused:
        engine.resume(t)
        copy.resume(t)
    t = clock.advance(later)
    engine.update(t)
    copy.update(t)
    for side in (0, 1):
        assert engine.used_ms(side, t) == copy.used_ms(side, t)
        assert engine.display(side).__dict__ == copy.display(side).__dict__


def _game_part(blob):
    import struct
    from clock.snapshot import BODY as _BODY

    at = struct.calcsize(_BODY[:_BODY.index("I", 12)])
    return blob[:at] + blob[at + 4:-4]


@settings(max_examples=200, deadline=None)
@given(presets, events, st.data())
def test_a_damaged_snapshot_is_refused(preset, steps, data):
    engine, clock, _ = run(preset, TICKS_MAX - 1000, steps)
    blob = bytearray(engine.snapshot())
    index = data.draw(st.integers(0, len(blob) - 1))
    blob[index] ^= data.draw(st.integers(1, 255))
    try:
        Engine.restore(bytes(blob), preset, clock)
    except ValueError:
        return
    raise AssertionError("a damaged snapshot was restored")


def test_both_late_clocks_past_their_time_and_the_cap_end_the_game():
    # Found by the properties above: both players late, no late limit, a clock of 1 s and
    # an overtime cap of 0 that forfeits.  The first clock past time and cap forfeits
    # (5.2c) and ends the game; only a late forfeit (2.4b ii) lets the other late clock
    # run on.
    preset = edit_preset(get_preset("custom"), {
        "initial_ms": 1000, "overtime_cap_ms": 0, "overtime_cap_consequence": "forfeit",
        "late_forfeit_ms": 0})
    steps = [(0, "late", 0, 1), (0, "late", 1, 1), (1001, "press", 0, 1)]
    engine, clock, _ = run(preset, 0, steps)
    result = engine.result(clock.ticks_ms())
    assert result["forfeit_reason"] == "overtime" and engine.forfeit_side in (0, 1)
    assert engine.phase == PHASE_OVER
    assert result["sides"][engine.forfeit_side]["overtime_ms"] == 1
    # the referee takes the forfeit back: no forfeit, and the game not over
    engine, clock, _ = run(preset, 0, steps[:2] + [(1001, "undo", 0, 1)])
    assert engine.forfeit_side < 0 and engine.phase != PHASE_OVER
