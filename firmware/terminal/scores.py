# The players' scores at the end of a game (docs/challenge-terminal.md, Scores): once
# the game is over the terminal asks for each side's score from its score sheet, left
# first.  A player types it (digits, * deletes the last one, # done: SCORE), then the
# opponent confirms it (C) or sends it back to be typed again (*: SCORE_CONFIRM).  Once
# both are confirmed the clock writes them into the game log (a "score" record: the
# sheets' scores and the finals after the penalties the clock applied), the hall sends
# the game's result again with them (app/hall.py), and the result screen shows per side
# the sheet's score, the clock's overtime and challenge penalties and the final score.
# D, the referee's key, leaves the entry for the referee's PIN entry (terminal.flow; nothing
# typed or confirmed is lost, the result stays without scores until A on the result
# screen takes the entry up again at the step it was left).
#
# The entry is part of the game state record (store/state.py) from the game's end to the
# next game: the step, the side, the digits typed and what is confirmed (encode; restore
# at start-up, terminal/resume.py), so a power cut at any moment comes back to the same
# step with the same digits, and confirmed scores are never lost.

import struct

from clock import gamelog as gl
from clock.engine import PHASE_OVER
from terminal.states import KEY_BACK, KEY_CONFIRM, KEY_ENTER, NEUTRAL, SCORE, SCORE_CONFIRM

MAGIC = b"SC"             # the terminal part of the state record is a score entry
VERSION = 1
DIGITS = 4                # a score has at most 4 digits
_HEAD = "<2sBBBB4s4s"     # magic, version, step, side, flags, the digits of each side
# (step: SCORE, SCORE_CONFIRM or NEUTRAL: the result screen, the entry left or done)
# flags
CONFIRMED_0 = 1
CONFIRMED_1 = 2
DONE = 4                  # both confirmed and logged
ASKED = 8                 # the side's score waits for the opponent's check

# line sizes of the entry's screens (terminal.screen: 0 SMALL, 1 MEDIUM): 7 lines, 60
# of the panel's 64 pixels, the score typed last, in the pixel font (the key D, the
# referee's, is not shown: it works on every screen, terminal.flow)
_ENTRY_SIZES = b"\x00\x00\x00\x00\x00\x00\x01"


class Scores:
    """The entry of one finished game's scores."""

    def __init__(self):
        self.digits = ["", ""]      # typed, per side
        self.confirmed = [False, False]
        self.side = 0               # the side whose score is typed or confirmed
        self.done = False           # both confirmed and written to the game log
        self.asked = False          # the side's score waits for the opponent's check

    def values(self):
        """[left, right] as confirmed, or None until both are."""
        if not self.done:
            return None
        return [int(self.digits[0]), int(self.digits[1])]


def wanted(engine):
    """True if the game `engine` plays asks for scores once over: a game on two clocks
    (a duplicate game's scores are the referee's)."""
    return engine.phase == PHASE_OVER and not engine.duplicate


def begin(flow, t):
    """The game is over: ask for the left side's score."""
    flow.scores = Scores()
    flow.go(t, SCORE)


def reopen(flow, t):
    """A on the result screen: back into the entry it was left at; False when the
    scores are confirmed already (they are final: the game log and the hall have them)."""
    scores = flow.scores
    if scores is None or scores.done:
        return False
    flow.go(t, SCORE_CONFIRM if scores.asked else SCORE)
    return True


def key(flow, state, ch, t):
    """Key `ch` at step SCORE or SCORE_CONFIRM; True if it was taken."""
    scores = flow.scores
    side = scores.side
    typed = scores.digits[side]
    if state == SCORE:
        if "0" <= ch <= "9":
            if len(typed) >= DIGITS or typed == "0":
                return False        # full, or a leading zero: the key changes nothing
            scores.digits[side] = typed + ch
        elif ch == KEY_BACK:
            if not typed:
                return False
            scores.digits[side] = typed[:-1]
        elif ch == KEY_ENTER:
            if not typed:
                return False
            scores.asked = True
            flow.go(t, SCORE_CONFIRM)
            return True
        else:
            return False
        flow.render()
        return True
    # SCORE_CONFIRM: the opponent's answer
    if ch == KEY_BACK:
        scores.asked = False
        flow.go(t, SCORE)           # disputed: typed again (the digits stay to correct)
        return True
    if ch != KEY_CONFIRM:
        return False
    scores.confirmed[side] = True
    scores.asked = False
    if side == 0:
        scores.side = 1
        flow.go(t, SCORE)
    else:
        _finish(flow, t)
    return True


