# 8x8 text (framebuf's built-in font, ASCII only) with the letters of the
# supported word lists drawn as their base letter plus a mark, so that Ż, Ź
# and Z, or Å and A, never look alike on the terminal.  Lower-case letters
# (in the UI texts) are their lower-case base letter plus the same mark, so
# ä and Ä differ too.  tests/firmware/test_render_glyphs.py checks that every
# letter of the texts and of the packer's tile tables gets its own glyph.

from micropython import const

# The accented letters, and at the same index in the two strings below each one's
# base letter and mark.  Strings rather than a table: on the chip they stay in flash
# and cost the heap one small object each (docs/runtime.md, Memory).
ACCENTS = "ĄĘĆŃÓŚŹÉŻŁÄÖÜÅØÆÑąęćńóśźéżłäöüåøæñ"
_BASES = const("AECNOSZEZLAOUAOANaecnoszezlaouaoan")
# marks: g ogonek, a acute, d dot, s stroke, u umlaut, r ring, o slash, e ae, t tilde
_MARKS = const("ggaaaaaadsuuuroetggaaaaaadsuuuroet")
_ABOVE = const("adurt")       # marks above the letter: the letter moves one row down


def _mark(fb, mark, x, y, color):
    if mark == "a":             # acute
        fb.pixel(x + 4, y, color)
        fb.pixel(x + 5, y, color)
    elif mark == "d":           # dot
        fb.fill_rect(x + 3, y, 2, 1, color)
    elif mark == "u":           # umlaut
        fb.pixel(x + 2, y, color)
        fb.pixel(x + 5, y, color)
    elif mark == "t":           # tilde
        fb.hline(x + 1, y, 6, color)
    elif mark == "r":           # ring
        fb.pixel(x + 3, y, color)
        fb.pixel(x + 4, y, color)
    elif mark == "g":           # ogonek
        fb.pixel(x + 5, y + 7, color)
        fb.pixel(x + 6, y + 7, color)
    elif mark == "s":           # stroke
        fb.pixel(x + 2, y + 3, color)
        fb.pixel(x + 3, y + 2, color)
    elif mark == "o":           # slash
        fb.line(x + 1, y + 6, x + 6, y + 1, color)
    elif mark == "e":           # ae
        fb.vline(x + 6, y + 1, 6, color)
        fb.hline(x + 6, y + 1, 2, color)
        fb.hline(x + 6, y + 3, 2, color)
        fb.hline(x + 6, y + 6, 2, color)


def text(fb, s, x, y, color=1, scale=1):
    """Draw s at (x, y); scale 2 doubles the size (for the terminal's big line)."""
    if scale == 1:
        plain = True
        for ch in s:
            if ord(ch) > 126:
                plain = False
                break
        if plain:
            fb.text(s, x, y, color)
            return
        for ch in s:
            _char(fb, ch, x, y, color)
            x += 8
        return
    for ch in s:
        _char_scaled(fb, ch, x, y, color, scale)
        x += 8 * scale


def _char(fb, ch, x, y, color):
    i = ACCENTS.find(ch)
    if i < 0:
        fb.text(ch if ord(ch) <= 126 else "?", x, y, color)
        return
    mark = _MARKS[i]
    # a mark above: the letter one row down leaves the top row free for it
    fb.text(_BASES[i], x, y + 1 if mark in _ABOVE else y, color)
    _mark(fb, mark, x, y, color)


_scratch = []


def _char_scaled(fb, ch, x, y, color, scale):
    import framebuf

    if not _scratch:
        buf = bytearray(8)
        _scratch.append(framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB))
    small = _scratch[0]
    small.fill(0)
    _char(small, ch, 0, 0, 1)
    for j in range(8):
        for i in range(8):
            if small.pixel(i, j):
                fb.fill_rect(x + i * scale, y + j * scale, scale, scale, color)
