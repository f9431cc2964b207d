# The display model of one side: what a display driver shows, nothing about
# how.  One object per side, created once and rewritten in place by the
# engine, so that reading it on every refresh allocates nothing.

from micropython import const

_TEXT_LEN = const(6)  # sign + "mm:ss"


class SideDisplay:
    def __init__(self, side):
        self.side = side
        self.text = bytearray(b" 00:00")
        self.remaining_ms = 0
        self.overtime_ms = 0
        self.overtime = False
        self.overtime_penalty = 0
        self.challenge_penalty = 0
        self.penalty_points = 0
        self.on_turn = False
        self.running = False
        self.paused = False
        self.late = False
        self.lent = False  # the clock runs for the side not on turn (the referee lent it)
        self.window_s = 0
        self.window_open = False
        self.hold = False
        self.accepted = False
        self.challenging = False
        self.forfeit = False
        self.game_over = False
        self.move = 0  # a duplicate game: the move shown (from 1); 0 on two clocks


def write_time(buf, ms, negative):
    """Write " mm:ss" or "-mm:ss" into buf in place; seconds rounded up, 99:59 at most."""
    secs = (ms + 999) // 1000
    if secs > 5999:
        secs = 5999
    minutes = secs // 60
    secs -= minutes * 60
    buf[0] = 45 if negative else 32
    buf[1] = 48 + minutes // 10
    buf[2] = 48 + minutes % 10
    buf[3] = 58
    buf[4] = 48 + secs // 10
    buf[5] = 48 + secs % 10
