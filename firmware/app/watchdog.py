# The hardware watchdog, fed only while every task shows it is alive.
#
# Each asyncio task calls beat(i, now) once per round.  check(now) feeds the
# machine.WDT only if every task has beaten within its limit; a task that
# hangs (a loop that never yields stops the whole scheduler, so the feeder
# never runs; a task stuck waiting stops beating) lets the watchdog reset the
# chip, and the game comes back from NVS, paused.

from timebase import ticks_diff

TIMEOUT_MS = 3000      # the chip resets when not fed for this long (whole loop hung)


class Watchdog:
    def __init__(self, wdt, clock, limits_ms):
        """wdt: machine.WDT (or None: only the bookkeeping); limits_ms: per task."""
        self._wdt = wdt
        self._limits = tuple(limits_ms)
        now = clock.ticks_ms()
        self._beats = [now] * len(self._limits)
        self.stale = -1          # index of the task that stopped beating, or -1

    def beat(self, index, now):
        self._beats[index] = now

    def healthy(self, now):
        beats = self._beats
        limits = self._limits
        for i in range(len(limits)):
            if ticks_diff(now, beats[i]) > limits[i]:
                self.stale = i
                return False
        self.stale = -1
        return True

    def check(self, now):
        """Feed the watchdog if all tasks are alive; returns whether it was fed."""
        if not self.healthy(now):
            return False
        if self._wdt is not None:
            self._wdt.feed()
        return True
