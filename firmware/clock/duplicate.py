# A duplicate game (FISF duplicate; the rounds of the mail game, seeds 004): no
# clock per player and no challenges, one countdown per move of the preset's
# move_ms (1-3 minutes), shown on both panels.  Either player's button (the
# referee's table, once the move's letters are out) starts the next move; during a
# move the buttons do nothing; the central switch pauses and resumes it; 30 s
# before its end a warning cue, at its end the move-end cue and a "move" record in
# the game log.  The referee ends the game (end_game) and may add or take time from
# the running move (adjust).
#
# Built on the accounting every game shares (clock.core), so that pause, snapshot,
# restore, reset and the log work as in any game: side 0's clock is the move's
# countdown (its used time starts again with each move), side 1's never runs, and a
# move is side 0's "turn".  clock.engine.new_engine makes one for a duplicate preset.

from micropython import const

from clock import gamelog as gl
from clock.core import ClockCore
from clock.display import write_time
from clock.state import CUE_MOVE_END, CUE_MOVE_WARNING, PHASE_OVER, PHASE_PLAY, PHASE_SETUP, \
    check_side

_WARNING_MS = const(30000)    # RULES.md: FISF duplicate, a warning 30 s before the end


class Duplicate(ClockCore):
    duplicate = True

    def press(self, t, side):
        """Start the next move's countdown (either button); False during a move."""
        check_side(side)
        t = self.begin_event(t)
        state = self.state
        if self.paused or state.run or self.phase == PHASE_OVER:
            return False
        if self.phase == PHASE_SETUP:
            self.phase = PHASE_PLAY
            self.log.add(gl.START, state.game_ms(t), -1, self.preset["name"])
        self.moves += 1
        state.used[0] = 0
        state.credit[0] = 0
        state.ot_cued[0] = False       # the 30 s warning of this move
        state.turn_open = True
        state.turn_start[0] = state.game_ms(t)
        state.start(0, t)
        return self.end_event(t)

    def adjust(self, t, side, delta_ms):
        """Time added to (+) or taken from (-) the running move (both panels' countdown)."""
        check_side(side)
        return ClockCore.adjust(self, t, 0, delta_ms)

    # No late clocks, no challenges, no final play: a game on two clocks' events and
    # questions get what that engine answers out of place (the event's time applied).

    def _refused(self, t, side):
        check_side(side)
        self.begin_event(t)
        return False

    def late_start(self, t, side):
        return False

    def arrive(self, t, side):
        return self._refused(t, side)

    def hold(self, t, side):
        return self._refused(t, side)

    def accept(self, t, side):
        return self._refused(t, side)

    def start_challenge(self, t, challenger):
        return self._refused(t, challenger)

    def finish(self, t, side):
        return self._refused(t, side)

    def cancel_challenge(self, t=None):
        self.begin_event(t)
        return False

    def challenge_verdict(self, t, acceptable, word_count):
        if word_count < 1:
            raise ValueError("word_count must be at least 1")
        self.begin_event(t)
        return None

    def challenge_by(self):
        return -1

    def challenger_side(self, t=None):
        if t is not None:
            self.catch_up(t)
        return -1

    # -- the countdown -----------------------------------------------------

    def time_limit(self, side):
        left = self.left_ms(0)
        return left if left > 0 else 0

    def limit_reached(self, side, at, reason, keep=True):
        # not a forfeit: the move's time is over (the core's name for a clock's limit)
        self.close_turn(at)
        self.stop_clock(0, at)
        self.state.last = at
        self.cue(CUE_MOVE_END)

    def close_turn(self, t):
        state = self.state
        if not state.turn_open:
            return
        state.turn_open = False
        end = state.game_ms(t) if state.run & 1 else state.stopped_at[0]
        self.log.add(gl.MOVE, self.moves, state.turn_start[0], end, state.used_at(0, t))

    def show(self, t):
        # Both panels show the move's countdown; allocates nothing.
        state = self.state
        left = self.left_at(0, t)
        if left < 0:
            left = 0
        running = state.run & 1 == 1
        if running and left <= _WARNING_MS and not state.ot_cued[0]:
            state.ot_cued[0] = True     # persisted with the snapshot: one warning a move
            self.cue(CUE_MOVE_WARNING)
        move = self.moves if self.moves > 0 else 1
        over = self.phase == PHASE_OVER
        paused = self.paused
        for side in (0, 1):
            d = self.display(side)
            write_time(d.text, left, False)
            d.remaining_ms = left
            d.running = running
            d.on_turn = running
            d.paused = paused
            d.game_over = over
            d.move = move
