# What the challenge terminal shows at each step of its flow (terminal/flow.py): the
# lines of text and their sizes, drawn from the flow's state alone (the words' steps
# show their words: terminal/wordsteps.py).  The flow calls FlowView.draw after every
# change; the runtime draws the Screen it fills (render/terminal.py).  Nothing here
# changes the flow.

from micropython import const
from clock.engine import PHASE_ENDING, PHASE_OVER
from terminal.screen import COLS, Screen
from terminal.states import (ACCEPT_ASK, CONFIRM, COUNT, ENTRY, FINISH_ASK, NEUTRAL, READY,
                             REFEREE, REFEREE_WAIT, SCORE, SCORE_CONFIRM, VERDICT)

_CLOCK_ROW = const(1)  # the idle screen's rows with both sides' times

# line sizes of the screens (terminal.screen: 0 SMALL, 1 MEDIUM, 2 LARGE)
_NEUTRAL_SIZES = b"\x00\x01\x01\x00\x00\x00\x00"
_VERDICT_SIZES = b"\x02\x00\x00\x00\x00\x00"


def situation(engine):
    """What the neutral screen depends on in the engine, as one small int: the phase,
    whether the last play can be challenged, whether it is held."""
    mode = engine.phase * 4
    if engine.challenger_side() >= 0:
        mode += 1
    if engine.hold_side >= 0:
        mode += 2
    return mode


class FlowView:
    def __init__(self):
        self.screen = Screen()
        self.drawn = -1             # the engine's situation the neutral screen shows

    def stale(self, engine):
        """True if the neutral screen shows another situation than the engine's now
        (a window opened or closed, a hold, the end)."""
        return situation(engine) != self.drawn

    def draw(self, flow):
        """Fill the screen with the flow's step; True if it changed."""
        state = flow.state
        text = flow.text
        screen = self.screen
        if flow.help and state in (COUNT, ENTRY):
            from terminal.help import lines

            lines, sizes = lines(flow)
            return screen.show(lines, sizes)
        if state == REFEREE:
            return screen.show(flow.referee.lines())
        sizes = None
        tiles = None
        shift = False
        clocks = -1
        if state == NEUTRAL:
            self.drawn = situation(flow.engine)
            lines, sizes = _neutral_lines(flow)
            shift = True
            if sizes is not None:
                clocks = _CLOCK_ROW
        elif state == COUNT:
            lines = [text("challenge"), "", text("how_many"), ""]
            if flow.lexicon is None:
                lines += _problem_lines(flow)
            else:
                lines += ["", "", text("key_help")]
        elif state == VERDICT:
            lines = _verdict_lines(flow)
            sizes = _VERDICT_SIZES
        elif state == ENTRY or state == CONFIRM or state == READY or state == REFEREE_WAIT:
            from terminal import wordsteps     # the words' steps show their words

            lines, sizes, tiles = wordsteps.lines(flow, state)
        elif state == SCORE or state == SCORE_CONFIRM:
            from terminal import scores         # the end's score entry shows its steps

            lines, sizes = scores.lines(flow, state)
        elif state == FINISH_ASK or state == ACCEPT_ASK:
            lines = text("finish_ask" if state == FINISH_ASK else "accept_ask").split("\n")
            lines += ["", text("ok_back")]
        else:   # CANCEL_ASK
            lines = text("cancel_ask").split("\n") + ["", text("yes_back"), "",
                                                      text("key_referee")]
        return screen.show(lines, sizes, tiles, shift, clocks)


def _problem_lines(flow):
    return flow.text("bad_list" if flow.problem == "damaged" else "no_list").split("\n")


