# The MicroPython reader of the word graph image (docs/wordlist-format.md),
# run under CPython and under MicroPython.
import gc

from lexicon import INVALID, TOO_LONG, VALID, LexiconError, open_file, open_partition
from lexicon.reader import Lexicon
from lexicon.sources import FileSource
from lexicon_data import (MemoryPartition, answers, image_path, read_bytes, worked_example,
                          write_bytes)
from mpytest import MICROPYTHON, only_micropython, raises, tmpdir


# The tests that take more than a few seconds: left out of `python3 -m tests --fast`
# (tests/conftest.py reads this; a firmware test module cannot import pytest).
SLOW = ("test_cache_sizes_do_not_change_answers", "test_resident_pages_are_read_at_open_and_never_again")


def _copy_with(data, name="x.dawg"):
    path = tmpdir() + "/" + name
    write_bytes(path, data)
    return path


def test_worked_example_of_the_format_doc():
    lex = open_file(_copy_with(worked_example()))
    assert lex.format == (3, 0)
    assert (lex.language, lex.name, lex.version) == ("xx", "example", "1")
    assert lex.tiles == ["A", "B", "C"] and list(lex.blank_only) == [0, 0, 0]
    h = lex.header()
    assert (lex.word_count, h["arcs"], h["nodes"], h["jumps"]) == (3, 4, 3, 0)
    assert (lex.shortest, lex.longest, lex.body_crc) == (1, 3, 0x81E09C33)
    for word in ("AB", "ABC", "B", "ab", "abc"):
        assert lex.check(word) == VALID, word
    for word in ("A", "C", "BA", "BB", "AC", "ABB", "CA", ""):
        assert lex.check(word) == INVALID, word
    assert lex.check("ABCA") == TOO_LONG


# Under CPython every configuration of a test is checked on every word.  Under MicroPython,
# whose interpreter is what those runs test (the firmware code is the same), each
# configuration takes its own share of the words in turn, so that all of them are still
# looked up and the file runs in a quarter of the time.
SHARES = 4 if MICROPYTHON else 1
_turn = [0]


def _share(pairs):
    if SHARES == 1:
        return pairs
    _turn[0] += 1
    return pairs[_turn[0] % SHARES::SHARES]


def _agrees(lex, name):
    wrong = []
    for word, expected in _share(answers(name)):
        got = lex.check(word)
        if got != expected:
            wrong.append((word, expected, got))
    assert not wrong, wrong[:10]


def test_fixture_images_answer_as_the_packer_reader():
    for name in ("de", "es", "nb", "pl"):
        _agrees(open_file(image_path(name)), name)


def test_the_polish_fixture_has_what_real_lists_have():
    lex = open_file(image_path("pl"))
    assert lex.two_tile             # the two-tile table
    assert lex.header()["jumps"] > 0      # nodes that continue in others
    assert lex.pages > 30          # more pages than the cache holds


def test_a_one_slot_cache_answers_the_same():
    lex = open_file(image_path("pl"), cache_bytes=64, resident_bytes=0)
    assert len(lex._bufs) == 1
    _agrees(lex, "pl")
    assert lex.reads > 1000     # it really went back to the "flash" again and again


def test_cache_sizes_do_not_change_answers():
    for cache in (600, 1500, 4096, 16384):
        for resident in (0, 1000, -1):
            _agrees(open_file(image_path("pl"), cache_bytes=cache, resident_bytes=resident),
                    "pl")


def test_pages_read_again_stay_in_the_cache():
    # The pages of one long word, read once, must not push out the pages every
    # word needs (read again and again): a segmented LRU.
    lex = open_file(image_path("pl"), cache_bytes=4096, resident_bytes=0)
    slots = len(lex._bufs)
    lex._fetch(0)
    lex._fetch(0)               # page 0 is hot now
    before = lex.reads
    for page in range(1, 3 * slots):
        lex._fetch(page)        # read once each
    assert lex.reads - before == 3 * slots - 1
    lex._fetch(0)
    assert lex.reads - before == 3 * slots - 1, "page 0 was pushed out"
    reads = lex.reads
    for page in range(3 * slots, 3 * slots + slots):
        lex._fetch(page)
        lex._fetch(page)        # all hot: the oldest hot page cools down and goes
    lex._fetch(0)
    assert lex.reads == reads + slots + 1


