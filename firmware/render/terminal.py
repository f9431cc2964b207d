# The terminal panel: the screen model of the challenge flow (terminal.screen: up to
# 8 lines, each SMALL, MEDIUM, LARGE or XLARGE) laid out from the top.  A tab in a line
# puts the rest of it against the right edge ("Ready<TAB>87%"); a column stop (\x0b) at
# the next third of the width (the key layout).  The idle screen (its
# `shift` set) moves by one column every few minutes against burn-in (app.device).
# Redrawn only when the screen's serial or the shift changes.

from micropython import const
from render import glyphs, typeset

WIDTH = 128
HEIGHT = 64
STOP = "\x0b"       # a column stop: the text after it starts at the next multiple of _COLUMN
_COLUMN = const(43)
_LABEL_X = const(10)       # the clock rows: "> " before the side's label
_SPACE = const(5)          # a space's advance in the pixel font


class TerminalView:
    def __init__(self):
        self._serial = -1
        self._dx = -1
        self._clocks = bytearray(16)    # what the clock rows show: both times, turn, penalties
        self._num = bytearray(6)
        self.draws = 0

    def changed(self, screen, shift=0, clocks=None):
        if screen.serial != self._serial or self._offset(screen, shift) != self._dx:
            return True
        if screen.clocks >= 0 and clocks is not None:
            seen = self._clocks
            for side in (0, 1):
                d = clocks[side]
                text = d.text
                at = 8 * side
                for i in range(6):
                    if seen[at + i] != text[i]:
                        return True
                if seen[at + 6] != (1 if d.on_turn else 0) or seen[at + 7] != d.penalty_points & 255:
                    return True
        return False

    def invalidate(self):
        self._serial = -1

    def _offset(self, screen, shift):
        return (shift & 1) if screen.shift else 0

    def draw(self, fb, screen, shift=0, clocks=None):
        """clocks: both sides' display models (clock.display.SideDisplay), for the idle
        screen's clock rows (screen.clocks)."""
        dx = self._offset(screen, shift)
        self._serial = screen.serial
        self._dx = dx
        self.draws += 1
        fb.fill(0)
        lines = screen.lines
        sizes = screen.sizes
        tiles = screen.tiles
        y = 0
        for i in range(len(lines)):
            size = sizes[i]
            line = lines[i]
            side = i - screen.clocks
            if screen.clocks >= 0 and clocks is not None and (side == 0 or side == 1):
                self._clock_row(fb, line, clocks[side], side, dx, y, size)
            elif line:
                tab = line.find("\t")
                if tab < 0:
                    _draw(fb, line, dx, y, size, tiles)
                else:
                    left = line[:tab]
                    right = line[tab + 1:]
                    _draw(fb, left, dx, y, size, tiles)
                    _draw(fb, right, WIDTH - 1 + dx - line_width(right, size, tiles), y, size,
                          tiles)
            y += typeset.HEIGHTS[size]
            if y >= HEIGHT:
                break

    def _clock_row(self, fb, label, d, side, dx, y, size):
        # "> L  29:58        -10": the side on turn marked, its label (the line's text),
        # the time (a minus: overtime) and the penalty points; allocates nothing.
        at = 8 * side
        seen = self._clocks
        text = d.text
        for i in range(6):
            seen[at + i] = text[i]
        seen[at + 6] = 1 if d.on_turn else 0
        seen[at + 7] = d.penalty_points & 255
        if d.on_turn:
            typeset.draw(fb, ">", dx, y, size)
        # as the text "> L  29:58" reads: marker, space, label, space, the time's sign
        x = typeset.draw(fb, label, dx + _LABEL_X, y, size)
        typeset.run(fb, text, 0, 6, x + _SPACE, y, size)
        if d.penalty_points:
            n = typeset.number(self._num, d.penalty_points, 45, 0)
            w = typeset.run(None, self._num, 0, n, 0, 0, size) - 1
            typeset.run(fb, self._num, 0, n, WIDTH - 1 + dx - w, y, size)


def _draw(fb, text, x, y, size, tiles):
    if STOP in text:
        # column stops: the keypad's three columns (terminal.help)
        for part in text.split(STOP):
            _draw(fb, part, x, y, size, tiles)
            x += _COLUMN
        return
    if size == typeset.SMALL:
        if tiles is not None:
            text = _spelt(text, tiles)
        glyphs.text(fb, text, x, y)
    else:
        typeset.draw(fb, text, x, y, size, 1, tiles)


def _spelt(text, tiles):
    # a tile of several letters as its letters (the small font has no tile glyphs)
    out = ""
    for ch in text:
        code = ord(ch)
        out += tiles[code - typeset.TILE] if typeset.TILE <= code < typeset.TILE + len(tiles) \
            else ch
    return out


def line_width(text, size, tiles=None):
    """Pixels a line's text takes at its size."""
    if size == typeset.SMALL:
        return 8 * len(text)
    return typeset.width(text, size, tiles)


def fits(text, size, width=WIDTH, tiles=None):
    """The text fits the width at its size (a tab counts as one column of space)."""
    left, _, right = text.partition("\t")
    w = line_width(left, size, tiles)
    if right:
        w += 1 + line_width(right, size, tiles) + (1 if size else 0)
    return w <= width
