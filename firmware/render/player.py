# A player's panel: the remaining time (or overtime) in large digits, the state on
# the top line (turn, pause, challenge, a clock the referee lent, hold, forfeit, game
# over, recovered) with the challenge window's seconds, and on the bottom line this player's penalty points and
# the opponent's time (a minus: the opponent is in overtime).  In a duplicate game
# both panels show the move's countdown, the top line the move's number (MOVE 3) or
# TIME UP; after the window the top line says the play stands (ACCEPTED).
#
#   +--------------------------+
#   | <state>        17s   >   |  y 0-11   MEDIUM (inverted while this side's clock runs)
#   |   -  m m : s s           |  y 13-48  seven-segment, 22x36
#   | -30        GEGNER 12:34  |  y 51-62  MEDIUM
#   +--------------------------+
#
# Everything moves by `shift` (0-3: one pixel right, down, both) against burn-in
# (app.device moves it at most once a minute); nothing leaves the panel.
# changed() compares the display models with what was drawn last without allocating;
# draw() runs only when something visible changed and allocates nothing either: the
# state's text becomes glyph indices once, when the state changes.

from micropython import const
from render import sevenseg, typeset
from render.typeset import MEDIUM, run

EXTRA_RECOVERED = 1
EXTRA_BATTERY_LOW = 2
EXTRA_NO_WORDLIST = 4
EXTRA_BATTERY_EMPTY = 8     # the game is saved and the device goes to sleep

WIDTH = 128
_TOP_H = const(12)
TIME_Y = 13
_BOTTOM_Y = const(51)
TIME_X = (WIDTH - 1 - sevenseg.time_width()) // 2
MARKER_X = WIDTH - 11       # the turn marker: an arrow-head at the top line's right end
TOP_WIDTH = MARKER_X - 3    # room for the state's text
# room for the opponent's label: the bottom line less the opponent's time ("-99:59", 30
# pixels), the gaps and this player's penalty ("-9999", 28 pixels)
OPPONENT_WIDTH = WIDTH - 2 - 30 - 5 - 28 - 4
_GLYPHS = const(24)                # glyphs of the longest state text


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
    if d.lent:
        f |= 2048
    return f | d.move << 12


class PlayerView:
    def __init__(self):
        self._text = bytearray(6)
        self._other = bytearray(6)
        self._flags = -1
        self._window = -1
        self._penalty = -1
        self._extra = -1
        self._shift = -1
        self._key = None            # the state key whose text is in _top
        self._move = 0              # the duplicate game's move number in _top
        self._top = bytearray(_GLYPHS)
        self._top_n = 0
        self._opp = bytearray(_GLYPHS)
        self._opp_n = -1
        self._num = bytearray(6)    # a number as ASCII (penalty, seconds)
        self.draws = 0

    def changed(self, d, other, extra, shift=0):
        if (self._flags != _flags(d) or self._window != d.window_s
                or self._penalty != d.penalty_points or self._extra != extra
                or self._shift != shift):
            return True
        text = d.text
        mine = self._text
        theirs = other.text
        seen = self._other
        for i in range(6):
            if mine[i] != text[i] or seen[i] != theirs[i]:
                return True
        return False

    def invalidate(self):
        """Draw anew (a new language: the texts are looked up again)."""
        self._flags = -1
        self._key = None
        self._opp_n = -1

    def draw(self, fb, d, other, extra, label, shift=0):
        """Draw the whole panel; label(key) gives the UI text for a state."""
        self._flags = _flags(d)
        self._window = d.window_s
        self._penalty = d.penalty_points
        self._extra = extra
        self._shift = shift
        self._text[:] = d.text
        self._other[:] = other.text
        self.draws += 1
        dx = shift & 1
        dy = (shift >> 1) & 1
        fb.fill(0)
        running = d.on_turn and d.running
        if running:
            fb.fill_rect(0, dy, WIDTH, _TOP_H, 1)
        color = 0 if running else 1
        key = state_key(d, extra)
        if key is not self._key or (key == "move" and d.move != self._move):
            self._key = key
            self._move = d.move
            text = label(key) if key else ""
            if key == "move":
                text = text % d.move          # once per move: the move's number
            self._top_n = typeset.indices(text, self._top)
        right = MARKER_X + dx - 3
        if d.window_s > 0:
            n = typeset.number(self._num, d.window_s, 0, 115)    # "17s"
            w = run(None, self._num, 0, n, 0, 0) - 1
            if run(None, self._top, 0, self._top_n, 1, 0, MEDIUM, 1, False) + 6 <= right - w:
                run(fb, self._num, 0, n, right - w, dy, MEDIUM, color)
        if self._top_n:
            run(fb, self._top, 0, self._top_n, 1 + dx, dy, MEDIUM, color, False)
        if d.on_turn:
            for i in range(4):
                fb.vline(MARKER_X + dx + i, dy + 3 + i, 7 - 2 * i, color)
        sevenseg.time_text(fb, TIME_X + dx, TIME_Y + dy, d.text)
        y = _BOTTOM_Y + dy
        if d.penalty_points:
            n = typeset.number(self._num, d.penalty_points, 45, 0)  # "-30"
            run(fb, self._num, 0, n, 1 + dx, y)
        # the opponent's time: its label, then " mm:ss" or "-mm:ss" (overtime)
        if self._opp_n < 0:
            self._opp_n = typeset.indices(label("opponent"), self._opp)
        t = other.text
        start = 1 if t[0] == 32 else 0
        x = WIDTH - 1 + dx - run(None, t, start, 6, 0, 0)
        run(fb, t, start, 6, x, y)
        x -= 4 + run(None, self._opp, 0, self._opp_n, 0, 0, MEDIUM, 1, False)
        run(fb, self._opp, 0, self._opp_n, x, y, MEDIUM, 1, False)


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
    if d.lent:
        return "lent"           # the referee lent the clock (3.1.1, 4.2c): both panels say so
    if d.hold:
        return "hold"
    if d.overtime:
        return "overtime"
    if d.window_open:
        return "window"
    if d.accepted:
        return "accepted"       # TSO 1.4.2a iv: the challenge period is over, the play stands
    if extra & EXTRA_BATTERY_LOW:
        return "battery_low"
    return None
