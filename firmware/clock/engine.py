# The game clock engine for a game on two clocks: the events of play (a press, a late
# player, the challenge window, holds, challenges and their verdicts, the final play),
# each driven by the tick at which it happened.  Rules: TSO (docs/clock-engine.md,
# which lists every reading of a clause and the decisions to confirm).
#
# What every game shares (accounting, time passing, pause, end, adjustments, reset,
# displays, snapshots) is clock/core.py; a duplicate game is clock/duplicate.py,
# loaded for its preset (new_engine makes the engine a preset asks for); what only the
# referee does (undo, continue after a presumed end, switch the clocks without a play)
# is clock/corrections.py.  The phases, cues and reasons are clock/state.py's, named
# here too for the engine's users.

from timebase import ticks_add, ticks_diff
from clock import gamelog as gl
from clock.core import ClockCore
from clock.display import write_time
from clock.state import (BOTH, CUE_FORFEIT, CUE_GAME_OVER, CUE_MOVE_END,  # noqa: F401 (named here)
                         CUE_MOVE_WARNING, CUE_OVERTIME, CUE_OVERTIME_MINUTE, CUE_WINDOW_CLOSED,
                         PHASE_ENDING, PHASE_OVER, PHASE_PLAY, PHASE_SETUP, REASON_LATE,
                         REASON_OVERTIME, UNDO_ACCEPT, UNDO_END, check_side)


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


