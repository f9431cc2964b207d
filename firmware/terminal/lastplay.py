# The last play, from the neutral screen (TSO 5.1b, 1.4.1a; docs/challenge-terminal.md):
# while it can be challenged, key B holds it and key C accepts it (in the end phase
# after one more question, ACCEPT_ASK: accepting the final play ends the game); the
# pause switch held by the player whose clock it stopped asks whether that was the
# last move (FINISH_ASK).  The flow (terminal/flow.py) asks the questions and calls
# these with the answers; each shows what came of it.

from clock.engine import PHASE_ENDING, PHASE_PLAY
from terminal.states import ACCEPT_ASK, NEUTRAL


def hold(flow, t):
    """Key B: hold the last play (its challenge window stays open)."""
    engine = flow.engine
    side = engine.challenger_side()
    if side < 0 or not engine.hold(t, side):
        flow.note(t, "not_now")
        return False
    flow.render()           # the screen says the hold is on (hold_on)
    return True


def accept(flow, t):
    """Key C: accept the last play; in the end phase, ask first."""
    engine = flow.engine
    side = engine.challenger_side()
    if side < 0:
        flow.note(t, "not_now")
        return False
    if engine.phase == PHASE_ENDING:
        # accepting the final play ends the game: asked once more (1.4.1a)
        flow.accept_side = side
        flow.go(t, ACCEPT_ASK)
        return True
    if not engine.accept(t, side):
        flow.note(t, "not_now")
        return False
    flow.note(t, "accepted_note")
    return True


def accept_final(flow, t):
    """ACCEPT_ASK answered yes: the final play is accepted, the game is over."""
    side = flow.accept_side
    flow.accept_side = -1
    engine = flow.engine
    ok = engine.challenger_side() == side and engine.accept(t, side)
    flow.go(t, NEUTRAL)
    if not ok:
        flow.note(t, "not_now")


def finish(flow, t):
    """FINISH_ASK answered yes: that was the last move (TSO 5.1b i)."""
    engine = flow.engine
    side = flow.finish_side
    flow.finish_side = -1
    ok = False
    if (engine.phase == PHASE_PLAY and not engine.challenging and side >= 0
            and engine.on_turn == side):
        # The pause that led here stopped the clock; resume and finish at the
        # same tick charge nobody for the question.
        if engine.paused:
            engine.resume(t)
        ok = engine.finish(t, side)
    flow.go(t, NEUTRAL)
    if not ok:
        flow.note(t, "not_now")
