# A game at a table for the clock tests: an engine on a ManualClock that
# starts just before the 2^30 wrap, and short verbs for the players' acts.

from timebase import TICKS_MAX, ManualClock
from clock.engine import new_engine
from clock.presets import get_preset, edit_preset

MIN = 60000
SEC = 1000

# Starting ticks for a scenario run across the 2^30 tick wrap: none in the game, the
# wrap 5 s in (ManualClock's default), and the wrap right at the moments the TSO
# names: a window's end (20 s), the late limit (15 min), the time (30 min), the cap
# (35 min) and a move's warning (2:30 of a 3-minute move).
WRAP_STARTS = (1000, TICKS_MAX - 5 * SEC, TICKS_MAX - 20 * SEC + 1, TICKS_MAX - 15 * MIN,
               TICKS_MAX - 30 * MIN, TICKS_MAX - 35 * MIN, TICKS_MAX - 150 * SEC)


def across_the_wrap(scenario):
    """A test that runs scenario(start) from every tick of WRAP_STARTS."""
    def run():
        for start in WRAP_STARTS:
            try:
                scenario(start)
            except AssertionError:
                print("failed from start tick %d" % start)
                raise
    return run


class Table:
    def __init__(self, preset="tso30", changes=None, start=None):
        values = get_preset(preset)
        if changes:
            values = edit_preset(values, changes)
        self.preset = values
        self.clock = ManualClock() if start is None else ManualClock(start)
        self.engine = new_engine(values, self.clock)

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


def game(preset="tso30", changes=None, starting_side=0, start=None):
    return Table(preset, changes, start).start_game(starting_side)
