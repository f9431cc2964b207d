# Millisecond time with the ESP32's tick arithmetic.
#
# The ESP32 port's time.ticks_ms() wraps at 2**30; the unix port's practically
# never wraps.  All firmware code does its arithmetic here, with the ESP32's
# period, so that a wrap in the middle of a game is exercised on every
# machine.  Ticks below 2**30 are also small ints on the chip: no heap use.

TICKS_PERIOD = 1 << 30
TICKS_MAX = TICKS_PERIOD - 1
_HALF = TICKS_PERIOD >> 1


def ticks_add(ticks, delta):
    # Every intermediate stays within the chip's 31-bit small ints: a sum
    # past 2**30 - 1 would be a big int, i.e. a heap allocation per call.
    delta &= TICKS_MAX
    room = TICKS_MAX - ticks
    if delta <= room:
        return ticks + delta
    return delta - room - 1


def ticks_diff(end, start):
    # Signed distance from start to end; correct while |end - start| < 2**29 ms
    # (about six days), far longer than any game, but not longer than a clock stays on:
    # a tick kept longer than that is clamped (ticks_clamp) or forgotten.  Subtracting 2**30 in two
    # steps keeps the small-int range for the same reason as above.
    d = (end - start) & TICKS_MAX
    if d >= _HALF:
        d -= TICKS_MAX
        d -= 1
    return d


def ticks_clamp(now, then, limit):
    """`then`, or the tick `limit` ms before `now` once `then` is older than that.

    A tick kept to measure an age (the last key, for dimming) must be clamped so at
    least every 2**29 - limit ms (the main loop does it at every round): ticks_diff
    alone turns negative once the age passes 2**29 ms, 6.2 days, and a clamped tick
    compares right at any uptime, all ages past `limit` being alike to its reader."""
    if ticks_diff(now, then) > limit:
        return ticks_add(now, -limit)
    return then


class SystemClock:
    """The chip's own millisecond ticks, reduced to the ESP32's period."""

    def __init__(self):
        import time

        self._ticks = time.ticks_ms

    def ticks_ms(self):
        return self._ticks() & TICKS_MAX


class ManualClock:
    """A clock that only moves when told to: tests and replays drive it.

    Starts a little before the wrap by default so that every test that runs
    for more than a few seconds of simulated time crosses it.
    """

    def __init__(self, start=TICKS_MAX - 5000):
        self._now = start & TICKS_MAX

    def ticks_ms(self):
        return self._now

    def advance(self, ms):
        if ms < 0:
            raise ValueError("time only moves forward")
        self._now = ticks_add(self._now, ms)
        return self._now

    def set(self, ticks):
        self._now = ticks & TICKS_MAX
