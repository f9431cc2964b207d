# What every game on the clock shares (docs/clock-engine.md): the preset's figures, the
# accounting of the two clocks' time (clock.state.ClockState), turns and their game log
# records, time passing (the challenge window's end and a clock's limit, each at its
# exact moment), the end of the game with the referee's undo slot, pause and resume,
# the referee's adjustments and reset, the display models, results and snapshots.
#
# Its kinds add their events: clock.engine.Engine a game on two clocks (TSO),
# clock.duplicate.Duplicate a duplicate game.  They and the referee's corrections
# (clock.corrections) build an event from the steps here: begin_event(t), what the
# event does (start and stop clocks, begin a turn, keep the undo slot, close the game,
# ...), and end_event(t) if it changed the game (the event then returns True).

from micropython import const
from timebase import ticks_add, ticks_diff
from clock import gamelog as gl
from clock.display import SideDisplay
from clock.snapshot import SIZE, encode
from clock.state import (BOTH, CUE_FORFEIT, CUE_GAME_OVER, CUE_OVERTIME, CUE_OVERTIME_MINUTE,
                         CUE_WINDOW_CLOSED, NOTE_5_2D, PHASE_ENDING, PHASE_OVER, PHASE_SETUP,
                         REASON_LATE, REASON_NAMES, REASON_NONE, REASON_OVERTIME, UNDO_END,
                         UNDO_FORFEIT, ClockState, check_side)

_MINUTE = const(60000)
_STALE_MS = const(3600000)  # stored ticks are kept within this of the present (update)
_LONGEST_MS = const(1000000000)  # 11.5 days: game and charged time stop there (update)


