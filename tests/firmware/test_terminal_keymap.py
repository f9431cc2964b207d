# The multi-tap key map generated from a tile table.
from terminal.keymap import LETTER_KEYS, KeyMap, partition, tile_frequencies

PL = list("AĄBCĆDEĘFGHIJKLŁMNŃOÓPRSŚTUWYZŹŻ")


def _every_tile_once(keymap):
    seen = []
    for key in LETTER_KEYS:
        seen += list(keymap.cycle(key))
    return sorted(seen) == list(range(len(keymap.tiles)))


def test_every_tile_is_on_exactly_one_key_in_table_order_across_keys():
    keymap = KeyMap(PL, tile_frequencies(PL, "pl"))
    assert _every_tile_once(keymap)
    last_max = -1
    for key in LETTER_KEYS:
        cycle = keymap.cycle(key)
        assert cycle, key
        assert min(cycle) == last_max + 1       # contiguous groups: the alphabet runs on
        last_max = max(cycle)


def test_letters_on_a_key_come_most_frequent_first():
    freq = tile_frequencies(PL, "pl")
    keymap = KeyMap(PL, freq)
    for key in LETTER_KEYS:
        counts = [freq[i] for i in keymap.cycle(key)]
        assert counts == sorted(counts, reverse=True), key
    # the Polish diacritic letters are rare: never first on their key
    for letter in "ĄĆĘŁŃÓŚŹŻ":
        key, pos = keymap.where(PL.index(letter))
        assert pos > 0, letter


def test_where_and_presses_count_the_separating_press():
    keymap = KeyMap(["A", "B", "C", "D"], [5, 1, 4, 1], keys="12")
    assert partition([5, 1, 4, 1], 2) in ([(0, 2), (2, 4)],)
    assert keymap.legend("1") == "AB" and keymap.legend("2") == "CD"
    assert keymap.where(1) == ("1", 1)
    assert keymap.presses([0, 2]) == 2           # A C: different keys
    assert keymap.presses([0, 1]) == 1 + 1 + 2   # A, separator, B B
    assert keymap.presses([0, 0]) == 3           # a double letter needs the separator too


def test_multi_character_tiles_and_blank_only_letters_are_reachable():
    tiles = ["A", "B", "C", "CH", "D", "E", "K", "LL", "Ñ", "RR", "W"]
    keymap = KeyMap(tiles, None)
    assert _every_tile_once(keymap)
    assert sorted(len(keymap.cycle(k)) for k in LETTER_KEYS) == [1] * 9 + [2]
    assert "CH" in [keymap.tiles[i] for i in keymap.cycle(keymap.where(3)[0])]


def test_fewer_tiles_than_keys():
    keymap = KeyMap(["X", "Y", "Z"], None)
    assert [keymap.legend(k) for k in "1234"] == ["X", "Y", "Z", ""]
    assert keymap.cycle("9") == b""


def test_frequencies_come_from_the_image_first_then_the_language_then_none():
    assert tile_frequencies(["A", "B"], "de", [3, 9]) == [3, 9]
    de = tile_frequencies(["E", "Q", "Ä"], "de")
    assert de[0] > de[2] > de[1] > 0
    assert tile_frequencies(["E", "CH"], "es") is None
    assert tile_frequencies(["E", "Þ"], "en")[1] == 0