def _neutral_lines(flow):
    # The idle screen: the state (or a short notice) and the battery; both sides'
    # times and penalties (drawn by the terminal view from the engine's display
    # models, rows _CLOCK_ROW and the next); the list; a note; the keys.
    engine = flow.engine
    text = flow.text
    if engine.phase == PHASE_OVER:
        return _result_lines(flow), None
    if flow.notice:
        title = text(flow.notice)
    else:
        title = text("last_move" if engine.phase == PHASE_ENDING else "ready")
    side = flow.battery
    if flow.mark:
        side = flow.mark + " " + side if side else flow.mark
        if len(title) + 1 + len(side) > COLS:
            side = flow.mark
            title = title[:COLS - 1 - len(side)]
    if side and len(title) + 1 + len(side) <= COLS:
        title += "\t" + side               # (a long notice hides it for its 3 s)
    lines = [title, text("short_0"), text("short_1")]
    if engine.challenger_side() >= 0:
        # the last play can be held, accepted or challenged now
        lines.append(text("key_hold") if engine.hold_side < 0 else text("hold_on"))
        lines.append(text("key_accept"))
    elif flow.lexicon is None:
        lines += _problem_lines(flow)
    else:
        lines.append(joined(flow.lexicon.name, flow.lexicon.version))
        # the PIN is still the default one: anyone can open the referee's menu
        default = str(flow.settings.get("referee_pin", "0000")) == "0000"
        lines.append(flow.device_note or (text("pin_default") if default
                                          else engine.preset["name"]))
    while len(lines) < 5:
        lines.append(flow.device_note if len(lines) == 4 else "")
    lines = lines[:5]
    if engine.challenger_side() >= 0:
        lines.append(text("key_challenge"))  # only while there is a play to challenge
    elif engine.fresh() and not engine.duplicate:
        lines.append(text("start_hint"))    # nobody's clock has run yet
    else:
        lines.append("")
    lines.append(text("key_referee"))
    return lines, _NEUTRAL_SIZES


def _result_lines(flow):
    # The end of the game: per side the time left (negative: overtime) and the
    # overtime and challenge penalties apart (a scorekeeper adds each once), and how
    # it ended (forfeit, 5.2d); once the players confirmed their scores, per side the
    # sheet's score, the penalties and the final score (terminal.scores).
    engine = flow.engine
    text = flow.text
    result = engine.result()
    if flow.sheet_scores() is not None:
        from terminal import scores             # with the scores the players confirmed

        return scores.result_lines(flow) + ["", _end_note(flow, result)
                                            or text("key_referee")]
    lines = [text("result_title")]
    if engine.duplicate:
        lines.append(text("moves_n") % result["moves"])
    for side in () if engine.duplicate else (0, 1):
        d = engine.display(side)
        pens = result["sides"][side]
        lines.append(text("short_%d" % side) + " " + bytes(d.text).decode())
        lines.append(text("pen_overtime") + "\t" + _points(pens["overtime_penalty"]))
        lines.append(text("pen_challenge") + "\t" + _points(pens["challenge_penalty"]))
    note = _end_note(flow, result)
    if note:
        lines.append(note)
    elif flow.scores is not None and not engine.duplicate:
        lines.append(text("key_scores"))    # the score entry was left: A takes it up
    else:
        lines.append(text("key_referee"))
    return lines


def _end_note(flow, result):
    # A notice, a forfeit, the 5.2d excuse: what the result screen says of the end.
    text = flow.text
    if flow.notice:
        return text(flow.notice)
    if result["forfeit_side"] >= 0:
        return text("forfeit_by") % text("side_%d" % result["forfeit_side"])
    if "5.2d" in result["notes"]:
        return text("note_5_2d")
    return ""


def _verdict_lines(flow):
    # The verdict in LARGE, the size its longest translation fits
    # (tests/firmware/test_texts_fit.py), then what follows from it.
    text = flow.text
    acceptable, outcome, by = flow.verdict, flow.outcome, flow.verdict_by
    lines = [text("acceptable" if acceptable else "not_acceptable")]
    if outcome is not None and outcome.withdrawn:
        lines.append(text("withdrawn"))
    elif outcome is not None and outcome.penalty_points:
        lines.append(text("penalty") % outcome.penalty_points)
    elif outcome is None or not outcome.lost_turn:
        lines.append(text("no_penalty"))
    if outcome is not None and outcome.lost_turn:
        lines.append(text("lost_turn"))
    if outcome is not None and outcome.game_over:
        lines.append(text("game_over"))
    elif outcome is not None and outcome.runs >= 0:
        lines.append(text("clock_runs") % text("side_%d" % outcome.runs))
    elif outcome is not None and outcome.withdrawn and flow.challenger >= 0:
        # TSO 3.1.4: the player takes the tiles back, then restarts the clock
        player = text("side_%d" % (1 - flow.challenger))
        lines += (text("withdraw_press") % player).split("\n")
    while len(lines) < 4:
        lines.append("")
    if by == "referee":
        lines.append(text("menu_title"))
    elif flow.lexicon is not None:
        lines.append(joined(flow.lexicon.name, flow.lexicon.version))
    else:
        lines.append("")
    lines.append(text("any_key"))
    return lines


def _points(n):
    return "-%d" % n if n else "0"


def joined(name, version):
    """A word list's name and its version on one line, if they fit."""
    both = name + " " + version if version else name
    return both if len(both) <= COLS else name
