# The game clock engine: two count-downs with overtime, the challenge
# window, pause, challenges, end of game and forfeit, driven by events that
# carry the tick at which they happened.  Rules: TSO (docs/clock-engine.md,
# which lists every reading of a clause and the decisions to confirm).
#
# Accounting: a side's used time only ever grows by ticks_diff(stop, start)
# of its own running stretches, committed at events; reading the display
# computes the running stretch on the fly without committing, so refreshing
# never changes what a player is charged.
#
# What only the referee does (undo, continue after a presumed end, switch the
# clocks without a play) is clock/corrections.py, loaded with the referee's
# game menu; a duplicate game is clock/duplicate.py, loaded for its preset
# (new_engine).  The engine keeps the one piece of undo they need: the state
# just before the last end, accept or forfeit, as a snapshot (_keep_undo).

from micropython import const
from timebase import ticks_add, ticks_diff
from clock.snapshot import CHALLENGE_KINDS
from clock.display import SideDisplay, write_time
from clock import gamelog as gl

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

_REASON_NONE = const(0)
REASON_OVERTIME = 1
REASON_LATE = 2
_REASON_NAMES = const(("", "overtime", "late"))

_NOTE_5_2D = const(1)  # 5.2d: overtime after the last move is not penalised

# The kinds of the undo slot (its first byte; names in clock.corrections)
_UNDO_END = const(1)
_UNDO_ACCEPT = const(2)
_UNDO_FORFEIT = const(3)

_MINUTE = const(60000)
_STALE_MS = const(3600000)  # stored ticks are kept within this of the present (update)
_LONGEST_MS = const(1000000000)  # 11.5 days: game and charged time stop there (update)


def _check_side(side):
    if side != 0 and side != 1:
        raise ValueError("side must be 0 or 1")


class Outcome:
    """What a challenge verdict decided."""

    def __init__(self, withdrawn, penalty_side, penalty_points, lost_turn, runs, game_over):
        self.withdrawn = withdrawn
        self.penalty_side = penalty_side
        self.penalty_points = penalty_points
        self.lost_turn = lost_turn
        self.runs = runs
        self.game_over = game_over

    def __repr__(self):
        return "Outcome(withdrawn=%r, penalty_side=%d, penalty_points=%d, lost_turn=%r, runs=%d, game_over=%r)" % (
            self.withdrawn, self.penalty_side, self.penalty_points, self.lost_turn, self.runs,
            self.game_over)


def new_engine(preset, clock, log_capacity=256, log_start=0):
    """The clock for `preset`: an Engine, or for a duplicate preset (move_ms > 0) a
    clock.duplicate.Duplicate (that module is loaded only then)."""
    if isinstance(preset, dict) and preset.get("move_ms"):
        from clock.duplicate import Duplicate

        return Duplicate(preset, clock, log_capacity, log_start)
    return Engine(preset, clock, log_capacity, log_start)


