# The referee's game menu (key 6 of the referee menu): corrections to the game,
# each logged in the game log (clock/corrections.py):
#
#   1 Clock to <side>   the other player's clock runs, the turn stays (TSO 3.1.1: to
#                       note a score; 4.2c: the player left the table); that player's
#                       own press gives the clock back
#   2 Turn to <side>    the turn passes without a play (7.3.2.2, loss of turn)
#   3 End game          with or without the 5.2d excuse (the last mover restarted the
#                       opponent's clock instead of stopping it)
#   4 Undo <what>       take back the last end, accept or forfeit
#   5 Continue          the game goes on after a presumed end (4.4b iii), or a score is
#                       noted after the end (3.4b): the clock of the side chosen runs
#   6 Late clock        before the game: start a late player's clock, or their arrival (2.4)
#
# Each line shows only when its action is possible now.  Loaded when the menu is
# first opened.  The menu's modes are in terminal/modes.py (GAME and the questions
# after it).

from clock.corrections import reopen, switch, undo, undoable
from clock.engine import PHASE_OVER, PHASE_PLAY, PHASE_SETUP
from terminal.modes import CONTINUE, END, GAME, LATE, MENU


def _lend_to(engine):
    # 1: the clock goes to the player not on turn; while it is lent, back to the one on turn
    side = engine.on_turn
    return side if engine.display(1 - side).running else 1 - side


def _can_switch(engine):
    return (engine.phase == PHASE_PLAY and not engine.challenging and not engine.duplicate
            and engine.on_turn >= 0)


def key(ref, ch, t):
    flow = ref.flow
    engine = flow.engine
    mode = ref.mode
    if ch == "D":
        ref.switch_to(MENU if mode == GAME else GAME)
        return True
    if mode == GAME:
        return _game_key(ref, engine, ch, t)
    if mode == END:
        if ch == "1" or ch == "2":
            return _done(ref, engine.end_game(t, ch == "1"))
        return False
    if ch != "1" and ch != "2":
        return False
    side = ord(ch) - ord("1")
    if mode == CONTINUE:
        return _done(ref, reopen(engine, t, side))
    # LATE
    if engine.late_clock(side):             # running, or stopped by a pause
        return _done(ref, engine.arrive(t, side))
    return _done(ref, engine.late_start(t, side))


def _game_key(ref, engine, ch, t):
    phase = engine.phase
    if ch == "1" and _can_switch(engine):
        return _done(ref, switch(engine, t, _lend_to(engine), True))
    if ch == "2" and _can_switch(engine):
        return _done(ref, switch(engine, t, 1 - engine.on_turn, False))
    if ch == "3" and phase != PHASE_OVER and not engine.challenging:
        if engine.duplicate or engine.on_turn < 0:
            return _done(ref, engine.end_game(t))    # no clock to excuse
        ref.switch_to(END)
        return True
    if ch == "4" and undoable(engine):
        ok = undo(engine, t)
        if ok and engine.challenging:
            # the verdict that ended the game is taken back: the challenge again
            return ref.flow.reenter(t)
        return _done(ref, ok)
    if ch == "5" and phase == PHASE_OVER and engine.forfeit_side < 0:
        if engine.duplicate:
            return _done(ref, reopen(engine, t, 0))  # the next move waits for its start
        ref.switch_to(CONTINUE)
        return True
    if ch == "6" and phase == PHASE_SETUP and not engine.duplicate:
        ref.switch_to(LATE)
        return True
    return False


def _done(ref, ok):
    ref.switch_to(GAME)
    ref.note = "done" if ok else "rejected"
    return True


def lines(ref):
    flow = ref.flow
    text = flow.text
    engine = flow.engine
    mode = ref.mode
    note = text(ref.note).split("\n")[0] if ref.note else ""
    if mode == END:
        return [text("g_end")[2:], "", text("end_with"), text("end_without"), "", note, "",
                text("menu_back")]
    if mode == CONTINUE or mode == LATE:
        return [text("g_continue" if mode == CONTINUE else "g_late")[2:], "", text("adj_side"),
                "", "", note, "", text("menu_back")]
    phase = engine.phase
    out = [note or text("menu_game")[2:], "", "", "", "", "", "", text("menu_back")]
    if _can_switch(engine):
        out[1] = text("g_lend") % text("side_%d" % _lend_to(engine))
        out[2] = text("g_turn") % text("side_%d" % (1 - engine.on_turn))
    if phase != PHASE_OVER and not engine.challenging:
        out[3] = text("g_end")
    what = undoable(engine)
    if what:
        out[4] = text("undo_" + what)
    if phase == PHASE_OVER and engine.forfeit_side < 0:
        out[5] = text("g_continue")
    if phase == PHASE_SETUP and not engine.duplicate:
        out[6] = text("g_late")
    return out
