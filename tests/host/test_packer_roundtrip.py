"""Round trips: word lists through the graph and the image back to the same language."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from wordlist_packer.graph import CODE_BASE, OrderError, build
from wordlist_packer.image import Image, Meta, write_image
from wordlist_packer.normalise import Profile
from wordlist_packer.pipeline import build_from_lines, decode_graph, verify

import pytest


def codes(tiles):
    return "".join(chr(CODE_BASE + t) for t in tiles)


def image_of(words, tiles, blank=()):
    g = build(sorted(set(words)))
    meta = Meta(language="xx", tiles=tiles, blank_only=[t in blank for t in tiles])
    return Image(write_image(g, meta)), g


def test_small_list_round_trip():
    p = Profile.builtin("en")
    data = build_from_lines(["cat", "cats", "car", "cart", "dog", "a"], p, date=0)
    img = Image(data)
    assert img.word_list() == ["A", "CAR", "CART", "CAT", "CATS", "DOG"]
    for w in ("CAT", "CATS", "A", "DOG"):
        assert w in img
    for w in ("CA", "DOGS", "", "B", "CATSS"):
        assert w not in img
    assert img.min_len == 1 and img.max_len == 4


def test_empty_list():
    img = Image(build_from_lines([], Profile.builtin("en")))
    assert img.words == 0 and img.word_list() == []
    assert "A" not in img and list(img.iter_tile_words()) == []


def test_unsorted_input_to_graph_is_refused():
    with pytest.raises(OrderError):
        build(["b", "a"])


def test_graph_drops_repeats_and_names_the_first_word_out_of_order():
    import wordlist_packer.graph as graph_mod
    words = [f"{i:06d}" for i in range(3 * graph_mod.BLOCK // 2)]   # two blocks
    with_repeats = sorted(words + words[::7] + [words[graph_mod.BLOCK]])
    g, ref = build(with_repeats), build(words)
    assert g.nodes == ref.nodes and g.words == len(words)
    swapped = words[:]
    at = graph_mod.BLOCK + 5                  # in the second block
    swapped[at], swapped[at + 1] = swapped[at + 1], swapped[at]
    with pytest.raises(OrderError, match=f"at word {at + 2}$"):
        build(swapped)


def test_multi_character_tiles_round_trip():
    p = Profile.builtin("es")
    lines = ["chorro", "llama", "perro", "carro", "coche", "ñandú", "cacho", "ch"]
    img = Image(build_from_lines(lines, p))
    assert set(img.word_list()) == {"CHORRO", "LLAMA", "PERRO", "CARRO", "COCHE", "ÑANDU",
                                "CACHO", "CH"}
    ch = img.tile_strings.index("CH")
    assert img.contains_tiles([ch])           # one tile
    c, h = img.tile_strings.index("C"), img.tile_strings.index("H")
    assert not img.contains_tiles([c, h])     # C + H is another word
    assert img.min_len == 1 and img.max_len == 5   # CHORRO = CH O RR O = 4 tiles; ÑANDU 5


def test_blank_only_tiles_in_image():
    p = Profile.builtin("nb")
    img = Image(build_from_lines(["fähig", "båt", "ørret"], p))
    table = img.tile_table()
    assert ("Ä", True) in table and ("Å", False) in table and ("A", False) in table
    assert "FÄHIG" in img and "FAHIG" not in img


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 5), min_size=1, max_size=7), max_size=60))
def test_generated_lists_round_trip(raw):
    tiles = ["A", "B", "CH", "D", "E", "LL"]
    words = [codes(w) for w in raw]
    img, g = image_of(words, tiles, blank=("D",))
    expect = sorted(set(words))
    assert [codes(w) for w in img.iter_tile_words()] == expect
    assert img.words == len(expect)
    rng = random.Random(len(words))
    probes = [tuple(rng.randrange(6) for _ in range(rng.randrange(1, 8))) for _ in range(40)]
    s = set(expect)
    for pr in probes:
        assert img.contains_tiles(pr) == (codes(pr) in s)


def test_large_generated_list_uses_every_kind_of_arc():
    # enough nodes, tiles and shared endings that every pointer kind, jumps, the
    # two-tile table and many pages occur
    rng = random.Random(7)
    tiles = [chr(0x41 + i) for i in range(26)] + ["Ä", "Ö", "Ü", "Æ", "Ø", "Å"]
    endings = [[0, 4, 24], [0, 4, 24, 12, 2], [0, 4], [18, 19, 0, 4, 24, 12, 2]]
    words = set()
    for _ in range(30000):
        n = rng.randrange(2, 12)
        words.add(codes(min(31, int(rng.expovariate(0.15))) for _ in range(n)))
    for _ in range(3000):
        stem = [rng.randrange(32) for _ in range(rng.randrange(2, 7))]
        for e in rng.choice(endings):
            words.add(codes(stem + [e]))
    img, g = image_of(words, tiles)
    from wordlist_packer.pipeline import stored_counts
    kinds = set()
    for _, own, _ in img.stored_nodes():
        kinds.update(k for _, _, _, k in own)
    assert kinds == {0, 1, 2, 3, 4}              # SINK NEXT REL GROUP ABS
    assert img.jumps > 100 and img.prefix_depth == 2 and img.header()["pages"] > 50
    assert stored_counts(img) == (img.arcs, img.nodes, img.jumps)
    expect = sorted(words)
    got = [codes(w) for w in img.iter_tile_words()]
    assert got == expect
    nodes, root = decode_graph(img)
    assert len(nodes) == len(g.nodes) - 1


def test_verify_detects_a_different_list():
    p = Profile.builtin("en")
    words = ["cat", "cats", "dog", "dogs", "bird"]
    img = Image(build_from_lines(words, p))
    from wordlist_packer.normalise import normalise_lines
    good = normalise_lines(p, words).words
    assert verify(img, good, p).ok
    other = normalise_lines(p, words[:-1] + ["birds"]).words
    rep = verify(img, other, p)
    assert not rep.ok and rep.mismatches


@pytest.mark.parametrize("rounds", [(1, 0), (2, 1), (1, 3)])
def test_sizes_settle_the_last_way_too(rounds):
    # Too few rounds for the sizes to settle: arcs may then only grow, and a pointer
    # that would shrink is written loose (its width given, padded).
    rng = random.Random(11)
    tiles = [chr(0x41 + i) for i in range(20)]
    words = sorted({codes(rng.randrange(20) for _ in range(rng.randrange(2, 9)))
                    for _ in range(4000)})
    g = build(words)
    data = write_image(g, Meta(language="xx", tiles=tiles, blank_only=[False] * 20),
                       rounds=rounds)
    img = Image(data)
    loose = sum(1 for s in img.s2_table[1] if s & 0xFF == 0x80)
    assert loose > 0
    assert [codes(w) for w in img.iter_tile_words()] == words
    s = set(words)
    for _ in range(2000):
        q = [rng.randrange(20) for _ in range(rng.randrange(1, 9))]
        assert img.contains_tiles(q) == (codes(q) in s)
