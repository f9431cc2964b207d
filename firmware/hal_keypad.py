# 4x4 matrix keypad, scanned from the main loop.
#
# Rows are open-drain outputs, pulled low one at a time and otherwise let go;
# columns are inputs with pull-ups.  Open drain matters when two keys of one
# column are held: a push-pull row driven high would then be shorted through
# the two keys to the row being pulled low.  A key counts as pressed once it
# is seen in two scans in a row, and is reported with the time of the first
# of them; it must be seen released in two scans before it can be pressed
# again.  Scan state lives in preallocated buffers: a scan allocates nothing.

from micropython import const

_SCAN_MS = const(10)
_SEEN = const(1)        # seen down in one scan
_DOWN = const(2)        # reported
_UP_ONCE = const(3)     # reported, then seen up in one scan


class Keypad:
    def __init__(self, rows, cols, layout, active_level=0):
        self.rows = tuple(rows)
        self.cols = tuple(cols)
        self._active = active_level
        self._idle = 1 - active_level
        keys = []
        for line in layout:
            for ch in line:
                keys.append(ch)
        self.keys = tuple(keys)
        n = len(self.rows) * len(self.cols)
        self._state = bytearray(n)
        self._first = [0] * n        # ticks of the first scan that saw the key down
        for row in self.rows:
            row.value(self._idle)

    def scan(self, now, sink):
        """One scan of the whole matrix; sink(ch, ticks) for every confirmed press."""
        ncols = len(self.cols)
        state = self._state
        first = self._first
        active = self._active
        for r in range(len(self.rows)):
            row = self.rows[r]
            row.value(active)
            for c in range(ncols):
                i = r * ncols + c
                down = self.cols[c].value() == active
                s = state[i]
                if down:
                    if s == 0:
                        state[i] = _SEEN
                        first[i] = now
                    elif s == _SEEN:
                        state[i] = _DOWN
                        sink(self.keys[i], first[i])
                    elif s == _UP_ONCE:
                        state[i] = _DOWN
                else:
                    if s == _SEEN:
                        state[i] = 0
                    elif s == _DOWN:
                        state[i] = _UP_ONCE
                    elif s == _UP_ONCE:
                        state[i] = 0
            row.value(self._idle)

    def pressed(self):
        """Keys currently held (for the self-test); allocates, not for hot paths."""
        return [self.keys[i] for i in range(len(self.keys)) if self._state[i] in (_DOWN, _UP_ONCE)]


def create():
    import hwconfig
    from machine import Pin

    pull_ups = getattr(hwconfig, "PULL_UP_PINS", {})
    idle = 1 - hwconfig.BUTTON_ACTIVE_LEVEL
    # Active low: a row only ever sinks, so it is open-drain (released = idle).
    mode = Pin.OPEN_DRAIN if hwconfig.BUTTON_ACTIVE_LEVEL == 0 else Pin.OUT
    rows = [Pin(n, mode, value=idle) for n in hwconfig.KEYPAD_ROWS]
    cols = []
    for n in hwconfig.KEYPAD_COLS:
        if pull_ups.get(n, False):
            cols.append(Pin(n, Pin.IN, Pin.PULL_UP))
        else:
            cols.append(Pin(n, Pin.IN))
    return Keypad(rows, cols, hwconfig.KEYPAD_LAYOUT, hwconfig.BUTTON_ACTIVE_LEVEL)
