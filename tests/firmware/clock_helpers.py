# A game at a table for the clock tests: an engine on a ManualClock that
# starts just before the 2^30 wrap, and short verbs for the players' acts.

from timebase import ManualClock
from clock.engine import Engine
from clock.presets import get_preset, edit_preset

MIN = 60000
SEC = 1000


class Table:
    def __init__(self, preset="tso30", changes=None, start=None):
        values = get_preset(preset)
        if changes:
            values = edit_preset(values, changes)
        self.preset = values
        self.clock = ManualClock() if start is None else ManualClock(start)
        self.engine = Engine(values, self.clock)

    def now(self):
        return self.clock.ticks_ms()

    def wait(self, ms):
        self.clock.advance(ms)
        return self.engine.update(self.now())

    def press(self, side):
        return self.engine.press(self.now(), side)

    def show(self, side):
        self.engine.update(self.now())
        return self.engine.display(side)

    def text(self, side):
        return bytes(self.show(side).text).decode()

    def left(self, side):
        """Remaining ms, negative in overtime."""
        d = self.show(side)
        return -d.overtime_ms if d.overtime else d.remaining_ms

    def used(self, side):
        return self.engine.used_ms(side, self.now())

    def start_game(self, starting_side=0):
        """The opponent presses to start the starting player's clock (TSO 2.3)."""
        assert self.press(1 - starting_side)
        return self


def game(preset="tso30", changes=None, starting_side=0):
    return Table(preset, changes).start_game(starting_side)