def test_lower_case_letters_of_every_alphabet():
    pl = open_file(image_path("pl"))
    for word in ("żółw", "ŻÓŁW", "Żółw", "źdźbło", "gęś", "kot"):
        assert pl.check(word) == VALID, word
    assert pl.check("żółwie") == INVALID
    de = open_file(image_path("de"))
    for word in ("ärger", "ÄRGER", "übel", "züge"):
        assert de.check(word) == VALID, word


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
    pl = open_file(image_path("pl"))        # through the two-tile table
    word = pl.parse("KOTY")
    assert pl.lookup(word) == VALID and pl.lookup(word, 3) == VALID
    assert pl.lookup(word, 2) == INVALID
    assert pl.lookup(bytes([200, 200, 1])) == INVALID     # not tiles at all


def test_header_dict_for_the_host_tools():
    h = open_file(image_path("de")).header()
    assert h["language"] == "de" and h["name"] == "fixture-de" and h["version"] == "1"
    assert h["words"] == 13 and h["longest"] == 5 and "Ä" in h["tiles"]


def test_missing_image():
    e = raises(LexiconError, open_file, tmpdir() + "/none.dawg")
    assert e.kind == "missing"


def _kind(data, **kw):
    return raises(LexiconError, open_file, _copy_with(data), **kw).kind