class Engine:
    duplicate = False  # one countdown per move instead of a clock per player (clock.duplicate)
    moves = 0  # moves started (a duplicate game; 0 in a game on two clocks)

    def __init__(self, preset, clock, log_capacity=256, log_start=0):
        """log_start: seq of the first game log record (the device's numbering goes on
        across games and boots)."""
        from clock.presets import validate_preset

        ok, message = validate_preset(preset)
        if not ok:
            raise ValueError(message)
        self.clock = clock
        self._displays = (SideDisplay(0), SideDisplay(1))
        self._log_capacity = log_capacity
        self._log_start = log_start
        self.log = None
        self._reset_token = 0
        self._token_counter = 0
        self._set_preset(preset)
        self._clear(clock.ticks_ms())

    # -- setup -------------------------------------------------------------

    def _set_preset(self, preset):
        if (preset["move_ms"] > 0) != self.duplicate:
            raise ValueError("move_ms: a duplicate game and a game on two clocks are "
                             "different engines (clock.engine.new_engine)")
        self.preset = dict(preset)
        self._initial = preset["initial_ms"]
        self._ot_points = preset["overtime_penalty_points"]
        self._ot_started = preset["overtime_penalty_per"] == "started"
        self._cap = preset["overtime_cap_ms"]
        self._cap_forfeits = preset["overtime_cap_consequence"] == "forfeit"
        self._window_ms = preset["challenge_window_ms"]
        self._chal_kind = CHALLENGE_KINDS.index(preset["challenge_penalty_kind"])
        self._chal_points = preset["challenge_penalty_points"]
        self._late_cap = preset["late_forfeit_ms"]

    def _clear(self, now):
        # A new game gets a new log; its numbering goes on from the last one's.
        old = self.log
        self.log = gl.GameLog(self._log_capacity,
                              old.next_seq() if old is not None else self._log_start)
        self.phase = PHASE_SETUP
        self.on_turn = -1
        self.paused = False
        self.challenging = False
        self._run = 0  # bitmask of running sides
        self._paused_run = 0  # what pause stopped
        self._chal_run = 0  # what the challenge stopped
        self._challenger = -1
        self._chal_at = 0
        self._since = [now, now]  # tick of the last commit of a running side
        self._used = [0, 0]  # ms charged (committed)
        self._start_used = [0, 0]  # used[] when the side's turn began (5.2d, log)
        self._turn_start = [0, 0]  # game ms when the side's turn began
        self._stopped_at = [0, 0]  # game ms when the side's clock last stopped
        self._turn_open = False  # on_turn has a turn not yet logged
        self._credit = [0, 0]  # referee adjustments
        self._chal_pen = [0, 0]
        self._late = [0, 0]
        self._excused = [0, 0]  # overtime not penalised (5.2d)
        self._notes = 0
        self._play_side = -1  # whose play is challengeable
        self._win_open = False
        self._win_timed = False
        self._win_deadline = now
        self._win_left = 0  # while paused
        self.hold_side = -1
        self.accepted = False  # the last play stands: accepted, its window over, or judged acceptable
        self.forfeit_side = -1
        self.last_challenge = None  # (challenger, Outcome) of this game's last verdict (the hall)
        self.forfeit_reason = _REASON_NONE
        self._limit_reason = _REASON_NONE
        self._undo = b""  # kind byte + snapshot before the last end, accept or forfeit
        self._game_started = False
        self._game_ref = now
        self._game_base = 0
        self._last = now
        self._cues = 0
        self._ot_cued = [False, False]
        self._ot_units = [0, 0]
        self._refresh(now)

    # -- time helpers ------------------------------------------------------

    def _gms(self, t):
        """Game milliseconds at tick t (log time)."""
        if not self._game_started:
            return 0
        return self._game_base + ticks_diff(t, self._game_ref)

    def _used_at(self, side, t):
        used = self._used[side]
        if self._run & (1 << side):
            used += ticks_diff(t, self._since[side])
        return used

    def penalty_for(self, overtime_ms):
        """Overtime penalty points for an overtime (5.2b)."""
        if overtime_ms <= 0:
            return 0
        if self._ot_started:
            units = (overtime_ms + _MINUTE - 1) // _MINUTE
        else:
            units = overtime_ms // _MINUTE
        return units * self._ot_points

    def _start(self, side, t):
        self._run |= 1 << side
        self._since[side] = t

    def _charge(self, side, t):
        self._used[side] += ticks_diff(t, self._since[side])
        self._since[side] = t

    def _stop(self, side, t):
        self._charge(side, t)
        self._run &= ~(1 << side)
        self._stopped_at[side] = self._gms(t)
        if self.phase == PHASE_SETUP:
            self._late[side] = self._used[side]

    # A turn spans pauses and challenges: it ends when another side's turn
    # begins or the game ends, and is logged then.
    def _close_turn(self, t):
        side = self.on_turn
        if side < 0 or not self._turn_open:
            return
        self._turn_open = False
        running = self._run & (1 << side)
        end = self._gms(t) if running else self._stopped_at[side]
        used = self._used_at(side, t)
        self.log.add(gl.TURN, side, self._turn_start[side], end,
                     used - self._start_used[side], self._initial + self._credit[side] - used)

    def _begin_turn(self, side, t):
        self._close_turn(t)
        self.on_turn = side
        self._turn_open = True
        self._start_used[side] = self._used_at(side, t)
        self._turn_start[side] = self._gms(t)

    def _stop_all(self, t):
        stopped = self._run
        for side in (0, 1):
            if stopped & (1 << side):
                self._stop(side, t)
        return stopped

    def _left(self, side):
        return self._initial + self._credit[side] - self._used[side]

    def _open_window(self, play_side, t):
        # a new play: the last one stands for good (nothing of it can be undone)
        self._play_side = play_side
        self.hold_side = -1
        self.accepted = False
        self._undo = b""
        self._win_open = True
        self._win_timed = self._window_ms > 0
        self._win_deadline = ticks_add(t, self._window_ms)

    def _close_window(self):
        self._win_open = False
        self._win_timed = False
        self.hold_side = -1

    # -- time passing: window expiry and forfeit, at their exact moment -----

    def _forfeit_limit(self, side):
        """ms the running side may still run before forfeiting; -1 = never.

        Leaves the reason in self._limit_reason (no tuple: this runs in update).
        """
        limit = -1
        self._limit_reason = REASON_OVERTIME
        if self._cap_forfeits:
            limit = self._initial + self._credit[side] + self._cap + 1 - self._used[side]
            if limit < 0:
                limit = 0
        if self.phase == PHASE_SETUP and self._late_cap:
            late = self._late_cap + 1 - self._used[side]
            if late < 0:
                late = 0
            if limit < 0 or late < limit:
                limit = late
                self._limit_reason = REASON_LATE
        return limit

    def _advance(self, t):
        """Apply what is due by t, each at its own moment, earliest first: window
        ends and forfeits.  Each round stops a clock or closes the window, so the
        loop ends; it allocates nothing unless something happens."""
        if ticks_diff(t, self._last) < 0:
            t = self._last
        while self.phase != PHASE_OVER:
            # the earliest forfeit due by t, if any
            first = -1
            first_at = 0
            reason = _REASON_NONE
            run = self._run
            if run:
                for side in (0, 1):
                    if run & (1 << side):
                        limit = self._forfeit_limit(side)
                        if limit >= 0 and ticks_diff(t, self._since[side]) >= limit:
                            at = ticks_add(self._since[side], limit)
                            if first < 0 or ticks_diff(at, first_at) < 0:
                                first = side
                                first_at = at
                                reason = self._limit_reason
            if self._win_open and self._win_timed and not self.paused:
                deadline = self._win_deadline
                if ticks_diff(t, deadline) >= 0 and (first < 0
                                                     or ticks_diff(deadline, first_at) < 0):
                    self._window_expired(deadline)
                    continue
            if first < 0:
                break
            self._forfeit(first, first_at, reason)
        return t

    def _window_expired(self, at):
        self._close_window()
        self.accepted = True  # 3.1.2, 3.1.3b: 20 s after the press the play stands
        self._cues |= CUE_WINDOW_CLOSED
        if self.phase == PHASE_ENDING:  # the final play is accepted (5.1b ii)
            self._end(at)

    def _forfeit(self, side, at, reason, keep=True):
        if keep:
            self._keep_undo(_UNDO_FORFEIT, at)
        self._close_turn(at)
        self._stop(side, at)
        self._last = at
        other = self.forfeit_side
        self.forfeit_side = side if other < 0 else BOTH
        self.forfeit_reason = reason
        self.log.add(gl.FORFEIT, self._gms(at), side, _REASON_NAMES[reason])
        self._cues |= CUE_FORFEIT
        if other < 0 and self._run and self.phase == PHASE_SETUP:
            # 2.4b ii with 6.1.1: the other player is late too; whether more than
            # 15 minutes is still to be seen, so their late clock runs on
            return
        self._end(at)

    def _keep_undo(self, kind, t):
        # The state just before an end, accept or forfeit, for the referee's undo
        # (clock.corrections): a snapshot, taken at an event, never on the hot path.
        from clock.snapshot import encode

        self._undo = bytes((kind,)) + encode(self, t, False)

    def _end(self, at):
        self._close_turn(at)
        self._stop_all(at)
        self._close_window()
        self.paused = False
        self.challenging = False
        self.phase = PHASE_OVER
        self._cues |= CUE_GAME_OVER
        left = [self._left(0), self._left(1)]
        penalty = [self._overtime_penalty(0), self._overtime_penalty(1)]
        self.log.add(gl.END, self._gms(at), left, penalty, self._note_names())

    def _note_names(self):
        return ["5.2d"] if self._notes & _NOTE_5_2D else []

    def _overtime_penalty(self, side):
        over = -self._left(side) - self._excused[side]
        return self.penalty_for(over)

    def _event(self, t):
        """Common start of every event: time, pending transitions, reset token."""
        self._reset_token = 0
        if t is None:
            t = self.clock.ticks_ms()
        t = self._advance(t)
        self._last = t
        return t

    def _done(self, t):
        # Game time starts with the first event that changed anything (its
        # own log records correctly read 0 before this).
        if not self._game_started:
            self._game_started = True
            self._game_ref = t
        self._refresh(t)
        return True

    # -- events ------------------------------------------------------------

    def press(self, t, side):
        _check_side(side)
        t = self._event(t)
        if self.paused and self.late_clock(side):
            return self.arrive(t, side)     # 2.4b i: the late player's own press, paused too
        if self.paused or self.challenging:
            return False
        run = self._run
        if self.phase == PHASE_SETUP:
            if run:
                # 2.4b i: a late player's own press is the arrival; the opponent's press
                # is none (the late clock runs on, and so does its 15-minute limit)
                return run & (1 << side) != 0 and self.arrive(t, side)
            # 2.3: the opponent's press starts the starting player's clock
            other = 1 - side
            self.phase = PHASE_PLAY
            self.log.add(gl.START, self._gms(t), other, self.preset["name"])
            self._begin_turn(other, t)
            self._start(other, t)
            return self._done(t)
        on_turn = self.on_turn
        if self.phase != PHASE_PLAY:
            return False
        if not run:
            # 3.1.4: the play was withdrawn; the player restarts the challenger's
            # clock once the tiles are off the board and the entry is struck out
            if side == on_turn:
                return False
            self._start(on_turn, t)
            return self._done(t)
        if not run & (1 << side):
            return False
        if side != on_turn:
            # the clock lent to `side` (3.1.1, 4.2c): its press gives it back
            self._stop(side, t)
            self._start(on_turn, t)
            self.log.add(gl.SWITCH, self._gms(t), on_turn, True)
            return self._done(t)
        other = 1 - side
        self._stop(side, t)
        self._begin_turn(other, t)
        self._start(other, t)
        self._open_window(side, t)
        return self._done(t)

    def late_start(self, t, side):
        _check_side(side)
        t = self._event(t)
        if (self.phase != PHASE_SETUP or self.paused or self._run & (1 << side)
                or self.forfeit_side >= 0):
            return False
        self._start(side, t)
        self.log.add(gl.LATE, self._gms(t), side)
        return self._done(t)

    def late_clock(self, side):
        """True while `side`'s late clock runs or a pause stopped it (TSO 2.4)."""
        return (self.phase == PHASE_SETUP
                and (self._run | (self._paused_run if self.paused else 0)) & (1 << side) != 0)

    def arrive(self, t, side):
        """The late player arrived (2.4b i): the late clock stops, also from a pause."""
        _check_side(side)
        t = self._event(t)
        if not self.late_clock(side):
            return False
        if self._run & (1 << side):
            self._stop(side, t)
        else:
            self._late[side] = self._used[side]     # stopped by the pause
            self._paused_run &= ~(1 << side)
            if not self._paused_run:
                self.paused = False     # nothing left to resume: the game starts by a press
        self.log.add(gl.ARRIVE, self._gms(t), side, self._late[side])
        if self.forfeit_side >= 0:
            self._end(t)  # the other was more than 15 minutes late: no game (2.4b ii)
        return self._done(t)

    def _can_pause(self):
        if self.phase == PHASE_OVER or self.paused or self.challenging:
            return False
        return self.phase != PHASE_SETUP or self._run != 0

    def pause(self, t=None):
        t = self._event(t)
        if not self._can_pause():
            return False
        self._pause(t)
        self.log.add(gl.PAUSE, self._gms(t))
        return self._done(t)

    def _pause(self, t):
        if self._win_open and self._win_timed:
            left = ticks_diff(self._win_deadline, t)
            self._win_left = left if left > 0 else 0
        self._paused_run = self._stop_all(t)
        self.paused = True

    def resume(self, t=None, side=None):
        t = self._event(t)
        if not self.paused:
            return False
        if side is None:
            mask = self._paused_run
        else:
            _check_side(side)
            mask = 1 << side
        self.paused = False
        self._paused_run = 0
        if self._win_open and self._win_timed:
            self._win_deadline = ticks_add(t, self._win_left)
        if side is not None and self.phase != PHASE_SETUP and side != self.on_turn:
            self._begin_turn(side, t)
        for s in (0, 1):
            if mask & (1 << s):
                self._start(s, t)
        self.log.add(gl.RESUME, self._gms(t), -1 if side is None else side)
        return self._done(t)

    def _challengeable_by(self, side):
        return (self._win_open and side == 1 - self._play_side and not self.paused
                and not self.challenging
                and (self.phase == PHASE_PLAY or self.phase == PHASE_ENDING))

    def fresh(self):
        """True before anything of a game happened (a new preset may replace this one)."""
        return self.phase == PHASE_SETUP and not self._game_started

    def challenge_by(self):
        """The side whose challenge is in progress, or -1."""
        return self._challenger if self.challenging else -1

    def log_note(self, kind, t, *fields):
        """A record about the device rather than the play (clock.gamelog RECOVERED,
        ENDED), stamped with the game time at tick t."""
        if ticks_diff(t, self._last) < 0:
            t = self._last
        self.log.add(kind, self._gms(t), *fields)

    def challenger_side(self, t=None):
        """The side that may hold or challenge the last play at tick t, or -1; with t
        None, as of the last event or update (a press still being debounced must not
        find its window closed behind its back).

        Not always on_turn: after `finish` no clock runs (on_turn is -1) but
        the opponent may still challenge the final play (5.1b ii).
        """
        if t is not None:
            self._query(t)
        if self._challengeable_by(1 - self._play_side) and self._play_side >= 0:
            return 1 - self._play_side
        return -1

    def hold(self, t, side):
        _check_side(side)
        t = self._event(t)
        if not self._challengeable_by(side) or self.hold_side >= 0:
            return False
        self.hold_side = side
        self.log.add(gl.HOLD, self._gms(t), side)
        if self.phase == PHASE_ENDING and not self._run:  # 5.1b iii
            self._begin_turn(side, t)
            self._start(side, t)
        return self._done(t)

    def accept(self, t, side):
        _check_side(side)
        t = self._event(t)
        if not self._challengeable_by(side):
            return False
        self._keep_undo(_UNDO_ACCEPT, t)
        self._close_window()
        self.accepted = True
        if self.phase == PHASE_ENDING:
            self._end(t)
        return self._done(t)

    def start_challenge(self, t, challenger):
        _check_side(challenger)
        t = self._event(t)
        if not self._challengeable_by(challenger):
            return False
        self._chal_run = self._stop_all(t)
        self._close_window()
        self.challenging = True
        self._challenger = challenger
        self._chal_at = self._gms(t)
        return self._done(t)

    def cancel_challenge(self, t=None):
        t = self._event(t)
        if not self.challenging:
            return False
        self.challenging = False
        self.log.add(gl.CHALLENGE, self._chal_at, self._challenger, 0, "cancelled", 0)
        for side in (0, 1):
            if self._chal_run & (1 << side):
                self._start(side, t)
        return self._done(t)

    def challenge_verdict(self, t, acceptable, word_count):
        """Apply the verdict on the challenged play; an Outcome, or None if no challenge is on."""
        if word_count < 1:
            raise ValueError("word_count must be at least 1")
        t = self._event(t)
        if not self.challenging:
            return None
        if acceptable and self.phase == PHASE_ENDING:
            self._keep_undo(_UNDO_END, t)  # the verdict ends the game
        self.challenging = False
        challenger = self._challenger
        player = 1 - challenger
        penalty = 0
        lost_turn = False
        self.accepted = acceptable
        if not acceptable:
            # 3.1.4: withdrawn; no clock runs until the player, once the tiles are
            # back, restarts the challenger's clock (press)
            runs = -1
            verdict = "withdrawn"
        else:
            verdict = "acceptable"
            kind = CHALLENGE_KINDS[self._chal_kind]
            if kind == "per_word":
                penalty = self._chal_points * word_count
            elif kind == "per_play":
                penalty = self._chal_points
            elif kind == "lose_turn":
                lost_turn = True
            # the clocks as before the challenge: the side on turn's runs (the
            # challenger's, unless the referee took its turn away, 7.3.2.2)
            on_turn = self.on_turn
            runs = player if lost_turn else on_turn if on_turn >= 0 else challenger
            self._chal_pen[challenger] += penalty
        self.log.add(gl.CHALLENGE, self._chal_at, challenger, word_count, verdict, penalty)
        game_over = False
        if self.phase == PHASE_ENDING and acceptable:
            self._end(t)
            game_over = True
            runs = -1
        else:
            self.phase = PHASE_PLAY
            turn = challenger if runs < 0 else runs
            if turn != self.on_turn or not self._turn_open:
                self._begin_turn(turn, t)
            if runs >= 0:
                self._start(runs, t)
        self._refresh(t)
        outcome = Outcome(not acceptable, challenger if penalty else -1, penalty, lost_turn,
                          runs, game_over)
        self.last_challenge = (challenger, outcome)
        return outcome

    def finish(self, t, side):
        _check_side(side)
        t = self._event(t)
        if (self.phase != PHASE_PLAY or self.paused or self.challenging
                or self.on_turn != side or not self._run & (1 << side)):
            return False
        self._stop(side, t)
        self._close_turn(t)
        self.on_turn = -1
        self.phase = PHASE_ENDING
        self._open_window(side, t)
        return self._done(t)

    def end_game(self, t=None, excuse=False):
        """End the game now (5.1).  excuse: 5.2d applies (the referee's decision): the
        last mover restarted the opponent's clock instead of stopping it, so the
        overtime that clock has shown since (the side on turn's, in its current turn,
        running or paused) is not penalised.  Overtime of one's own turn always is."""
        t = self._event(t)
        if self.phase == PHASE_OVER:
            return False
        if self.phase == PHASE_ENDING and not self._win_open and not self.challenging:
            # the final play stands (its challenge was cancelled): nothing to go back to
            # but a stop with no clock and no window; continue (reopen) instead
            self._undo = b""
        else:
            self._keep_undo(_UNDO_END, t)
        side = self.on_turn
        if excuse and side >= 0:
            budget = self._initial + self._credit[side]
            before = self._start_used[side] - budget
            now = self._used_at(side, t) - budget
            excused = now - (before if before > 0 else 0)
            if now > 0 and excused > 0:
                self._excused[side] = excused
                self._notes |= _NOTE_5_2D
        self._end(t)
        return self._done(t)

    def adjust(self, t, side, delta_ms):
        """Referee time credit (+) or deduction (-) for one side (7.3.2.2)."""
        _check_side(side)
        t = self._event(t)
        if self.phase == PHASE_OVER:
            return False
        self._undo = b""  # what an undo would bring back predates this
        over = self._used_at(side, t) - self._initial - self._credit[side] - delta_ms
        forfeits = self._cap_forfeits and over > self._cap
        if forfeits and not self.duplicate:
            # undoing the forfeit takes the deduction back with it: the game as before
            self._keep_undo(_UNDO_FORFEIT, t)
        self._credit[side] += delta_ms
        self.log.add(gl.ADJUST, self._gms(t), side, delta_ms)
        if forfeits:
            self._forfeit(side, t, REASON_OVERTIME, False)
        return self._done(t)

    # -- reset (1.4.1a): two explicit steps --------------------------------

    def request_reset(self):
        self._token_counter = (self._token_counter + 1) & 0x3FFF
        self._reset_token = 0x4000 | self._token_counter
        return self._reset_token

    def confirm_reset(self, token, preset=None):
        if not self._reset_token or token != self._reset_token:
            self._reset_token = 0
            return False
        if preset is not None:
            from clock.presets import validate_preset

            ok, message = validate_preset(preset)
            if not ok:
                raise ValueError(message)
            self._set_preset(preset)
        self._reset_token = 0
        now = self.clock.ticks_ms()
        if self._game_started:
            self.log.add(gl.RESET, self._gms(now), self.phase)
        self._clear(now)
        return True

    # -- hot path ----------------------------------------------------------

    def update(self, t=None):
        """Refresh both display models for tick t; the cues since the last call."""
        if t is None:
            t = self.clock.ticks_ms()
        t = self._advance(t)
        # The engine's stored ticks stay within _STALE_MS of t (ticks_diff turns at
        # 2**29 ms, 6.2 days, and a clock may stay on longer): the last event's tick
        # is only a floor for later ones; a stretch of a clock that has run that long
        # is charged up to t (what is charged stays the same); the game's time base
        # moves on.  Game time and charged time stop at _LONGEST_MS (11.5 days: small
        # ints on the chip, and 32-bit ints in the snapshot).  Allocates nothing.
        if ticks_diff(t, self._last) > _STALE_MS:
            self._last = ticks_add(t, -_STALE_MS)
        run = self._run
        if run:
            for side in (0, 1):
                if run & (1 << side) and ticks_diff(t, self._since[side]) > _STALE_MS:
                    self._charge(side, t)
                    if self._used[side] > _LONGEST_MS:
                        self._used[side] = _LONGEST_MS
        if ticks_diff(t, self._game_ref) > _STALE_MS:
            base = self._gms(t)
            self._game_base = base if base < _LONGEST_MS else _LONGEST_MS
            self._game_ref = t
        self._refresh(t)
        cues = self._cues
        self._cues = 0
        return cues

    def display(self, side):
        return self._displays[side]

    def _refresh(self, t):
        self._shown_t = t
        self._refresh_side(0, t)
        self._refresh_side(1, t)

    def _refresh_side(self, side, t):
        d = self._displays[side]
        left = self._initial + self._credit[side] - self._used_at(side, t)
        if left >= 0:
            over = 0
            d.remaining_ms = left
            d.overtime_ms = 0
            d.overtime = False
            write_time(d.text, left, False)
        else:
            over = -left
            d.remaining_ms = 0
            d.overtime_ms = over
            d.overtime = True
            write_time(d.text, over, True)
        points = self.penalty_for(over - self._excused[side])
        d.overtime_penalty = points
        d.challenge_penalty = self._chal_pen[side]
        d.penalty_points = points + self._chal_pen[side]
        # cues for the buzzer: entering overtime, each further penalty minute
        if over > 0 and not self._ot_cued[side]:
            self._ot_cued[side] = True
            self._cues |= CUE_OVERTIME
        units = points // self._ot_points if self._ot_points else 0
        if units > self._ot_units[side]:
            if self._ot_units[side] > 0 or not self._ot_started:
                self._cues |= CUE_OVERTIME_MINUTE
            self._ot_units[side] = units
        elif units < self._ot_units[side]:
            self._ot_units[side] = units
        running = (self._run >> side) & 1 == 1
        d.running = running
        d.late = self.late_clock(side)
        # the clock lent to the side not on turn (3.1.1, 4.2c): shown on both panels
        on_turn = self.on_turn
        d.lent = (self.phase == PHASE_PLAY and on_turn >= 0
                  and (self._run | (self._paused_run if self.paused else 0))
                  & (1 << (1 - on_turn)) != 0)
        d.on_turn = self.on_turn == side
        d.paused = self.paused
        d.challenging = self.challenging
        d.hold = self.hold_side >= 0
        d.accepted = self.accepted
        d.window_open = self._win_open
        if self._win_open and self._win_timed:
            ms = self._win_left if self.paused else ticks_diff(self._win_deadline, t)
            d.window_s = (ms + 999) // 1000 if ms > 0 else 0
        else:
            d.window_s = 0
        d.forfeit = self.forfeit_side == side or self.forfeit_side == BOTH
        d.game_over = self.phase == PHASE_OVER

    def quiet_ms(self, now, limit):
        """ms from tick `now` until the display models, as last refreshed, change with
        time alone: a running clock's next second (counting down, its digits round up,
        clock.display.write_time, so they change when the time left reaches a whole
        second; in overtime, counting up, one ms after), its next penalty minute or its
        forfeit, the challenge window's next second or its end.  At most `limit`; 0 when
        such a change is due and not refreshed yet.  Allocates nothing (app.tasks
        collects garbage where this is long)."""
        t = self._shown_t
        since = ticks_diff(now, t)
        q = limit + since                # measured from t
        run = self._run
        for side in (0, 1):
            if not run & (1 << side):
                continue
            left = self._initial + self._credit[side] - self._used_at(side, t)
            if left > 5999000:
                n = left - 5999000       # 99:59 until then
            elif left > 0:
                n = (left - 1) % 1000 + 1
            else:
                n = left % 1000 + 1
                if self._ot_points:
                    x = -left - self._excused[side]
                    if self._ot_started:
                        m = 1 - x if x <= 0 else (-x) % _MINUTE + 1
                    else:
                        m = _MINUTE - x if x < 0 else _MINUTE - x % _MINUTE
                    if m < n:
                        n = m
            if n < q:
                q = n
            n = self._forfeit_limit(side)
            if n >= 0:
                n -= ticks_diff(t, self._since[side])
                if n < q:
                    q = n
        if self._win_open and self._win_timed and not self.paused:
            n = ticks_diff(self._win_deadline, t)
            n = (n - 1) % 1000 + 1 if n > 0 else 0
            if n < q:
                q = n
        q -= since
        return q if q > 0 else 0

    # -- results -----------------------------------------------------------

    def _query(self, t):
        # The tick of a query (None: the clock's), with what is due by then applied
        # and shown (the displays as update(t) leaves them).
        if t is None:
            t = self.clock.ticks_ms()
        t = self._advance(t)
        self._refresh(t)
        return t

    def phase_at(self, t=None):
        """The phase at tick t, a forfeit or the end of a final window due by then
        applied (the attribute `phase` is as of the last event or update)."""
        self._query(t)
        return self.phase

    def result(self, t=None):
        t = self._query(t)
        sides = []
        for side in (0, 1):
            used = self._used_at(side, t)
            left = self._initial + self._credit[side] - used
            over = -left if left < 0 else 0
            ot_pen = self.penalty_for(over - self._excused[side])
            sides.append({
                "used_ms": used,
                "remaining_ms": left if left > 0 else 0,
                "overtime_ms": over,
                "overtime_penalty": ot_pen,
                "challenge_penalty": self._chal_pen[side],
                "penalty_points": ot_pen + self._chal_pen[side],
                "excused_overtime_ms": self._excused[side],
                "credit_ms": self._credit[side],
                "late_ms": self._late[side],
            })
        return {
            "phase": self.phase,
            "over": self.phase == PHASE_OVER,
            "forfeit_side": self.forfeit_side,
            "forfeit_reason": _REASON_NAMES[self.forfeit_reason],
            "sides": sides,
            "notes": self._note_names(),
            "moves": self.moves,
        }

    def used_ms(self, side, t=None):
        """ms charged to the side up to tick t (the running stretch included)."""
        return self._used_at(side, self._query(t))

    # -- snapshot ----------------------------------------------------------

    def snapshot(self, t=None, buf=None, at=0):
        """The blob of the game's state (clock/snapshot.py); with buf: written into buf
        from index `at` (snapshot_size() bytes of room), and its length returned."""
        from clock.snapshot import encode

        return encode(self, self._query(t), True, buf, at)

    def snapshot_size(self):
        """The length of snapshot() now."""
        from clock.snapshot import SIZE

        return SIZE + len(self._undo) if self._undo else SIZE

    @staticmethod
    def restore(blob, preset, clock, log_capacity=256):
        """The game in blob, paused.  The snapshot carries its game's preset: with
        preset None that one is used (a preset chosen for the next game meanwhile does
        not touch it); a preset given must be the same, else ValueError."""
        from clock.snapshot_load import decode_into, decode_preset

        own = decode_preset(blob)
        if preset is not None and preset != own:
            raise ValueError("snapshot: taken with a different preset")
        engine = new_engine(own, clock, log_capacity)
        decode_into(engine, blob, clock.ticks_ms())
        return engine
