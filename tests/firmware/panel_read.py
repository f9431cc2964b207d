# Reading a panel back as a person reads it: where a text in the panels' pixel font
# (render.typeset) is drawn, and what a line of it says.  Works on anything with a
# pixel(x, y) function: a framebuf.FrameBuffer under MicroPython, the simulator's
# panel rows on the host.  The expected glyphs come from the firmware's own drawing
# code into a plain bitmap, so a test compares pixels with pixels.

from render import typeset

W = 128
H = 64


class Bitmap:
    """The FrameBuffer calls render.typeset uses, on a plain bytearray (1 byte a pixel)."""

    def __init__(self, w, h):
        self.w = w
        self.h = h
        self.buf = bytearray(w * h)

    def fill(self, c):
        for i in range(len(self.buf)):
            self.buf[i] = c

    def pixel(self, x, y, c=None):
        if 0 <= x < self.w and 0 <= y < self.h:
            if c is None:
                return self.buf[y * self.w + x]
            self.buf[y * self.w + x] = c
        return 0

    def fill_rect(self, x, y, w, h, c):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.pixel(xx, yy, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)


def rendered(text, size, tiles=None):
    """(width, height, list of lit (x, y)) of text drawn alone at (0, 0).  SMALL (the 8x8
    font of framebuf, render.glyphs) only under MicroPython."""
    if size == typeset.SMALL:
        import framebuf
        from render import glyphs

        w, h = 8 * len(text) + 2, 8
        fb = framebuf.FrameBuffer(bytearray((w + 7) // 8 * 8 * h), w, h, framebuf.MONO_HLSB)
        glyphs.text(fb, text, 0, 0)
        get = fb.pixel
    else:
        w = typeset.width(text, size, tiles) + 2
        h = typeset.HEIGHTS[size]
        bm = Bitmap(w, h)
        typeset.draw(bm, text, 0, 0, size, 1, tiles)
        get = bm.pixel
    lit = []
    for y in range(h):
        for x in range(w):
            if get(x, y):
                lit.append((x, y))
    return w, h, lit


def find(pixel, text, size=typeset.MEDIUM, tiles=None, inverted=False):
    """(x, y) where text is drawn exactly (its lit pixels lit, the cells around them
    dark), or None.  inverted: drawn dark on a lit bar."""
    w, h, lit = rendered(text, size, tiles)
    if not lit:
        return None
    on = 0 if inverted else 1
    dark = set(lit)
    ax, ay = lit[0]
    for y0 in range(-ay, H - ay):
        for x0 in range(-ax, W - ax):
            if (pixel(x0 + ax, y0 + ay) != 0) != (on == 1):
                continue
            ok = True
            for x, y in lit:
                px, py = x0 + x, y0 + y
                if not (0 <= px < W and 0 <= py < H) or (pixel(px, py) != 0) != (on == 1):
                    ok = False
                    break
            if not ok:
                continue
            # the glyphs' own blank pixels are blank on the panel: no other text overlaps
            for y in range(h):
                for x in range(w - 2):
                    if (x, y) in dark:
                        continue
                    px, py = x0 + x, y0 + y
                    if 0 <= px < W and 0 <= py < H and (pixel(px, py) != 0) == (on == 1):
                        ok = False
                        break
                if not ok:
                    break
            if ok:
                return (x0, y0)
    return None


def shown(pixel, text, size=typeset.MEDIUM, tiles=None):
    """The text is drawn somewhere on the panel, lit or inverted."""
    return find(pixel, text, size, tiles) is not None or \
        find(pixel, text, size, tiles, inverted=True) is not None


def fb_pixel(fb):
    return lambda x, y: fb.pixel(x, y)


def lit_count(pixel, x0=0, y0=0, x1=W, y1=H):
    n = 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            if pixel(x, y):
                n += 1
    return n
