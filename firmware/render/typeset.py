# Text in the panels' pixel font (render/font12.py) at three sizes, drawn with
# vline/fill_rect on any framebuf.FrameBuffer-like object:
#
#   MEDIUM  12-pixel lines, 5-column letters: the words on the terminal, the state on a
#           player's panel, the times on the terminal's idle screen
#   LARGE   24-pixel lines, each column doubled in height and drawn twice side by side
#           (bold): the verdict
#   XLARGE  24-pixel lines, every pixel doubled
#
# SMALL (0) is framebuf's own 8x8 font (render.glyphs), for the other terminal lines.
# A word list's tile of several letters (Spanish CH, LL, RR) is one character of the
# private-use range, TILE + its index in the list's tile table: its letters are drawn
# close together on a bar, so that the tile CH and the tiles C, H never look alike.
# Drawing allocates nothing; a text drawn again and again (a panel's state line, redrawn
# every second) is turned into glyph indices once (indices()) and drawn from them (run()).

from micropython import const
from render import font12 as _f

SMALL = 0
MEDIUM = 1
LARGE = 2
XLARGE = 3
HEIGHTS = b"\x08\x0c\x18\x18"     # line height by size
TILE = 0xE000
_NONE = const(255)
_BAR_ROW = const(11)              # the bar under a tile of several letters
_MARK_ROWS = const(7)             # rows 0-2: the marks above a letter

# The glyph index of each printable ASCII code (32-126), for run(): a time text or a
# number is bytes, and looking its characters up with chr() would make a one-character
# string each, which MicroPython interns (a qstr, taking heap for good on the chip).
# Built from the font's UTF-8 bytes, so that building it interns nothing either.
_ASCII = bytearray(95)


def _ascii_table():
    for k in range(95):
        _ASCII[k] = _NONE
    i = 0
    for b in _f.CHARS.encode():
        if b & 0xC0 == 0x80:
            continue                  # a continuation byte of the glyph before
        if 32 <= b < 127:
            _ASCII[b - 32] = i
        i += 1


_ascii_table()


def glyph(ch):
    """The glyph index of one character (the font has capitals, digits and punctuation;
    _NONE for anything else, drawn as '?')."""
    i = _f.CHARS.find(ch)
    return i if i >= 0 else _NONE


def _index(i):
    return i if i != _NONE else _f.CHARS.find("?")


def _advance(i, size):
    w = _f.WIDTHS[_index(i)]
    if size == LARGE:
        return w + 2
    if size == XLARGE:
        return 2 * w + 2
    return w + 1


def _tile_width(tile, size):
    n = 0
    for ch in tile:
        n += _advance(glyph(ch), size)
    return n


def width(text, size=MEDIUM, tiles=None):
    """Pixels the text takes (without the space after its last glyph)."""
    n = 0
    for ch in text:
        code = ord(ch)
        if code >= TILE and tiles is not None and code - TILE < len(tiles):
            n += _tile_width(tiles[code - TILE], size)
        else:
            n += _advance(glyph(ch), size)
    if not n:
        return 0
    return n - (2 if size == LARGE or size == XLARGE else 1)


def _column(fb, bits, x, y, size, color):
    # one column's runs of lit rows: 1x1, 1x2 (LARGE) or 2x2 (XLARGE) pixels a row
    row = 0
    while bits:
        if bits & 1:
            n = 0
            while bits & 1:
                bits >>= 1
                n += 1
            if size == MEDIUM:
                fb.vline(x, y + row, n, color)
            elif size == LARGE:
                fb.vline(x, y + 2 * row, 2 * n, color)
            else:
                fb.fill_rect(x, y + 2 * row, 2, 2 * n, color)
            row += n
        else:
            bits >>= 1
            row += 1


def _draw_glyph(fb, i, x, y, size, color):
    i = _index(i)
    w = _f.WIDTHS[i]
    cols = _f.COLS
    at = 2 * (_f.OFFSETS[2 * i] | (_f.OFFSETS[2 * i + 1] << 8))
    if size != LARGE:
        step = 2 if size == XLARGE else 1
        for c in range(w):
            _column(fb, cols[at + 2 * c] | (cols[at + 2 * c + 1] << 8), x + step * c, y, size,
                    color)
        return x + _advance(i, size)
    # LARGE is bold: each column drawn again one pixel to its right, except in the marks'
    # rows where that would fill a one-column gap (the two dots of an umlaut stay two)
    prev = 0
    cur = cols[at] | (cols[at + 1] << 8)
    for c in range(w + 1):
        nxt = cols[at + 2 * c + 2] | (cols[at + 2 * c + 3] << 8) if c + 1 < w else 0
        _column(fb, cur | (prev & ~(_MARK_ROWS & ~cur & nxt)), x + c, y, size, color)
        prev = cur
        cur = nxt
    return x + _advance(i, size)


def _draw_tile(fb, tile, x, y, size, color):
    start = x
    for ch in tile:
        x = _draw_glyph(fb, glyph(ch), x, y, size, color)
    scale = 1 if size == MEDIUM else 2
    fb.fill_rect(start, y + _BAR_ROW * scale, x - start - scale, scale, color)
    return x


def draw(fb, text, x, y, size=MEDIUM, color=1, tiles=None):
    """Draw text with its cell's top row at y; returns the x after it."""
    for ch in text:
        code = ord(ch)
        if code >= TILE and tiles is not None and code - TILE < len(tiles):
            x = _draw_tile(fb, tiles[code - TILE], x, y, size, color)
        else:
            x = _draw_glyph(fb, glyph(ch), x, y, size, color)
    return x


def indices(text, buf):
    """Glyph indices of text into the bytearray buf; returns how many (at most len(buf))."""
    n = 0
    for ch in text:
        if n >= len(buf):
            break
        buf[n] = glyph(ch)
        n += 1
    return n


def run(fb, data, start, end, x, y, size=MEDIUM, color=1, ascii=True):
    """Draw data[start:end]: ASCII bytes (a time text, a number), or with ascii False the
    glyph indices indices() made; with fb None only measure.  Returns the x after the
    last glyph and its space; allocates nothing."""
    for k in range(start, end):
        i = data[k]
        if ascii:
            i = _ASCII[i - 32] if 32 <= i < 127 else _NONE
        if fb is None:
            x += _advance(i, size)
        else:
            x = _draw_glyph(fb, i, x, y, size, color)
    return x


def number(buf, value, prefix=0, suffix=0):
    """value (0-9999) as ASCII digits into buf, after the byte prefix and before suffix
    (0: none); returns the length.  Allocates nothing."""
    n = 0
    if prefix:
        buf[0] = prefix
        n = 1
    if value > 9999:
        value = 9999
    digits = 1
    v = value
    while v >= 10:
        v //= 10
        digits += 1
    for i in range(digits):
        buf[n + digits - 1 - i] = 48 + value % 10
        value //= 10
    n += digits
    if suffix:
        buf[n] = suffix
        n += 1
    return n