def test_damaged_images_are_refused_at_load():
    good = read_bytes(image_path("pl"))
    assert _kind(good[:-1]) == "damaged"                     # truncated
    assert _kind(good + b"\x00") == "damaged"                # trailing bytes
    assert _kind(good[:10]) == "damaged"                     # not even a prefix
    assert _kind(b"JUNK" + good[4:]) == "damaged"            # magic
    for pos in (20, 100, 400, len(good) // 2, len(good) - 1):
        flipped = bytearray(good)
        flipped[pos] ^= 0x10
        assert _kind(bytes(flipped)) == "damaged", pos      # header CRC or the full check
    newer = bytearray(good)
    newer[4] = 4
    assert _kind(bytes(newer)) == "unsupported"
    older = bytearray(good)
    older[4] = 2                # before the resident pages: packed again, not misread
    assert _kind(bytes(older)) == "unsupported"
    e = raises(LexiconError, open_file, _copy_with(bytes(older)))
    assert "format 2." in str(e)


def test_an_image_without_words_is_refused():
    e = raises(LexiconError, open_file, image_path("empty"))
    assert e.kind == "damaged" and "no words" in str(e)


def test_opening_with_the_recorded_digest_reads_the_header_only():
    path = image_path("pl")
    first = open_file(path)
    assert first.verified_now and first.reads > first.pages    # the full check
    again = open_file(path, verified=first.digest, resident_bytes=0)
    assert not again.verified_now and again.reads == 2            # prefix and header
    other = open_file(path, verified="00000000 1")
    assert other.verified_now


def test_damage_in_a_page_is_found_when_a_lookup_reads_it():
    good = read_bytes(image_path("pl"))
    lex = open_file(image_path("pl"))
    digest = lex.digest
    start = lex.body_offset
    page = lex.page_size + 4                    # a page and its check
    last = lex.pages - 1
    for target in (start + 2 * page + 17, start + 30 * page + 200, start + last * page):
        bad = bytearray(good)
        bad[target] ^= 0x04
        path = _copy_with(bytes(bad))
        record = path + ".ok"
        write_bytes(record, digest.encode())       # checked in full when it was installed
        lex = open_file(path, record=record, resident_bytes=0)    # a start: no full check
        assert not lex.verified_now
        wrong = 0
        damaged = 0
        for word, expected in _share(answers("pl")):
            try:
                got = lex.check(word)
            except LexiconError as e:
                assert e.kind == "damaged"
                damaged += 1
                continue
            if got != expected:
                wrong += 1
        assert wrong == 0, target            # never answered from the damaged page
        assert damaged > 0, target
        assert raises(OSError, read_bytes, record)          # the next start checks it all


def test_raw_partition_source():
    data = read_bytes(image_path("pl"))
    part = MemoryPartition(data)
    lex = open_partition(part)
    _agrees(lex, "pl")
    digest = lex.digest
    part.reads = 0
    lex = open_partition(part, verified=digest)
    assert part.reads == 2 + len(lex._resident)       # the header, the resident pages
    _agrees(lex, "pl")
    blank = MemoryPartition(b"")
    assert raises(LexiconError, open_partition, blank).kind == "damaged"


def test_lookup_allocates_nothing():
    only_micropython("gc.mem_alloc is MicroPython's")
    words = None
    for resident in (0, -1):
        lex = None
        gc.collect()
        lex = open_file(image_path("pl"), cache_bytes=600,      # small: misses happen too
                        resident_bytes=resident)
        if words is None:
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
    lex = Lexicon(FileSource(path), 4096, verify=False, resident_bytes=0)
    gc.collect()
    used = gc.mem_alloc() - before
    cache = len(lex._bufs) * len(lex._bufs[0])
    assert cache <= 4096
    assert used - cache <= 8192, (used, cache)
    # the resident pages cost their slots and little more (object headers, the
    # page -> slot dict): measured against the same reader without them
    budget = 8 * len(lex._bufs[0])
    lex.close()
    got = []
    for resident in (0, budget):
        lex = None
        gc.collect()
        before = gc.mem_alloc()
        lex = Lexicon(FileSource(path), 4096, verify=False, resident_bytes=resident)
        gc.collect()
        got.append(gc.mem_alloc() - before)
        lex.close()
    assert len(lex._resident) == 8
    assert budget <= got[1] - got[0] <= budget + 8 * 100, (budget, got)
    assert MICROPYTHON


def lex_slot(path):
    lex = open_file(path, verify=False, resident_bytes=0)
    lex.close()
    return lex._bufs[0]


def test_resident_pages_are_read_at_open_and_never_again():
    path = image_path("pl")
    digest = open_file(path).digest
    named = open_file(path, verified=digest, resident_bytes=0).resident_pages
    assert len(named) == 32 and len(set(named)) == 32 and max(named) < 67
    slot = len(lex_slot(path))
    for budget, count in ((-1, 32), (3 * slot, 3), (3 * slot - 1, 2), (0, 0)):
        lex = open_file(path, verified=digest, resident_bytes=budget)
        assert sorted(lex._resident) == sorted(named[:count]), budget    # most read first
        assert lex.reads == 2 + count       # the prefix, the header, the resident pages
        before = lex.reads
        for page in named[:count]:
            lex._fetch(page)
        assert lex.reads == before          # served from RAM
        _agrees(lex, "pl")
    # every word reads fewer pages with them
    reads = []
    words = _share(answers("pl"))            # the same words with and without them
    for budget in (0, -1):
        lex = open_file(path, verified=digest, resident_bytes=budget)
        before = lex.reads
        assert [lex.check(w) for w, _ in words] == [e for _, e in words]
        reads.append(lex.reads - before)
    assert reads[1] < reads[0]


def test_a_damaged_resident_page_is_found_at_open():
    good = read_bytes(image_path("pl"))
    lex = open_file(image_path("pl"), resident_bytes=0)
    digest = lex.digest
    page = lex.resident_pages[0]
    bad = bytearray(good)
    bad[lex.body_offset + page * (lex.page_size + 4) + 40] ^= 0x01
    path = _copy_with(bytes(bad))
    e = raises(LexiconError, open_file, path, verified=digest)
    assert e.kind == "damaged" and ("page %d" % page) in str(e)
    # a reader that keeps none of them finds it when a lookup reads that page
    assert open_file(path, verified=digest, resident_bytes=0).digest == digest


def test_resident_pages_in_the_header_are_checked():
    good = read_bytes(image_path("de"))         # one page, named resident
    hlen = good[6] | good[7] << 8
    assert good[hlen - 9:hlen - 4] == bytes([1, 0, 0, 0, 0])
    for table in (bytes([1, 1, 0, 0, 0]),):      # a page past the body
        assert _kind(_with_header_tail(good, table)) == "damaged"
    # a count the header does not hold
    assert _kind(_with_header_tail(good, bytes([2, 0, 0, 0, 0]))) == "damaged"


def _with_header_tail(image, table):
    # the image with the last len(table) bytes before the header CRC replaced, the CRC
    # recomputed: what a crafted header looks like
    import binascii

    hlen = image[6] | image[7] << 8
    head = bytearray(image[:hlen])
    head[hlen - 4 - len(table):hlen - 4] = table
    crc = binascii.crc32(bytes(head[:hlen - 4])) & 0xFFFFFFFF
    for i in range(4):
        head[hlen - 4 + i] = (crc >> (8 * i)) & 0xFF
    return bytes(head) + image[hlen:]