def _finish(flow, t):
    # Both scores confirmed: the game log's "score" record (saved with the state at
    # once, then appended to logs/games.jsonl), the result screen with them.
    scores = flow.scores
    engine = flow.engine
    sheet = [int(scores.digits[0]), int(scores.digits[1])]
    engine.log_note(gl.SCORE, t, sheet, finals(engine, sheet))
    scores.done = True
    flow.go(t, NEUTRAL)


def penalties(engine):
    """[(overtime, challenge) penalty points] per side, as the clock applied them."""
    sides = engine.result()["sides"]
    return [(s["overtime_penalty"], s["challenge_penalty"]) for s in sides]


def finals(engine, sheet):
    """The final scores: each sheet's score less the clock's penalties of that side (as
    the hall's result message computes them, hall/message.py result_fields)."""
    pens = penalties(engine)
    return [sheet[side] - pens[side][0] - pens[side][1] for side in (0, 1)]


# --- screens -------------------------------------------------------------------------


def lines(flow, state):
    """(lines, sizes) of step SCORE or SCORE_CONFIRM: the side's time as the result
    screen shows it, the score typed, the side's penalties the clock will deduct."""
    text = flow.text
    scores = flow.scores
    side = scores.side
    pens = penalties(flow.engine)[side]
    time = bytes(flow.engine.display(side).text).decode()
    lines = [text("result_title") + "\t" + text("short_%d" % side) + " " + time,
             text("pen_overtime") + "\t" + _points(pens[0]),
             text("pen_challenge") + "\t" + _points(pens[1])]
    if state == SCORE:
        lines += [text("score_keys"), text("score_hint")]
    else:
        lines += [text("confirm_keys"), text("opponent")]
    lines.append(text("score_of") % text("side_%d" % side))
    lines.append(scores.digits[side] + ("_" if state == SCORE else ""))
    return lines, _ENTRY_SIZES


def result_lines(flow):
    """The result screen once the scores are confirmed: per side (columns) the sheet's
    score, the clock's overtime and challenge penalties, the final score."""
    text = flow.text
    engine = flow.engine
    sheet = flow.scores.values()
    pens = penalties(engine)
    final = finals(engine, sheet)
    lines = [text("result_title") + "\t" + _pair(text("short_0"), text("short_1")),
             text("col_sheet") + "\t" + _pair(sheet[0], sheet[1]),
             text("col_time") + "\t" + _pair(_points(pens[0][0]), _points(pens[1][0])),
             text("col_chal") + "\t" + _pair(_points(pens[0][1]), _points(pens[1][1])),
             text("col_final") + "\t" + _pair(final[0], final[1])]
    return lines


def _pair(a, b):
    return "%4s %4s" % (a, b)


def _points(n):
    return "-%d" % n if n else "0"


# --- what a power cut must not lose --------------------------------------------------


def encode(flow):
    """The terminal's part of the state record while a finished game's scores are kept."""
    scores = flow.scores
    state = flow.state
    if state != SCORE and state != SCORE_CONFIRM:
        state = NEUTRAL
    flags = ((CONFIRMED_0 if scores.confirmed[0] else 0)
             | (CONFIRMED_1 if scores.confirmed[1] else 0)
             | (DONE if scores.done else 0) | (ASKED if scores.asked else 0))
    return struct.pack(_HEAD, MAGIC, VERSION, state, scores.side, flags,
                       scores.digits[0].encode(), scores.digits[1].encode())


def decode(data):
    """A Scores and its step from `data`, or None if it is no sound score entry."""
    if len(data) != struct.calcsize(_HEAD):
        return None
    magic, version, state, side, flags, d0, d1 = struct.unpack(_HEAD, data)
    if magic != MAGIC or version != VERSION or side > 1 or state not in (
            NEUTRAL, SCORE, SCORE_CONFIRM):
        return None
    scores = Scores()
    for i, raw in ((0, d0), (1, d1)):
        digits = bytes(raw).rstrip(b"\x00")
        for c in digits:
            if not 48 <= c <= 57:
                return None
        scores.digits[i] = digits.decode()
    scores.side = side
    scores.confirmed = [bool(flags & CONFIRMED_0), bool(flags & CONFIRMED_1)]
    scores.done = bool(flags & DONE)
    if scores.done and not (scores.digits[0] and scores.digits[1]):
        return None
    scores.asked = bool(flags & ASKED) and scores.digits[side] != ""
    if state == SCORE_CONFIRM and not scores.asked:
        state = SCORE
    return scores, state


def restore(flow, data, t):
    """The score entry back at the step a cut interrupted, if the game is still over
    (else nothing: a new game has no scores).  Returns the step."""
    if not wanted(flow.engine):
        return NEUTRAL
    got = decode(data)
    if got is None:
        return NEUTRAL              # (the next update asks for the scores afresh)
    scores, state = got
    flow.scores = scores
    flow.go(t, state)
    return state