class ClockCore:
    duplicate = False  # one countdown per move instead of a clock per player (clock.duplicate)

    def __init__(self, preset, clock, log_capacity=256, log_start=0):
        """log_start: seq of the first game log record (the device's numbering goes on
        across games and boots)."""
        # the presets' checks are set-up code: app.device drops them (lazy.DROPPED)
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
        # the time a clock starts with; a duplicate game's one clock is the move's
        self._initial = preset["move_ms"] if self.duplicate else preset["initial_ms"]
        self._ot_points = preset["overtime_penalty_points"]
        self._ot_started = preset["overtime_penalty_per"] == "started"
        self._cap = preset["overtime_cap_ms"]
        self._cap_forfeits = preset["overtime_cap_consequence"] == "forfeit"
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
        self.hold_side = -1
        self.accepted = False  # the last play stands: accepted, its window over, or judged acceptable
        self.forfeit_side = -1
        self.last_challenge = None  # (challenger, Outcome) of this game's last verdict (the hall)
        self.forfeit_reason = REASON_NONE
        self.moves = 0  # moves started (a duplicate game; 0 in a game on two clocks)
        self.state = ClockState(now)
        self._limit_reason = REASON_NONE
        self._cues = 0
        self.refresh(now)

    def penalty_for(self, overtime_ms):
        """Overtime penalty points for an overtime (5.2b)."""
        if overtime_ms <= 0:
            return 0
        if self._ot_started:
            units = (overtime_ms + _MINUTE - 1) // _MINUTE
        else:
            units = overtime_ms // _MINUTE
        return units * self._ot_points

    def left_ms(self, side):
        """ms left on side's clock as last committed (negative: its overtime)."""
        state = self.state
        return self._initial + state.credit[side] - state.used[side]

    def left_at(self, side, t):
        """ms left on side's clock at tick t, its running stretch included."""
        state = self.state
        return self._initial + state.credit[side] - state.used_at(side, t)

    # -- an event's steps --------------------------------------------------

    def begin_event(self, t):
        """An event's first step: its tick (None: the clock's), with what is due by
        then applied (a window's end, a limit) and the reset token spent."""
        self._reset_token = 0
        if t is None:
            t = self.clock.ticks_ms()
        t = self._advance(t)
        self.state.last = t
        return t

    def end_event(self, t):
        """An event's last step once it changed the game: the displays as of t; True."""
        state = self.state
        # Game time starts with the first event that changed anything (its own log
        # records correctly read 0 before this).
        if not state.game_started:
            state.game_started = True
            state.game_ref = t
        self.refresh(t)
        return True

    def cue(self, bits):
        """Cues (CUE_ bits) for the next update() to hand out."""
        self._cues |= bits

    def stop_clock(self, side, t):
        """Stop side's clock at tick t, its stretch charged (before the game: late time)."""
        state = self.state
        state.charge(side, t)
        state.run &= ~(1 << side)
        state.stopped_at[side] = state.game_ms(t)
        if self.phase == PHASE_SETUP:
            state.late[side] = state.used[side]

    def stop_clocks(self, t):
        """Stop every running clock at tick t; the bitmask of those it stopped."""
        stopped = self.state.run
        for side in (0, 1):
            if stopped & (1 << side):
                self.stop_clock(side, t)
        return stopped

    # A turn spans pauses and challenges: it ends when another side's turn
    # begins or the game ends, and is logged then.
    def close_turn(self, t):
        state = self.state
        side = self.on_turn
        if side < 0 or not state.turn_open:
            return
        state.turn_open = False
        end = state.game_ms(t) if state.running(side) else state.stopped_at[side]
        used = state.used_at(side, t)
        self.log.add(gl.TURN, side, state.turn_start[side], end,
                     used - state.start_used[side], self._initial + state.credit[side] - used)

    def begin_turn(self, side, t):
        self.close_turn(t)
        self.on_turn = side
        state = self.state
        state.turn_open = True
        state.start_used[side] = state.used_at(side, t)
        state.turn_start[side] = state.game_ms(t)

    def close_window(self):
        state = self.state
        state.win_open = False
        state.win_timed = False
        self.hold_side = -1

    def unpause(self, t):
        """The pause is over at tick t (no clock started yet): the challenge window's
        frozen seconds go on from t."""
        state = self.state
        self.paused = False
        state.paused_run = 0
        if state.win_open and state.win_timed:
            state.win_deadline = ticks_add(t, state.win_left)

    def keep_undo(self, kind, t):
        # The state just before an end, accept or forfeit, for the referee's undo
        # (clock.corrections): a snapshot, taken at an event, never on the hot path.
        self.state.undo = bytes((kind,)) + encode(self, t, False)

    def close_game(self, at):
        """The game is over at tick at: clocks stopped, the end in the game log."""
        self.close_turn(at)
        self.stop_clocks(at)
        self.close_window()
        self.paused = False
        self.challenging = False
        self.phase = PHASE_OVER
        self._cues |= CUE_GAME_OVER
        left = [self.left_ms(0), self.left_ms(1)]
        penalty = [self._overtime_penalty(0), self._overtime_penalty(1)]
        self.log.add(gl.END, self.state.game_ms(at), left, penalty, self._note_names())

    def _note_names(self):
        return ["5.2d"] if self.state.notes & NOTE_5_2D else []

    def _overtime_penalty(self, side):
        over = -self.left_ms(side) - self.state.excused[side]
        return self.penalty_for(over)

    # -- time passing: window expiry and a clock's limit, at their exact moment --

    def time_limit(self, side):
        """ms the running side may still run before its limit (a forfeit); -1 = never.

        Leaves the reason in self._limit_reason (no tuple: this runs in update).
        """
        state = self.state
        limit = -1
        self._limit_reason = REASON_OVERTIME
        if self._cap_forfeits:
            limit = self._initial + state.credit[side] + self._cap + 1 - state.used[side]
            if limit < 0:
                limit = 0
        if self.phase == PHASE_SETUP and self._late_cap:
            late = self._late_cap + 1 - state.used[side]
            if late < 0:
                late = 0
            if limit < 0 or late < limit:
                limit = late
                self._limit_reason = REASON_LATE
        return limit

    def limit_reached(self, side, at, reason, keep=True):
        """Side's clock reached its limit at tick `at`: it forfeits (2.4b ii, 5.2c).
        keep: the state before goes to the undo slot."""
        if keep:
            self.keep_undo(UNDO_FORFEIT, at)
        self.close_turn(at)
        self.stop_clock(side, at)
        state = self.state
        state.last = at
        other = self.forfeit_side
        self.forfeit_side = side if other < 0 else BOTH
        self.forfeit_reason = reason
        self.log.add(gl.FORFEIT, state.game_ms(at), side, REASON_NAMES[reason])
        self._cues |= CUE_FORFEIT
        if other < 0 and state.run and self.phase == PHASE_SETUP and reason == REASON_LATE:
            # 2.4b ii with 6.1.1: the other player is late too; whether more than
            # 15 minutes is still to be seen, so their late clock runs on (a late
            # clock run past its time and the overtime cap ends the game: 5.2c)
            return
        self.close_game(at)

    def _advance(self, t):
        """Apply what is due by t, each at its own moment, earliest first: window
        ends and limits.  Each round stops a clock or closes the window, so the
        loop ends; it allocates nothing unless something happens."""
        state = self.state
        if ticks_diff(t, state.last) < 0:
            t = state.last
        while self.phase != PHASE_OVER:
            # the earliest limit due by t, if any
            first = -1
            first_at = 0
            reason = REASON_NONE
            run = state.run
            if run:
                for side in (0, 1):
                    if run & (1 << side):
                        limit = self.time_limit(side)
                        if limit >= 0 and ticks_diff(t, state.since[side]) >= limit:
                            at = ticks_add(state.since[side], limit)
                            if first < 0 or ticks_diff(at, first_at) < 0:
                                first = side
                                first_at = at
                                reason = self._limit_reason
            if state.win_open and state.win_timed and not self.paused:
                deadline = state.win_deadline
                if ticks_diff(t, deadline) >= 0 and (first < 0
                                                     or ticks_diff(deadline, first_at) < 0):
                    self._window_expired(deadline)
                    continue
            if first < 0:
                break
            self.limit_reached(first, first_at, reason)
        return t

    def _window_expired(self, at):
        self.close_window()
        self.accepted = True  # 3.1.2, 3.1.3b: 20 s after the press the play stands
        self._cues |= CUE_WINDOW_CLOSED
        if self.phase == PHASE_ENDING:  # the final play is accepted (5.1b ii)
            self.close_game(at)

    # -- events of any game ------------------------------------------------

    def late_clock(self, side):
        """True while `side`'s late clock runs or a pause stopped it (TSO 2.4)."""
        state = self.state
        return (self.phase == PHASE_SETUP
                and (state.run | (state.paused_run if self.paused else 0)) & (1 << side) != 0)

    def _can_pause(self):
        if self.phase == PHASE_OVER or self.paused or self.challenging:
            return False
        return self.phase != PHASE_SETUP or self.state.run != 0

    def pause(self, t=None):
        t = self.begin_event(t)
        if not self._can_pause():
            return False
        state = self.state
        if state.win_open and state.win_timed:
            left = ticks_diff(state.win_deadline, t)
            state.win_left = left if left > 0 else 0
        state.paused_run = self.stop_clocks(t)
        self.paused = True
        self.log.add(gl.PAUSE, state.game_ms(t))
        return self.end_event(t)

    def pause_loaded(self, now):
        """A game just loaded (clock.snapshot_load: at start-up, for an undo): whatever
        was moving is stopped, paused for the players to resume; the displays as of now."""
        if self._can_pause():
            state = self.state
            state.paused_run = state.run
            state.run = 0
            self.paused = True
        self.refresh(now)

    def resume(self, t=None, side=None):
        t = self.begin_event(t)
        if not self.paused:
            return False
        state = self.state
        if side is None:
            mask = state.paused_run
        else:
            check_side(side)
            mask = 1 << side
        self.unpause(t)
        if side is not None and self.phase != PHASE_SETUP and side != self.on_turn:
            self.begin_turn(side, t)
        for s in (0, 1):
            if mask & (1 << s):
                state.start(s, t)
        self.log.add(gl.RESUME, state.game_ms(t), -1 if side is None else side)
        return self.end_event(t)

    def fresh(self):
        """True before anything of a game happened (a new preset may replace this one)."""
        return self.phase == PHASE_SETUP and not self.state.game_started

    def log_note(self, kind, t, *fields):
        """A record about the device rather than the play (clock.gamelog RECOVERED,
        ENDED), stamped with the game time at tick t."""
        state = self.state
        if ticks_diff(t, state.last) < 0:
            t = state.last
        self.log.add(kind, state.game_ms(t), *fields)

    def end_game(self, t=None, excuse=False):
        """End the game now (5.1).  excuse: 5.2d applies (the referee's decision): the
        last mover restarted the opponent's clock instead of stopping it, so the
        overtime that clock has shown since (the side on turn's, in its current turn,
        running or paused) is not penalised.  Overtime of one's own turn always is."""
        t = self.begin_event(t)
        if self.phase == PHASE_OVER:
            return False
        state = self.state
        if self.phase == PHASE_ENDING and not state.win_open and not self.challenging:
            # the final play stands (its challenge was cancelled): nothing to go back to
            # but a stop with no clock and no window; continue (reopen) instead
            state.undo = b""
        else:
            self.keep_undo(UNDO_END, t)
        side = self.on_turn
        if excuse and side >= 0:
            budget = self._initial + state.credit[side]
            before = state.start_used[side] - budget
            now = state.used_at(side, t) - budget
            excused = now - (before if before > 0 else 0)
            if now > 0 and excused > 0:
                state.excused[side] = excused
                state.notes |= NOTE_5_2D
        self.close_game(t)
        return self.end_event(t)

    def adjust(self, t, side, delta_ms):
        """Referee time credit (+) or deduction (-) for one side (7.3.2.2)."""
        check_side(side)
        t = self.begin_event(t)
        if self.phase == PHASE_OVER:
            return False
        state = self.state
        state.undo = b""  # what an undo would bring back predates this
        over = state.used_at(side, t) - self._initial - state.credit[side] - delta_ms
        forfeits = self._cap_forfeits and over > self._cap
        if forfeits and not self.duplicate:
            # undoing the forfeit takes the deduction back with it: the game as before
            self.keep_undo(UNDO_FORFEIT, t)
        state.credit[side] += delta_ms
        self.log.add(gl.ADJUST, state.game_ms(t), side, delta_ms)
        if forfeits:
            self.limit_reached(side, t, REASON_OVERTIME, False)
        return self.end_event(t)

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
        if self.state.game_started:
            self.log.add(gl.RESET, self.state.game_ms(now), self.phase)
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
        state = self.state
        if ticks_diff(t, state.last) > _STALE_MS:
            state.last = ticks_add(t, -_STALE_MS)
        run = state.run
        if run:
            for side in (0, 1):
                if run & (1 << side) and ticks_diff(t, state.since[side]) > _STALE_MS:
                    state.charge(side, t)
                    if state.used[side] > _LONGEST_MS:
                        state.used[side] = _LONGEST_MS
        if ticks_diff(t, state.game_ref) > _STALE_MS:
            base = state.game_ms(t)
            state.game_base = base if base < _LONGEST_MS else _LONGEST_MS
            state.game_ref = t
        self.refresh(t)
        cues = self._cues
        self._cues = 0
        return cues

    def display(self, side):
        return self._displays[side]

    def refresh(self, t):
        """The display models as of tick t: each kind of game's show(t) writes them
        (allocates nothing)."""
        self._shown_t = t
        self.show(t)

    def show(self, t):
        """Write the display models for tick t: each kind of game shows its own
        (clock.engine.Engine a clock per side, clock.duplicate.Duplicate the move)."""
        raise NotImplementedError

    def cue_overtime(self, side, over, points):
        """Cue side's clock entering overtime (`over` ms of it) and each further
        penalty minute (`points` its overtime penalty now); allocates nothing."""
        state = self.state
        if over > 0 and not state.ot_cued[side]:
            state.ot_cued[side] = True
            self._cues |= CUE_OVERTIME
        units = points // self._ot_points if self._ot_points else 0
        if units > state.ot_units[side]:
            # a started minute's first unit comes with the overtime itself
            if state.ot_units[side] > 0 or not self._ot_started:
                self._cues |= CUE_OVERTIME_MINUTE
            state.ot_units[side] = units
        elif units < state.ot_units[side]:
            state.ot_units[side] = units

    def quiet_ms(self, now, limit):
        """ms from tick `now` until the display models, as last refreshed, change with
        time alone: a running clock's next second (counting down, its digits round up,
        clock.display.write_time, so they change when the time left reaches a whole
        second; in overtime, counting up, one ms after), its next penalty minute or its
        limit, the challenge window's next second or its end.  At most `limit`; 0 when
        such a change is due and not refreshed yet.  Allocates nothing (app.tasks
        collects garbage where this is long)."""
        state = self.state
        t = self._shown_t
        since = ticks_diff(now, t)
        q = limit + since                # measured from t
        run = state.run
        for side in (0, 1):
            if not run & (1 << side):
                continue
            left = self.left_at(side, t)
            if left > 5999000:
                n = left - 5999000       # 99:59 until then
            elif left > 0:
                n = (left - 1) % 1000 + 1
            else:
                n = left % 1000 + 1
                if self._ot_points:
                    x = -left - state.excused[side]
                    if self._ot_started:
                        m = 1 - x if x <= 0 else (-x) % _MINUTE + 1
                    else:
                        m = _MINUTE - x if x < 0 else _MINUTE - x % _MINUTE
                    if m < n:
                        n = m
            if n < q:
                q = n
            n = self.time_limit(side)
            if n >= 0:
                n -= ticks_diff(t, state.since[side])
                if n < q:
                    q = n
        if state.win_open and state.win_timed and not self.paused:
            n = ticks_diff(state.win_deadline, t)
            n = (n - 1) % 1000 + 1 if n > 0 else 0
            if n < q:
                q = n
        q -= since
        return q if q > 0 else 0

    # -- results -----------------------------------------------------------

    def catch_up(self, t):
        """The tick of a query (None: the clock's), with what is due by then applied
        and shown (the displays as update(t) leaves them)."""
        if t is None:
            t = self.clock.ticks_ms()
        t = self._advance(t)
        self.refresh(t)
        return t

    def phase_at(self, t=None):
        """The phase at tick t, a forfeit or the end of a final window due by then
        applied (the attribute `phase` is as of the last event or update)."""
        self.catch_up(t)
        return self.phase

    def result(self, t=None):
        t = self.catch_up(t)
        state = self.state
        sides = [state.side_result(side, t, self._initial, self.penalty_for) for side in (0, 1)]
        return {
            "phase": self.phase,
            "over": self.phase == PHASE_OVER,
            "forfeit_side": self.forfeit_side,
            "forfeit_reason": REASON_NAMES[self.forfeit_reason],
            "sides": sides,
            "notes": self._note_names(),
            "moves": self.moves,
        }

    def used_ms(self, side, t=None):
        """ms charged to the side up to tick t (the running stretch included)."""
        return self.state.used_at(side, self.catch_up(t))

    # -- snapshot ----------------------------------------------------------

    def snapshot(self, t=None, buf=None, at=0):
        """The blob of the game's state (clock/snapshot.py); with buf: written into buf
        from index `at` (snapshot_size() bytes of room), and its length returned."""
        return encode(self, self.catch_up(t), True, buf, at)

    def snapshot_size(self):
        """The length of snapshot() now."""
        undo = self.state.undo
        return SIZE + len(undo) if undo else SIZE
