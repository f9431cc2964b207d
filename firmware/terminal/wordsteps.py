# The words of a challenged play, step by step (docs/challenge-terminal.md): how many
# (COUNT), typed on the keypad (ENTRY), checked by the opponent (CONFIRM), then the
# typist's check against the list (READY), which gives the verdict or leaves it to the
# referee (REFEREE_WAIT).  The flow (terminal/flow.py) hands these steps their keys,
# and its view (terminal/view.py) asks them for their lines.  Loaded with a challenge
# and dropped with it (lazy.DROPPED).

from micropython import const
from lexicon.reader import VALID, INVALID, LexiconError
from terminal.screen import ROWS, TILE
from terminal.states import (CONFIRM, COUNT, ENTRY, KEY_BACK, KEY_CONFIRM, KEY_ENTER,
                             KEY_SEPARATE, READY, REFEREE_WAIT)

_WORD_ROWS = const(3)  # rows for the words while typing (MEDIUM)
_LIST_ROWS = const(4)  # rows for the words while confirming (MEDIUM): a page of them

# line sizes of the screens (terminal.screen: 0 SMALL, 1 MEDIUM, 2 LARGE)
_ENTRY_SIZES = b"\x00\x01\x01\x01\x01\x00"
_LIST_SIZES = b"\x00\x01\x01\x01\x01\x00"
_WAIT_SIZES = b"\x00\x00\x01\x01\x01\x00"


def key(flow, state, ch, t):
    """Key `ch` at word step `state`; True if it was taken."""
    if state == COUNT:
        return _count_key(flow, ch, t)
    if state == ENTRY:
        return _entry_key(flow, ch, t)
    if state == CONFIRM:
        return _confirm_key(flow, ch, t)
    if state == READY:
        return _ready_key(flow, ch, t)
    return False


def _count_key(flow, ch, t):
    if "1" <= ch <= "8":
        count = ord(ch) - ord("0")
        if flow.lexicon is None:
            # No usable list: only the referee can decide, and needs the count.
            flow.count_without_list = count
            flow.wait_reason = "bad_list" if flow.problem == "damaged" else "no_list"
            flow.go(t, REFEREE_WAIT)
            return True
        flow.entry.begin(count)
        flow.go(t, ENTRY)
        return True
    return False


def _entry_key(flow, ch, t):
    entry = flow.entry
    if "0" <= ch <= "9":
        changed = entry.letter_key(ch, t)
    elif ch == KEY_SEPARATE:
        changed = entry.commit()
    elif ch == KEY_BACK:
        changed = entry.backspace()
        if not changed:
            changed = entry.previous_word()
            if not changed:
                flow.go(t, COUNT)      # back before the first word: the count again
                return True
    elif ch == KEY_ENTER:
        changed = entry.next_word()
        if not changed and entry.complete():
            flow.page = 0
            flow.go(t, CONFIRM)
            return True
    else:
        return False
    if changed:
        flow.render()
    return changed


def _confirm_key(flow, ch, t):
    if ch == KEY_CONFIRM:
        flow.go(t, READY)
        return True
    if ch == KEY_BACK:
        flow.go(t, ENTRY)
        return True
    if ch == KEY_SEPARATE:
        return _next_page(flow)
    return False


def _ready_key(flow, ch, t):
    if ch == KEY_ENTER:
        _check(flow, t)
        return True
    if ch == KEY_BACK:
        flow.go(t, ENTRY)
        return True
    if ch == KEY_SEPARATE:
        return _next_page(flow)
    return False


