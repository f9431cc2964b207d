# Multi-tap word entry on its own.
from terminal.entry import MAX_TILES, WordEntry
from terminal.keymap import KeyMap

TILES = ["A", "B", "C", "CH", "D", "E"]


def _entry():
    return WordEntry(KeyMap(TILES, [9, 1, 3, 2, 4, 8], keys="12"), timeout_ms=1000)


def test_cycle_wraps_and_another_key_commits():
    e = _entry()
    e.begin(1)
    key_a, pos_a = e.keymap.where(0)
    cycle = e.keymap.cycle(key_a)
    for i in range(len(cycle) + 2):
        e.letter_key(key_a, 10 * i)
    assert e.pending_tile() == cycle[1 % len(cycle)]     # wrapped around once
    other = "2" if key_a == "1" else "1"
    e.letter_key(other, 100)
    assert e.lengths[0] == 1 and e.words[0][0] == cycle[1 % len(cycle)]


def test_the_ticks_wrap_does_not_confuse_the_timeout():
    from timebase import TICKS_MAX
    e = _entry()
    e.begin(1)
    e.letter_key("1", TICKS_MAX - 10)
    e.letter_key("1", 20)                 # 31 ms later, across the wrap: same letter cycles
    assert e.pending_pos == 1 and e.lengths[0] == 0
    assert not e.expire(500)
    assert e.expire(1030)


def test_a_word_holds_at_most_max_tiles():
    e = _entry()
    e.begin(1)
    for i in range(MAX_TILES + 5):
        e.letter_key("1", 2000 * i)
    e.commit()
    assert e.lengths[0] == MAX_TILES


def test_multi_character_tile_is_one_entry():
    e = _entry()
    e.begin(1)
    key, pos = e.keymap.where(3)       # CH
    for i in range(pos + 1):
        e.letter_key(key, i)
    e.commit()
    assert e.text(0) == "CH" and e.lengths[0] == 1
    assert e.backspace() and e.text(0) == ""


def test_wipe_clears_every_buffer():
    e = _entry()
    e.begin(2)
    e.letter_key("1", 0)
    e.next_word()
    e.letter_key("2", 5000)
    e.wipe()
    assert all(b == bytearray(MAX_TILES) for b in e.words)
    assert e.count == 0 and e.pending_key == ""
