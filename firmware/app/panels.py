# The three panels as the device draws them (app/device.py refresh): each redrawn and
# shown only when its content changed, its contrast set only when it changes, and the
# burn-in shift (hardware/README.md, Power budget): every _SHIFT_MS the content moves by
# a pixel (four positions), never while a running clock shows its last _SHIFT_QUIET_MS,
# when digits that jump could be misread.

from micropython import const
from timebase import ticks_diff

from render.player import PlayerView
from render.terminal import TerminalView

_SHIFT_MS = const(60000)
_SHIFT_QUIET_MS = const(10000)


class Panels:
    def __init__(self, now=0):
        self.views = (PlayerView(), PlayerView())
        self.terminal_view = TerminalView()
        self.shift = 0               # pixel shift of the panels, 0-3
        self._shift_at = now
        self._contrast = [-1, -1, -1]   # what each panel was last set to
        self._clocks = None          # (display 0, display 1) of the engine, for the terminal

    def invalidate(self, contrast=False):
        """Everything drawn anew at the next refresh (and the contrast set anew)."""
        if contrast:
            self._contrast[0] = self._contrast[1] = self._contrast[2] = -1
        for view in self.views:
            view.invalidate()
        self.terminal_view.invalidate()

    def restart_shift(self, now):
        self._shift_at = now

    def move(self, now, engine):
        """One pixel further every _SHIFT_MS, unless a running clock is in its last
        seconds."""
        if ticks_diff(now, self._shift_at) < _SHIFT_MS:
            return
        for side in (0, 1):
            d = engine.display(side)
            if d.running and not d.overtime and d.remaining_ms <= _SHIFT_QUIET_MS:
                return
        self._shift_at = now
        self.shift = (self.shift + 1) & 3

    def shift_in_ms(self, now):
        """ms until the next shift is due (held back in a clock's last seconds)."""
        return _SHIFT_MS - ticks_diff(now, self._shift_at)

    def draw_side(self, panel, side, engine, extra, label, contrast):
        """The player panel of `side`; 1 if it was shown, else 0."""
        self._set_contrast(panel, side, contrast)
        d = engine.display(side)
        other = engine.display(1 - side)
        view = self.views[side]
        if view.changed(d, other, extra, self.shift):
            view.draw(panel, d, other, extra, label, self.shift)
            return _show(panel)
        return 0

    def draw_terminal(self, panel, screen, engine, contrast):
        """The terminal's panel with `screen`; 1 if it was shown, else 0."""
        self._set_contrast(panel, 2, contrast)
        clocks = self._clocks
        if clocks is None or clocks[0] is not engine.display(0):
            clocks = self._clocks = (engine.display(0), engine.display(1))
        if self.terminal_view.changed(screen, self.shift, clocks):
            self.terminal_view.draw(panel, screen, self.shift, clocks)
            return _show(panel)
        return 0

    def _set_contrast(self, panel, index, value):
        if self._contrast[index] != value:
            self._contrast[index] = value
            try:
                panel.contrast(value)
            except OSError:
                pass


def _show(panel):
    try:
        panel.show()
        return 1
    except OSError:
        return 0        # a panel that dropped off its bus must not stop the clock