def _next_page(flow):
    # the confirmed words' next page (_LIST_ROWS words a page), the first after the last
    count = flow.entry.count
    if count <= _LIST_ROWS:
        return False
    flow.page = (flow.page + 1) % ((count + _LIST_ROWS - 1) // _LIST_ROWS)
    return flow.render()


def _check(flow, t):
    # The words against the list: the verdict, or the referee's when a word is beyond
    # the list (or the list fails under the lookup).
    entry = flow.entry
    any_invalid = False
    beyond = False
    try:
        for i in range(entry.count):
            result = flow.lexicon.lookup(entry.words[i], entry.lengths[i])
            if result == INVALID:
                any_invalid = True
            elif result != VALID:
                beyond = True
    except LexiconError:
        # The image failed under a lookup (flash fault): no automatic verdict.
        count = entry.count
        flow.state = REFEREE_WAIT
        flow.wait_reason = "bad_list"
        flow.set_lexicon(None, "damaged")
        flow.count_without_list = count
        flow.go(t, REFEREE_WAIT)
        return
    if any_invalid:
        # One word that is not in the list decides: the play is not acceptable
        # even when another word is beyond the list (TSO 3.1.4).
        flow.decide(t, False, "list")
    elif beyond:
        flow.wait_reason = "referee_decides"
        flow.go(t, REFEREE_WAIT)
    else:
        flow.decide(t, True, "list")


# --- the steps' screens -------------------------------------------------------------

def lines(flow, state):
    """(lines, sizes, tiles) of word step `state` (ENTRY, CONFIRM, READY or
    REFEREE_WAIT) for terminal.view."""
    lexicon = flow.lexicon
    tiles = lexicon.tiles if lexicon is not None else None
    if state == ENTRY:
        return _entry_lines(flow), _ENTRY_SIZES, tiles
    if state == REFEREE_WAIT:
        sizes = None
        if flow.wait_reason == "referee_decides" and flow.declared() <= 3:
            sizes = _WAIT_SIZES
        return _wait_lines(flow), sizes, tiles
    return _list_lines(flow, state), _LIST_SIZES, tiles


def _word(entry, i):
    # Word i as tiles: one character per tile (a tile of several letters as
    # terminal.screen.TILE + its index), the pending tile included.
    tiles = entry.keymap.tiles
    out = ""
    n = entry.lengths[i]
    word = entry.words[i]
    for j in range(n + (1 if i == entry.current and entry.pending_key else 0)):
        tile = word[j] if j < n else entry.pending_tile()
        out += tiles[tile] if len(tiles[tile]) == 1 else chr(TILE + tile)
    return out


def _entry_lines(flow):
    entry = flow.entry
    lines = [flow.text("word_n") % (entry.current + 1, entry.count)]
    first = max(0, entry.current - _WORD_ROWS + 1)
    tiles = flow.lexicon.tiles
    for i in range(first, first + _WORD_ROWS):
        if i <= entry.current:
            text = _word(entry, i) + ("_" if i == entry.current else "")
            lines.append(_tail("%d %s" % (i + 1, text), tiles))
        else:
            lines.append("")
    lines.append(entry.legend())
    lines.append(flow.text("entry_keys"))
    return lines


def _word_rows(flow):
    rows = []
    entry = flow.entry
    tiles = flow.lexicon.tiles
    for i in range(entry.count):
        rows.append(_tail("%d %s" % (i + 1, _word(entry, i)), tiles))
    return rows


def _list_lines(flow, state):
    text = flow.text
    rows = _word_rows(flow)
    start = flow.page * _LIST_ROWS
    lines = [text("opponent") if state == CONFIRM else text("confirmed")]
    lines += rows[start:start + _LIST_ROWS]
    while len(lines) < _LIST_ROWS + 1:
        lines.append("")
    lines.append(text("confirm_keys") if state == CONFIRM else text("check_key"))
    return lines


def _wait_lines(flow):
    text = flow.text
    lines = []
    if flow.wait_reason == "referee_decides":
        lines += text("referee_decides").split("\n")
        lines += _word_rows(flow)[:5]    # the referee needs the words
        while len(lines) < 5:
            lines.append("")
        lines.append(text("key_referee"))
        return lines
    lines += text(flow.wait_reason).split("\n")
    lines += text("call_referee").split("\n")
    while len(lines) < ROWS - 1:
        lines.append("")
    lines = lines[:ROWS - 1]
    lines.append(text("key_referee"))
    return lines


def _tail(text, tiles):
    # A long word shows its end, where the typing happens.
    from render.typeset import MEDIUM, width

    if width(text, MEDIUM, tiles) <= 127:
        return text
    while len(text) > 2 and width("<" + text, MEDIUM, tiles) > 127:
        text = text[1:]
    return "<" + text
