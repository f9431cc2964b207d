# The terminal screen as text: 8 lines of at most 16 characters (a 128x64
# SSD1306 with the 8x8 font).  The runtime draws it; it knows nothing of the
# display.  show() replaces every line, so nothing of an earlier screen can
# survive in the model.

ROWS = 8
COLS = 16


class Screen:
    def __init__(self):
        self.lines = [""] * ROWS
        self.big = None     # index of a line the runtime may draw double size (the next line is left empty)
        self.serial = 0     # changes whenever the content changes

    def show(self, lines, big=None):
        changed = big != self.big
        for row in range(ROWS):
            text = lines[row] if row < len(lines) else ""
            if len(text) > COLS:
                text = text[:COLS]
            if text != self.lines[row]:
                self.lines[row] = text
                changed = True
        self.big = big
        if changed:
            self.serial += 1
        return changed

    def text(self):
        return "\n".join(self.lines)
