# The MicroPython reader of the word graph image (docs/wordlist-format.md),
# run under CPython and under MicroPython.
import gc

from lexicon import INVALID, TOO_LONG, VALID, LexiconError, open_file, open_partition
from lexicon_data import (MemoryPartition, answers, image_path, read_bytes, worked_example,
                          write_bytes)
from mpytest import MICROPYTHON, only_micropython, raises, tmpdir


def _copy_with(data, name="x.dawg"):
    path = tmpdir() + "/" + name
    write_bytes(path, data)
    return path


def test_worked_example_of_the_format_doc():
    lex = open_file(_copy_with(worked_example()))
    assert lex.format == (1, 0)
    assert (lex.language, lex.name, lex.version) == ("xx", "example", "1")
    assert lex.tiles == ["A", "B", "C"] and list(lex.blank_only) == [0, 0, 0]
    assert (lex.word_count, lex.arc_count, lex.node_count) == (3, 4, 3)
    assert (lex.shortest, lex.longest, lex.body_crc) == (1, 3, 0x0B5F776C)
    for word in ("AB", "ABC", "B"):
        assert lex.check(word) == VALID, word
    for word in ("A", "C", "BA", "BB", "AC", "ABB", "CA", ""):
        assert lex.check(word) == INVALID, word
    assert lex.check("ABCA") == TOO_LONG


def _agrees(lex, name):
    wrong = []
    for word, expected in answers(name):
        got = lex.check(word)
        if got != expected:
            wrong.append((word, expected, got))
    assert not wrong, wrong[:10]


def test_fixture_images_answer_as_the_packer_reader():
    for name in ("de", "es", "nb", "pl"):
        _agrees(open_file(image_path(name)), name)


def test_a_one_slot_cache_answers_the_same():
    lex = open_file(image_path("pl"), cache_bytes=64, block_size=32)
    assert len(lex._bufs) == 1
    _agrees(lex, "pl")
    assert lex.reads > 1000     # it really went back to the "flash" again and again


def test_block_sizes_do_not_change_answers():
    for block_size in (32, 128, 512, 1024):
        _agrees(open_file(image_path("pl"), cache_bytes=4096, block_size=block_size), "pl")


def test_tiles_blank_only_marks_and_multi_character_tiles():
    es = open_file(image_path("es"))
    assert "CH" in es.tiles and "LL" in es.tiles and "RR" in es.tiles and "Ñ" in es.tiles
    blank = [es.tiles[i] for i in range(len(es.tiles)) if es.blank_only[i]]
    assert blank == ["K", "W"]
    word = es.parse("CHILLARR")
    assert [es.tiles[i] for i in word] == ["CH", "I", "LL", "A", "RR"]
    assert es.parse("chi") == es.parse("CHI")
    assert es.parse("CH-") is None
    nb = open_file(image_path("nb"))
    assert [nb.tiles[i] for i in range(len(nb.tiles)) if nb.blank_only[i]] == ["Ä", "Ö", "Ü"]
    assert nb.shortest == 2
    assert nb.check(nb.tiles[0]) == INVALID     # one tile: shorter than the list covers


def test_lookup_takes_a_buffer_and_a_length():
    lex = open_file(image_path("de"))
    buf = bytearray(16)
    word = lex.parse("HAUSE")
    buf[0:len(word)] = word
    assert lex.lookup(buf, 5) == VALID
    assert lex.lookup(buf, 4) == VALID      # HAUS
    assert lex.lookup(buf, 3) == INVALID    # HAU
    assert lex.lookup(buf, 0) == INVALID
    assert lex.lookup(list(word)) == VALID
    assert lex.lookup(buf, lex.longest + 1) == TOO_LONG


def test_header_dict_for_the_host_tools():
    h = open_file(image_path("de")).header()
    assert h["language"] == "de" and h["name"] == "fixture-de" and h["version"] == "1"
    assert h["words"] == 13 and h["longest"] == 5 and "Ä" in h["tiles"]


def test_missing_image():
    e = raises(LexiconError, open_file, tmpdir() + "/none.dawg")
    assert e.kind == "missing"


def _kind(data):
    return raises(LexiconError, open_file, _copy_with(data)).kind


def test_damaged_images_are_refused_at_load():
    good = read_bytes(image_path("pl"))
    assert _kind(good[:-1]) == "damaged"                     # truncated
    assert _kind(good + b"\x00") == "damaged"                # trailing bytes
    assert _kind(good[:10]) == "damaged"                     # not even a prefix
    assert _kind(b"JUNK" + good[4:]) == "damaged"            # magic
    for pos in (20, 100, 850, len(good) // 2, len(good) - 1):
        flipped = bytearray(good)
        flipped[pos] ^= 0x10
        assert _kind(bytes(flipped)) == "damaged", pos      # header CRC or body CRC
    newer = bytearray(good)
    newer[4] = 2
    assert _kind(bytes(newer)) == "unsupported"


def test_unverified_damage_raises_instead_of_answering():
    data = bytearray(worked_example())
    data[-4] = 0x77                      # the root's first arc: an unused opcode
    lex = open_file(_copy_with(bytes(data)), verify=False)
    e = raises(LexiconError, lex.check, "AB")
    assert e.kind == "damaged"
    data[-4] = 0x02
    data[-2] = 0x10                      # the NEXT arc's target: an unused opcode
    lex = open_file(_copy_with(bytes(data)), verify=False)
    assert lex.check("B") == VALID
    assert raises(LexiconError, lex.check, "AB").kind == "damaged"


def test_raw_partition_source():
    data = read_bytes(image_path("pl"))
    part = MemoryPartition(data)
    lex = open_partition(part)
    _agrees(lex, "pl")
    blank = MemoryPartition(b"")
    assert raises(LexiconError, open_partition, blank).kind == "damaged"


def test_lookup_allocates_nothing():
    only_micropython("gc.mem_alloc is MicroPython's")
    lex = open_file(image_path("pl"), cache_bytes=512)      # small: misses happen too
    words = [lex.parse(w) for w, _ in answers("pl")[:300]]
    gc.collect()
    before = gc.mem_alloc()
    for word in words:
        lex.lookup(word)
    assert gc.mem_alloc() == before


def test_reader_ram_besides_the_cache_is_at_most_8_kb():
    only_micropython("gc.mem_alloc is MicroPython's")
    path = image_path("pl")
    gc.collect()
    before = gc.mem_alloc()
    lex = open_file(path, cache_bytes=4096)
    gc.collect()
    used = gc.mem_alloc() - before
    cache = len(lex._bufs) * (lex.block_size + 8)
    assert cache <= 4096
    assert used - cache <= 8192, (used, cache)
    assert MICROPYTHON
