# The terminal screen as text: up to 8 lines, each with its size (render.typeset:
# SMALL 8x8, 16 characters; MEDIUM 12 pixels high, the panels' pixel font; LARGE and
# XLARGE 24 pixels high), laid out from the top of the 128x64 panel.  The runtime
# draws it; it knows nothing of the display.  show() replaces every line, so nothing
# of an earlier screen can survive in the model.
#
# A word list's tile of several letters stands in a line as one private-use character
# (TILE + its index in `tiles`, the list's tile table): the words show as tiles.

ROWS = 8
COLS = 16
SMALL = 0
MEDIUM = 1
LARGE = 2
TILE = 0xE000


class Screen:
    def __init__(self):
        self.lines = [""] * ROWS
        self.sizes = bytearray(ROWS)   # render.typeset size of each line
        self.tiles = None              # the tile table for TILE characters, or None
        self.shift = False             # the layout may move by a pixel (the idle screen)
        self.clocks = -1               # first of the two rows the view fills with the times
        self.serial = 0                # changes whenever the content changes

    def show(self, lines, sizes=None, tiles=None, shift=False, clocks=-1):
        """sizes: a bytes-like with the size of each line (missing: SMALL); clocks: the
        row from which the view draws both sides' times (their lines hold the labels)."""
        changed = tiles is not self.tiles or shift != self.shift or clocks != self.clocks
        for row in range(ROWS):
            text = lines[row] if row < len(lines) else ""
            size = sizes[row] if sizes is not None and row < len(sizes) else SMALL
            if size == SMALL and len(text) > COLS:
                text = text[:COLS]
            if text != self.lines[row] or size != self.sizes[row]:
                self.lines[row] = text
                self.sizes[row] = size
                changed = True
        self.tiles = tiles
        self.shift = shift
        self.clocks = clocks
        if changed:
            self.serial += 1
        return changed

    def line(self, row):
        """Line `row` as written: tiles of several letters spelt out."""
        text = self.lines[row]
        tiles = self.tiles
        if tiles is None:
            return text
        out = ""
        for ch in text:
            code = ord(ch)
            out += tiles[code - TILE] if TILE <= code < TILE + len(tiles) else ch
        return out

    def text(self):
        return "\n".join(self.line(row) for row in range(ROWS))
