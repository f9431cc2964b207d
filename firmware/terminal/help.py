# The whole key layout of the list in use, shown while the words are counted or typed
# (key A; any key goes back).  The digit keys as the keypad has them, three to a row,
# each with its letters in the order a press gives them: what the simulator draws on
# its keys and `wordpack legend` prints for the keypad (one KeyMap, terminal.keymap).
# Imported when the layout is first shown; a small module, it stays.

from micropython import const
from render.typeset import MEDIUM, width
from terminal.screen import TILE

# the keypad's digit keys by row (hwconfig.KEYPAD_LAYOUT: 123A / 456B / 789C / *0#D)
_GRID = ("123", "456", "789", " 0 ")
_CELL = const(43)          # pixels per key column
_STOP = "\x0b"      # column stop (render.terminal)


def key_text(keymap, key):
    """'7 ROPQ': the key and its letters, a tile of several letters as one character."""
    tiles = keymap.tiles
    out = key + " "
    for i in keymap.cycle(key):
        out += tiles[i] if len(tiles[i]) == 1 else chr(TILE + i)
    return out


def lines(flow):
    """(lines, sizes) of the help screen."""
    keymap = flow.keymap
    tiles = keymap.tiles
    rows = []
    fits = True
    for keys in _GRID:
        cells = []
        for k in range(3):
            key = keys[k]
            text = key_text(keymap, key) if key != " " and keymap.cycle(key) else ""
            room = _CELL - 1 if keys[k + 1:k + 2].strip() else 128 - k * _CELL
            if width(text, MEDIUM, tiles) > room:
                fits = False
            cells.append(text)
        rows.append(_STOP.join(cells))
    title = flow.text("help_title")
    back = flow.text("any_key")
    if fits:
        return [title] + rows + [back], b"\x00\x01\x01\x01\x01\x00"
    # A list with many letters on a key: in the small font, as many keys a line as fit.
    out = [title]
    line = ""
    for keys in _GRID:
        for key in keys.strip():
            if keymap.cycle(key):
                item = key + ":" + "".join(tiles[i] for i in keymap.cycle(key))
                if line and len(line) + 1 + len(item) > 16:
                    out.append(line)
                    line = ""
                line = line + " " + item if line else item
    out.append(line)
    return out[:7] + [back], None