class Engine(ClockCore):
    @staticmethod
    def restore(blob, preset, clock, log_capacity=256):
        """The game in blob, paused, on the engine its preset asks for (new_engine).
        The snapshot carries its game's preset: with preset None that one is used (a
        preset chosen for the next game meanwhile does not touch it); a preset given
        must be the same, else ValueError."""
        # the reader is needed at start-up only: app.device drops it after
        from clock.snapshot_load import decode_into, decode_preset

        own = decode_preset(blob)
        if preset is not None and preset != own:
            raise ValueError("snapshot: taken with a different preset")
        engine = new_engine(own, clock, log_capacity)
        decode_into(engine, blob, clock.ticks_ms())
        return engine

    def _open_window(self, play_side, t):
        # a new play: the last one stands for good (nothing of it can be undone)
        state = self.state
        state.play_side = play_side
        self.hold_side = -1
        self.accepted = False
        state.undo = b""
        window = self.preset["challenge_window_ms"]
        state.win_open = True
        state.win_timed = window > 0
        state.win_deadline = ticks_add(t, window)

    def challengeable_by(self, side):
        """True if `side` may hold, accept or challenge the last play now."""
        state = self.state
        return (state.win_open and side == 1 - state.play_side and not self.paused
                and not self.challenging
                and (self.phase == PHASE_PLAY or self.phase == PHASE_ENDING))

    def challenge_by(self):
        """The side whose challenge is in progress, or -1."""
        return self.state.challenger if self.challenging else -1

    def challenger_side(self, t=None):
        """The side that may hold or challenge the last play at tick t, or -1; with t
        None, as of the last event or update (a press still being debounced must not
        find its window closed behind its back).

        Not always on_turn: after `finish` no clock runs (on_turn is -1) but
        the opponent may still challenge the final play (5.1b ii).
        """
        if t is not None:
            self.catch_up(t)
        play_side = self.state.play_side
        if self.challengeable_by(1 - play_side) and play_side >= 0:
            return 1 - play_side
        return -1

    def cancel_challenge(self, t=None):
        t = self.begin_event(t)
        if not self.challenging:
            return False
        state = self.state
        self.challenging = False
        self.log.add(gl.CHALLENGE, state.chal_at, state.challenger, 0, "cancelled", 0)
        for side in (0, 1):
            if state.chal_run & (1 << side):
                state.start(side, t)
        return self.end_event(t)

    # -- the display models ------------------------------------------------

    def show(self, t):
        """Write the display models for tick t (ClockCore.refresh): a clock per side."""
        self._show_side(0, t)
        self._show_side(1, t)

    def _show_side(self, side, t):
        state = self.state
        d = self.display(side)
        left = self.left_at(side, t)
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
        points = self.penalty_for(over - state.excused[side])
        d.overtime_penalty = points
        d.challenge_penalty = state.chal_pen[side]
        d.penalty_points = points + state.chal_pen[side]
        self.cue_overtime(side, over, points)    # for the buzzer
        d.running = state.running(side)
        d.late = self.late_clock(side)
        # the clock lent to the side not on turn (3.1.1, 4.2c): shown on both panels
        on_turn = self.on_turn
        d.lent = (self.phase == PHASE_PLAY and on_turn >= 0
                  and (state.run | (state.paused_run if self.paused else 0))
                  & (1 << (1 - on_turn)) != 0)
        d.on_turn = on_turn == side
        d.paused = self.paused
        d.challenging = self.challenging
        d.hold = self.hold_side >= 0
        d.accepted = self.accepted
        d.window_open = state.win_open
        if state.win_open and state.win_timed:
            ms = state.win_left if self.paused else ticks_diff(state.win_deadline, t)
            d.window_s = (ms + 999) // 1000 if ms > 0 else 0
        else:
            d.window_s = 0
        d.forfeit = self.forfeit_side == side or self.forfeit_side == BOTH
        d.game_over = self.phase == PHASE_OVER

    # -- events ------------------------------------------------------------

    def press(self, t, side):
        check_side(side)
        t = self.begin_event(t)
        if self.paused and self.late_clock(side):
            return self.arrive(t, side)     # 2.4b i: the late player's own press, paused too
        if self.paused or self.challenging:
            return False
        state = self.state
        run = state.run
        if self.phase == PHASE_SETUP:
            if run:
                # 2.4b i: a late player's own press is the arrival; the opponent's press
                # is none (the late clock runs on, and so does its 15-minute limit)
                return run & (1 << side) != 0 and self.arrive(t, side)
            # 2.3: the opponent's press starts the starting player's clock
            other = 1 - side
            self.phase = PHASE_PLAY
            self.log.add(gl.START, state.game_ms(t), other, self.preset["name"])
            self.begin_turn(other, t)
            state.start(other, t)
            return self.end_event(t)
        on_turn = self.on_turn
        if self.phase != PHASE_PLAY:
            return False
        if not run:
            # 3.1.4: the play was withdrawn; the player restarts the challenger's
            # clock once the tiles are off the board and the entry is struck out
            if side == on_turn:
                return False
            state.start(on_turn, t)
            return self.end_event(t)
        if not run & (1 << side):
            return False
        if side != on_turn:
            # the clock lent to `side` (3.1.1, 4.2c): its press gives it back
            self.stop_clock(side, t)
            state.start(on_turn, t)
            self.log.add(gl.SWITCH, state.game_ms(t), on_turn, True)
            return self.end_event(t)
        other = 1 - side
        self.stop_clock(side, t)
        self.begin_turn(other, t)
        state.start(other, t)
        self._open_window(side, t)
        return self.end_event(t)

    def late_start(self, t, side):
        check_side(side)
        t = self.begin_event(t)
        state = self.state
        if (self.phase != PHASE_SETUP or self.paused or state.running(side)
                or self.forfeit_side >= 0):
            return False
        state.start(side, t)
        self.log.add(gl.LATE, state.game_ms(t), side)
        return self.end_event(t)

    def arrive(self, t, side):
        """The late player arrived (2.4b i): the late clock stops, also from a pause."""
        check_side(side)
        t = self.begin_event(t)
        if not self.late_clock(side):
            return False
        state = self.state
        if state.running(side):
            self.stop_clock(side, t)
        else:
            state.late[side] = state.used[side]     # stopped by the pause
            state.paused_run &= ~(1 << side)
            if not state.paused_run:
                self.paused = False     # nothing left to resume: the game starts by a press
        self.log.add(gl.ARRIVE, state.game_ms(t), side, state.late[side])
        if self.forfeit_side >= 0:
            self.close_game(t)  # the other was more than 15 minutes late: no game (2.4b ii)
        return self.end_event(t)

    def hold(self, t, side):
        check_side(side)
        t = self.begin_event(t)
        if not self.challengeable_by(side) or self.hold_side >= 0:
            return False
        self.hold_side = side
        state = self.state
        self.log.add(gl.HOLD, state.game_ms(t), side)
        if self.phase == PHASE_ENDING and not state.run:  # 5.1b iii
            self.begin_turn(side, t)
            state.start(side, t)
        return self.end_event(t)

    def accept(self, t, side):
        check_side(side)
        t = self.begin_event(t)
        if not self.challengeable_by(side):
            return False
        self.keep_undo(UNDO_ACCEPT, t)
        self.close_window()
        self.accepted = True
        if self.phase == PHASE_ENDING:
            self.close_game(t)
        return self.end_event(t)

    def start_challenge(self, t, challenger):
        check_side(challenger)
        t = self.begin_event(t)
        if not self.challengeable_by(challenger):
            return False
        state = self.state
        state.chal_run = self.stop_clocks(t)
        self.close_window()
        self.challenging = True
        state.challenger = challenger
        state.chal_at = state.game_ms(t)
        return self.end_event(t)

    def challenge_verdict(self, t, acceptable, word_count):
        """Apply the verdict on the challenged play; an Outcome, or None if no challenge is on."""
        if word_count < 1:
            raise ValueError("word_count must be at least 1")
        t = self.begin_event(t)
        if not self.challenging:
            return None
        if acceptable and self.phase == PHASE_ENDING:
            self.keep_undo(UNDO_END, t)  # the verdict ends the game
        state = self.state
        self.challenging = False
        challenger = state.challenger
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
            kind = self.preset["challenge_penalty_kind"]
            points = self.preset["challenge_penalty_points"]
            if kind == "per_word":
                penalty = points * word_count
            elif kind == "per_play":
                penalty = points
            elif kind == "lose_turn":
                lost_turn = True
            # the clocks as before the challenge: the side on turn's runs (the
            # challenger's, unless the referee took its turn away, 7.3.2.2)
            on_turn = self.on_turn
            runs = player if lost_turn else on_turn if on_turn >= 0 else challenger
            state.chal_pen[challenger] += penalty
        self.log.add(gl.CHALLENGE, state.chal_at, challenger, word_count, verdict, penalty)
        game_over = False
        if self.phase == PHASE_ENDING and acceptable:
            self.close_game(t)
            game_over = True
            runs = -1
        else:
            self.phase = PHASE_PLAY
            turn = challenger if runs < 0 else runs
            if turn != self.on_turn or not state.turn_open:
                self.begin_turn(turn, t)
            if runs >= 0:
                state.start(runs, t)
        self.refresh(t)
        outcome = Outcome(not acceptable, challenger if penalty else -1, penalty, lost_turn,
                          runs, game_over)
        self.last_challenge = (challenger, outcome)
        return outcome

    def finish(self, t, side):
        check_side(side)
        t = self.begin_event(t)
        if (self.phase != PHASE_PLAY or self.paused or self.challenging
                or self.on_turn != side or not self.state.running(side)):
            return False
        self.stop_clock(side, t)
        self.close_turn(t)
        self.on_turn = -1
        self.phase = PHASE_ENDING
        self._open_window(side, t)
        return self.end_event(t)
