# A duplicate game (FISF duplicate; the rounds of the mail game, seeds 004): no
# clock per player and no challenges, one countdown per move of the preset's
# move_ms (1-3 minutes), shown on both panels.  Either player's button (the
# referee's table, once the move's letters are out) starts the next move; during a
# move the buttons do nothing; the central switch pauses and resumes it; 30 s
# before its end a warning cue, at its end the move-end cue and a "move" record in
# the game log.  The referee ends the game (end_game) and may add or take time from
# the running move (adjust).
#
# Built on the engine's accounting, so that pause, snapshot, restore, reset and the
# log work as in any game: side 0's clock is the move's countdown (its used time
# starts again with each move), side 1's never runs, and a move is side 0's "turn".
# Loaded only for a duplicate preset (clock.engine.new_engine).

from micropython import const

from clock import gamelog as gl
from clock.display import write_time
from clock.engine import (CUE_MOVE_END, CUE_MOVE_WARNING, Engine, PHASE_OVER, PHASE_PLAY,
                          PHASE_SETUP,
                          _check_side)

_WARNING_MS = const(30000)    # RULES.md: FISF duplicate, a warning 30 s before the end


class Duplicate(Engine):
    duplicate = True

    def _set_preset(self, preset):
        Engine._set_preset(self, preset)
        self._initial = preset["move_ms"]

    def _clear(self, now):
        self.moves = 0
        Engine._clear(self, now)

    def press(self, t, side):
        """Start the next move's countdown (either button); False during a move."""
        _check_side(side)
        t = self._event(t)
        if self.paused or self._run or self.phase == PHASE_OVER:
            return False
        if self.phase == PHASE_SETUP:
            self.phase = PHASE_PLAY
            self.log.add(gl.START, self._gms(t), -1, self.preset["name"])
        self.moves += 1
        self._used[0] = 0
        self._credit[0] = 0
        self._ot_cued[0] = False       # the 30 s warning of this move
        self._turn_open = True
        self._turn_start[0] = self._gms(t)
        self._start(0, t)
        return self._done(t)

    def late_start(self, t, side):
        return False                   # no clock per player

    def adjust(self, t, side, delta_ms):
        """Time added to (+) or taken from (-) the running move (both panels' countdown)."""
        _check_side(side)
        return Engine.adjust(self, t, 0, delta_ms)

    # -- the countdown -----------------------------------------------------

    def _forfeit_limit(self, side):
        left = self._initial + self._credit[0] - self._used[0]
        return left if left > 0 else 0

    def _forfeit(self, side, at, reason, keep=True):
        # not a forfeit: the move's time is over (the engine's name for a clock's limit)
        self._close_turn(at)
        self._stop(0, at)
        self._last = at
        self._cues |= CUE_MOVE_END

    def _close_turn(self, t):
        if not self._turn_open:
            return
        self._turn_open = False
        end = self._gms(t) if self._run & 1 else self._stopped_at[0]
        self.log.add(gl.MOVE, self.moves, self._turn_start[0], end, self._used_at(0, t))

    def _refresh(self, t):
        # Both panels show the move's countdown; allocates nothing.
        self._shown_t = t
        left = self._initial + self._credit[0] - self._used_at(0, t)
        if left < 0:
            left = 0
        running = self._run & 1 == 1
        if running and left <= _WARNING_MS and not self._ot_cued[0]:
            self._ot_cued[0] = True     # persisted with the snapshot: one warning a move
            self._cues |= CUE_MOVE_WARNING
        move = self.moves if self.moves > 0 else 1
        over = self.phase == PHASE_OVER
        paused = self.paused
        for d in self._displays:
            write_time(d.text, left, False)
            d.remaining_ms = left
            d.running = running
            d.on_turn = running
            d.paused = paused
            d.game_over = over
            d.move = move
