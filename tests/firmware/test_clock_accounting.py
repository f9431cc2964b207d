# Exact accounting over a long game: each side is charged exactly the time
# its clock ran, to the millisecond, across the 2^30 tick wrap.

from clock_helpers import MIN, Table
from clock.engine import PHASE_OVER, PHASE_PLAY
from timebase import TICKS_MAX, ticks_diff


class Lcg:
    """A small deterministic random source that behaves alike on both interpreters."""

    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def play_long_game(seed, events):
    table = Table("custom", {"overtime_cap_consequence": "none", "initial_ms": 90 * MIN},
                  start=TICKS_MAX - 30 * MIN)
    engine, rand = table.engine, Lcg(seed)
    start = table.now()
    ran = [0, 0]
    stopped = 0  # real time during which no clock ran
    for _ in range(events):
        dt = rand.below(3600)
        running = [engine.display(0).running, engine.display(1).running]
        table.clock.advance(dt)
        for side in (0, 1):
            if running[side]:
                ran[side] += dt
        if not running[0] and not running[1]:
            stopped += dt
        t, choice, side = table.now(), rand.below(40), rand.below(2)
        if choice < 22:
            engine.press(t, side)
        elif choice == 22:
            engine.pause(t)
        elif choice < 28:
            engine.resume(t, side if rand.below(4) == 0 else None)
        elif choice < 30:
            engine.hold(t, side)
        elif choice == 30:
            engine.start_challenge(t, side)
        elif choice < 34:
            engine.challenge_verdict(t, rand.below(2) == 0, 1 + rand.below(4))
        elif choice < 36:
            engine.accept(t, side)
        elif choice == 36:
            engine.cancel_challenge(t)
        engine.update(t)
    return table, start, ran, stopped


def test_a_two_hour_game_charges_each_side_exactly_the_time_its_clock_ran():
    table, start, ran, stopped = play_long_game(seed=7, events=4000)
    now = table.now()
    total = ticks_diff(now, start)
    assert total > 110 * MIN  # about two hours, across the wrap
    assert now < start  # the tick counter wrapped
    assert table.engine.phase == PHASE_PLAY
    assert table.used(0) == ran[0] and table.used(1) == ran[1]
    assert ran[0] + ran[1] + stopped == total
    assert ran[0] > 30 * MIN and ran[1] > 30 * MIN and stopped > 5 * MIN
    d = table.show(0)
    assert d.remaining_ms - d.overtime_ms == 90 * MIN - ran[0]


def test_the_same_game_played_twice_gives_the_same_figures():
    first = play_long_game(seed=11, events=600)
    second = play_long_game(seed=11, events=600)
    assert first[2] == second[2] and first[0].engine.snapshot() == second[0].engine.snapshot()


def test_the_game_log_adds_up_to_the_charged_time():
    import json

    table, start, ran, stopped = play_long_game(seed=3, events=200)
    table.engine.end_game(table.now())
    assert table.engine.phase == PHASE_OVER
    turns = [0, 0]
    for line in table.engine.log.export_jsonl():
        record = json.loads(line)
        if record["kind"] == "turn":
            turns[record["side"]] += record["ms"]
    assert table.engine.log.dropped == 0
    assert turns == ran
