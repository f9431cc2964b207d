# The referee's corrections to a game, each an event of the engine (clock.core: it
# takes the tick, returns True if it changed the game, and the game log gets a
# record), built from the steps of an event as the engine's own events are:
#
#   undo(engine, t)                 take back the last end, accept or forfeit
#   reopen(engine, t, side)         the game goes on after a presumed end (4.4b iii, 3.4b)
#   switch(engine, t, side, lend)   switch the clocks without a play (3.1.1, 4.2c, 7.3.2.2)
#
# Apart from the engine: only the referee's game menu (terminal.referee_game) uses them.

from clock import gamelog as gl
from clock.snapshot_load import decode_into
from clock.state import BOTH, PHASE_OVER, PHASE_PLAY, REASON_LATE, UNDONE, check_side


def undoable(engine):
    """What undo would take back now: "end", "accept", "forfeit", or "" (nothing)."""
    slot = engine.state.undo
    return UNDONE[slot[0]] if slot else ""


def undo(engine, t=None):
    """Take back the last end of the game, accept or forfeit, with whatever it ended
    (a 5.2d excuse, a verdict that ended the game, the closed window): the game as it
    was just before, its clocks stopped (paused: resume goes on; a challenge comes
    back as a challenge).  Time a clock ran since is charged as it ran; the game log
    goes on numbering, with an "undo" record.  Only the latest of these events can be
    taken back, and only while nothing else happened since (a press, a finish, a
    time adjustment or a switch make it final)."""
    e = engine
    t = e.begin_event(t)
    state = e.state
    slot = state.undo
    if not slot:
        return False
    used = [state.used_at(0, t), state.used_at(1, t)]
    log, cued, units, at = e.log, state.ot_cued, state.ot_units, state.game_ms(t)
    late = UNDONE[slot[0]] == "forfeit" and e.forfeit_reason == REASON_LATE
    last = e.forfeit_side
    decode_into(e, slot[1:], t)
    if last == BOTH:
        last = 1 - e.forfeit_side        # the one whose forfeit is taken back
    # the game goes on from now: its log, its time, what it has charged and cued
    e.log = log
    state.game_ref = t
    state.game_base = at
    state.used = used
    state.ot_cued = cued
    state.ot_units = units
    state.undo = b""
    log.add(gl.UNDO, at, UNDONE[slot[0]])
    if late:
        # A forfeit for lateness taken back: the player was there in time (2.4b i),
        # only the arrival was keyed too late.  It is the arrival, with the lateness
        # at the limit, and the game starts as any does, by the opponent's press.
        late_cap = e.preset["late_forfeit_ms"]
        if used[last] > late_cap:
            state.used[last] = late_cap
        e.arrive(t, last)
    return e.end_event(t)


def reopen(engine, t, side):
    """4.4b iii (tiles found in the bag thought empty: the game goes on) and 3.4b (a
    score to be noted after the end): the game is in play again and `side`'s clock
    runs, a turn of its own; an excuse the end gave (5.2d) no longer applies.  Not
    after a forfeit (undo takes a forfeit back).  A duplicate game waits for its next
    move instead."""
    check_side(side)
    e = engine
    t = e.begin_event(t)
    if e.phase != PHASE_OVER or e.forfeit_side >= 0:
        return False
    state = e.state
    e.phase = PHASE_PLAY
    state.excused = [0, 0]
    state.notes = 0
    state.undo = b""
    if e.duplicate:
        side = -1
    else:
        e.begin_turn(side, t)
        state.start(side, t)
    e.log.add(gl.CONTINUE, state.game_ms(t), side)
    return e.end_event(t)


def switch(engine, t, side, lend):
    """Start `side`'s clock and stop the other's without a play: no challenge window
    opens or closes.  lend: the turn stays with the side on turn; its opponent lets
    `side` note a score (3.1.1) or keeps `side`'s clock running while `side` is away
    (4.2c); `side`'s press gives the clock back (clock.engine press).  Else the turn
    passes to `side` (7.3.2.2, loss of turn).  From a pause too: the clock runs after."""
    check_side(side)
    e = engine
    t = e.begin_event(t)
    if e.phase != PHASE_PLAY or e.challenging or e.duplicate:
        return False
    if e.paused:
        e.unpause(t)         # as resume does: the window's frozen seconds go on from now
    e.stop_clocks(t)
    if not lend and side != e.on_turn:
        e.begin_turn(side, t)
    state = e.state
    state.start(side, t)
    state.undo = b""
    e.log.add(gl.SWITCH, state.game_ms(t), side, bool(lend))
    return e.end_event(t)
