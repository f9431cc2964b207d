# A player's panel: the remaining time (or overtime) in large digits, the
# state on the top line (turn, pause, challenge, hold, forfeit, game over,
# recovered, the play accepted), penalty and challenge window on the bottom line.
# In a duplicate game both panels show the move's countdown, the top line the
# move's number (MOVE 3) or TIME UP.
#
#   +--------------------------+
#   | <state>          <turn>  |  y 0-7   (inverted while this side's clock runs)
#   |                          |
#   |   -  m m : s s           |  y 12-51 (seven-segment, 22x40)
#   |                          |
#   | <penalty>      <window>  |  y 56-63
#   +--------------------------+
#
# changed() compares the display model with what was drawn last without
# allocating; draw() runs only when something visible changed.

from render import glyphs, sevenseg

EXTRA_RECOVERED = 1
EXTRA_BATTERY_LOW = 2
EXTRA_NO_WORDLIST = 4
EXTRA_BATTERY_EMPTY = 8     # the game is saved and the device goes to sleep

WIDTH = 128
TIME_Y = 12
TIME_X = (WIDTH - sevenseg.time_width()) // 2


def _flags(d):
    f = 0
    if d.on_turn:
        f |= 1
    if d.running:
        f |= 2
    if d.paused:
        f |= 4
    if d.late:
        f |= 8
    if d.window_open:
        f |= 16
    if d.hold:
        f |= 32
    if d.challenging:
        f |= 64
    if d.forfeit:
        f |= 128
    if d.game_over:
        f |= 256
    if d.overtime:
        f |= 512
    if d.accepted:
        f |= 1024
    return f | d.move << 11


class PlayerView:
    def __init__(self):
        self._text = bytearray(6)
        self._flags = -1
        self._window = -1
        self._penalty = -1
        self._extra = -1
        self.draws = 0

    def changed(self, d, extra):
        if (self._flags != _flags(d) or self._window != d.window_s
                or self._penalty != d.penalty_points or self._extra != extra):
            return True
        text = d.text
        mine = self._text
        for i in range(6):
            if mine[i] != text[i]:
                return True
        return False

    def invalidate(self):
        self._flags = -1

    def draw(self, fb, d, extra, label):
        """Draw the whole panel; label(key) gives the UI text for a state."""
        self._flags = _flags(d)
        self._window = d.window_s
        self._penalty = d.penalty_points
        self._extra = extra
        self._text[:] = d.text
        self.draws += 1
        fb.fill(0)
        top = state_key(d, extra)
        running = d.on_turn and d.running
        if running:
            fb.fill_rect(0, 0, WIDTH, 9, 1)
        color = 0 if running else 1
        if top:
            text = label(top)
            if top == "move":
                text = text % d.move
            glyphs.text(fb, text[:12], 1, 1, color)
        if d.on_turn:
            # turn marker: an arrow-head at the right end of the top line
            for i in range(4):
                fb.vline(WIDTH - 10 + i, 1 + i, 7 - 2 * i, color)
        sevenseg.time_text(fb, TIME_X, TIME_Y, d.text)
        if d.penalty_points:
            glyphs.text(fb, "-%d" % d.penalty_points, 1, 56)
        if d.window_s > 0:
            s = "%ds" % d.window_s
            fb.text(s, WIDTH - 8 * len(s) - 1, 56, 1)
        elif d.hold:
            s = label("hold")[:7]
            glyphs.text(fb, s, WIDTH - 8 * len(s) - 1, 56)
        elif extra & EXTRA_BATTERY_LOW:
            fb.text("BAT", WIDTH - 25, 56, 1)


def state_key(d, extra):
    """The text key for the top line (or None)."""
    if extra & EXTRA_BATTERY_EMPTY:
        return "battery_empty"
    if d.forfeit:
        return "forfeit"
    if d.game_over:
        return "game_over"
    if d.challenging:
        return "challenge"
    if extra & EXTRA_RECOVERED and d.paused:
        return "recovered"
    if d.paused:
        return "pause"
    if d.move:
        # a duplicate game: the move's number while it runs or waits to start
        return "move" if d.running or d.remaining_ms else "time_up"
    if d.late:
        return "late"
    if d.hold:
        return "hold"
    if d.overtime:
        return "overtime"
    if d.window_open:
        return "window"
    if d.accepted:
        return "accepted"       # TSO 1.4.2a iv: the challenge period is over, the play stands
    return None
