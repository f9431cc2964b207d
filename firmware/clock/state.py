# What every kind of game on the clock shares, and what the engine's helpers read and
# write: the numbers of phases, cues and reasons, and the state of the two clocks
# (ClockState) with the arithmetic of their running stretches.  The engine
# (clock.core and its kinds, clock.engine and clock.duplicate) changes this state at
# events; clock.snapshot writes it, clock.snapshot_load reads it back, and the
# referee's corrections (clock.corrections) take it back or set it anew.

from timebase import ticks_diff

PHASE_SETUP = 0  # before the game; late clocks may run (TSO 2.4)
PHASE_PLAY = 1
PHASE_ENDING = 2  # last move made and clock stopped; the final play may be held/challenged (5.1b)
PHASE_OVER = 3

CUE_WINDOW_CLOSED = 1
CUE_OVERTIME = 2
CUE_OVERTIME_MINUTE = 4
CUE_FORFEIT = 8
CUE_GAME_OVER = 16
CUE_MOVE_WARNING = 32  # duplicate: 30 s of the move are left
CUE_MOVE_END = 64  # duplicate: the move's time is over

BOTH = 2  # forfeit_side: both players were more than 15 minutes late (2.4b ii, 6.1.1)

REASON_NONE = 0
REASON_OVERTIME = 1
REASON_LATE = 2
REASON_NAMES = ("", "overtime", "late")

NOTE_5_2D = 1  # ClockState.notes: 5.2d, overtime after the last move is not penalised

# What the referee's undo takes back, by the kind byte of the undo slot (ClockState.undo)
UNDO_END = 1
UNDO_ACCEPT = 2
UNDO_FORFEIT = 3
UNDONE = ("", "end", "accept", "forfeit")


def check_side(side):
    if side != 0 and side != 1:
        raise ValueError("side must be 0 or 1")


class ClockState:
    """The two clocks' accounting, the challenge window and what only the referee's
    undo needs, per side where there are two (index 0 and 1).  Times are ticks (of the
    board's clock) or game milliseconds (log time) as each field says.  A side's used
    time only grows by ticks_diff(stop, start) of its own running stretches, committed
    at events (start, charge); used_at() computes a running stretch without committing
    it, so that reading the time never changes what a player is charged."""

    def __init__(self, now):
        self.run = 0  # bitmask of running sides
        self.paused_run = 0  # what pause stopped
        self.chal_run = 0  # what the challenge stopped
        self.challenger = -1  # the side whose challenge is on (or was last)
        self.chal_at = 0  # game ms the challenge began
        self.since = [now, now]  # tick of the last commit of a running side
        self.used = [0, 0]  # ms charged (committed)
        self.start_used = [0, 0]  # used[] when the side's turn began (5.2d, log)
        self.turn_start = [0, 0]  # game ms when the side's turn began
        self.stopped_at = [0, 0]  # game ms when the side's clock last stopped
        self.turn_open = False  # the side on turn has a turn not yet logged
        self.credit = [0, 0]  # referee adjustments (ms, + or -)
        self.chal_pen = [0, 0]  # challenge penalty points
        self.late = [0, 0]  # ms a late clock ran before the game (2.4)
        self.excused = [0, 0]  # overtime not penalised (5.2d)
        self.notes = 0  # NOTE_ bits
        self.play_side = -1  # whose play is challengeable
        self.win_open = False  # the challenge window
        self.win_timed = False  # ... closes by itself (the preset's window ms)
        self.win_deadline = now  # tick it closes at
        self.win_left = 0  # ms it had left when paused
        self.undo = b""  # kind byte (UNDO_) + snapshot before the last end, accept or forfeit
        self.game_started = False  # game time runs from game_ref
        self.game_ref = now  # tick at which game time was game_base
        self.game_base = 0
        self.last = now  # tick of the last event: a floor for later ones
        self.ot_cued = [False, False]  # overtime cued (duplicate: the move's warning)
        self.ot_units = [0, 0]  # overtime penalty units cued

    def game_ms(self, t):
        """Game milliseconds at tick t (log time); 0 before the game started."""
        if not self.game_started:
            return 0
        return self.game_base + ticks_diff(t, self.game_ref)

    def running(self, side):
        return self.run & (1 << side) != 0

    def used_at(self, side, t):
        """ms charged to `side` at tick t, its running stretch included (not committed)."""
        used = self.used[side]
        if self.run & (1 << side):
            used += ticks_diff(t, self.since[side])
        return used

    def side_result(self, side, t, initial_ms, penalty_for):
        """One side's part of the game's result at tick t (ClockCore.result):
        penalty_for(overtime_ms) -> the preset's overtime penalty points."""
        used = self.used_at(side, t)
        left = initial_ms + self.credit[side] - used
        over = -left if left < 0 else 0
        ot_pen = penalty_for(over - self.excused[side])
        return {
            "used_ms": used,
            "remaining_ms": left if left > 0 else 0,
            "overtime_ms": over,
            "overtime_penalty": ot_pen,
            "challenge_penalty": self.chal_pen[side],
            "penalty_points": ot_pen + self.chal_pen[side],
            "excused_overtime_ms": self.excused[side],
            "credit_ms": self.credit[side],
            "late_ms": self.late[side],
        }

    def start(self, side, t):
        self.run |= 1 << side
        self.since[side] = t

    def charge(self, side, t):
        """Commit side's running stretch up to tick t (it runs on)."""
        self.used[side] += ticks_diff(t, self.since[side])
        self.since[side] = t
