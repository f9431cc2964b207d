# The terminal panel: the challenge flow's screen model (8 lines of at most 16
# characters, one of them possibly double size) and, while the terminal is
# idle, a status line at the bottom: battery, word list, preset.
# Redrawn only when the screen's serial or the status changes.

from render import glyphs


class TerminalView:
    def __init__(self):
        self._serial = -1
        self._status = None
        self.draws = 0

    def changed(self, screen, status):
        return screen.serial != self._serial or status != self._status

    def invalidate(self):
        self._serial = -1

    def draw(self, fb, screen, status):
        self._serial = screen.serial
        self._status = status
        self.draws += 1
        fb.fill(0)
        lines = screen.lines
        big = screen.big
        skip = -1
        for i in range(len(lines)):
            if i == skip:
                continue
            line = lines[i]
            if big is not None and i == big and i + 1 < len(lines):
                glyphs.text(fb, line[:8], 0, i * 8, 1, 2)
                skip = i + 1
            elif line:
                glyphs.text(fb, line[:16], 0, i * 8)
        if status and not lines[len(lines) - 1]:
            fb.hline(0, 55, 128, 1)
            glyphs.text(fb, status[:16], 0, 56)


def status_text(battery_percent, battery_level, wordlist, preset):
    """e.g. "87% PL  tso30" or "LOW! -- tso30" (16 characters at most)."""
    if battery_level == "usb":
        bat = "USB"
    elif battery_level in ("low", "empty"):
        bat = "LOW!"
    elif battery_percent < 0:
        bat = "--"
    else:
        bat = "%d%%" % battery_percent
    s = bat + " " + (wordlist or "--") + " " + preset
    return s[:16]
