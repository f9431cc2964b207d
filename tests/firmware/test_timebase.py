import timebase
from timebase import TICKS_MAX, TICKS_PERIOD, ManualClock, ticks_add, ticks_diff


def test_period_is_the_esp32_one():
    assert TICKS_PERIOD == 1 << 30


def test_add_wraps_at_2_pow_30():
    assert ticks_add(TICKS_MAX, 1) == 0
    assert ticks_add(TICKS_MAX - 10, 25) == 14
    assert ticks_add(5, -10) == TICKS_MAX - 4


def test_diff_is_signed_and_survives_the_wrap():
    assert ticks_diff(14, TICKS_MAX - 10) == 25
    assert ticks_diff(TICKS_MAX - 10, 14) == -25
    assert ticks_diff(1000, 1000) == 0


def test_diff_inverts_add_over_the_whole_range():
    for start in (0, 1, TICKS_MAX, TICKS_MAX - 999, 1 << 29, (1 << 29) - 1):
        for delta in (0, 1, 999, 7_200_000, -1, -7_200_000, (1 << 29) - 1, -(1 << 29)):
            assert ticks_diff(ticks_add(start, delta), start) == delta


def test_manual_clock_starts_before_the_wrap_and_crosses_it():
    clock = ManualClock()
    start = clock.ticks_ms()
    clock.advance(10_000)
    assert clock.ticks_ms() < start
    assert ticks_diff(clock.ticks_ms(), start) == 10_000


def test_manual_clock_refuses_to_go_back():
    from mpytest import raises

    raises(ValueError, ManualClock().advance, -1)


def test_manual_clock_accumulates_a_two_hour_game_exactly():
    clock = ManualClock(TICKS_MAX - 3)
    start = clock.ticks_ms()
    total = 0
    for step in range(1, 2400):
        clock.advance(step)
        total += step
    assert ticks_diff(clock.ticks_ms(), start) == total


def test_system_clock_stays_inside_the_period():
    from mpytest import only_micropython

    only_micropython("time.ticks_ms exists only on MicroPython")
    now = timebase.SystemClock().ticks_ms()
    assert 0 <= now <= TICKS_MAX



def test_clamp_keeps_a_stored_tick_comparing_right_at_any_age():
    from timebase import ticks_clamp

    # left alone, a tick 2**29 ms old looks as if it lay ahead
    then = 1000
    assert ticks_diff(ticks_add(then, 1 << 29), then) < 0
    # clamped at every round (here: every hour) it stays `limit` old, for 30 days
    limit = 30000
    now = then
    for _ in range(30 * 24):
        now = ticks_add(now, 3600000)
        then = ticks_clamp(now, then, limit)
        assert ticks_diff(now, then) == limit
    assert ticks_clamp(now, ticks_add(now, -limit + 1), limit) == ticks_add(now, -limit + 1)
    assert ticks_clamp(now, now, limit) == now
