# The full check of a word list (lexicon/check.py), run under CPython and under
# MicroPython: a header edited with its CRC recomputed passes every checksum, so the
# check must find that it does not fit the body, or the edit must change no answer.
# mpytest-heapsize: 8M
import binascii
import gc
import os
import struct
import sys

from lexicon import LexiconError, open_file
from lexicon.check import slots_for
from lexicon.reader import open_source
from lexicon.sources import FileSource
from lexicon_data import answers, image_path, read_bytes, write_bytes
from mpytest import MICROPYTHON, raises, skip, tmpdir


# The tests that take more than a few seconds: left out of `python3 -m tests --fast`
# (tests/conftest.py reads this; a firmware test module cannot import pytest).
SLOW = ("test_header_edits_are_refused_or_change_no_answer",)


def _with_crc(data):
    """The header CRC recomputed where the (maybe edited) header length puts it."""
    hlen = data[6] | data[7] << 8
    if 8 <= hlen <= len(data):
        struct.pack_into("<I", data, hlen - 4, binascii.crc32(bytes(data[:hlen - 4])) & 0xFFFFFFFF)
    return data


def _queries(lex, name, most=600):
    words = []
    for word, _ in answers(name)[:most]:
        tiles = lex.parse(word)
        if tiles is not None:
            words.append(tiles)
    return words


def _sweep(name, edits, stride=1):
    """Every header byte but the CRC's, changed by each of `edits` (added mod 256), the
    header CRC recomputed: each image is refused when opened, or it answers every query
    (tile by tile, as the terminal asks) as the unedited one and shows the same tiles.
    Returns (refused, unchanged)."""
    good = read_bytes(image_path(name))
    ref = open_file(image_path(name))
    queries = _queries(ref, name)
    want = [ref.lookup(q) for q in queries]
    hlen = good[6] | good[7] << 8
    path = tmpdir() + "/edited.dawg"
    refused = unchanged = 0
    wrong = []
    for at in range(0, hlen - 4, stride):
        for d in edits:
            gc.collect()            # the images one after another, in one piece
            data = bytearray(good)
            data[at] = (data[at] + d) & 0xFF
            write_bytes(path, _with_crc(data))
            try:
                lex = open_file(path)
            except LexiconError as e:
                assert e.kind in ("damaged", "unsupported"), e
                refused += 1
                continue
            try:
                got = [lex.lookup(q) for q in queries]
            except LexiconError:
                got = None
            if got != want or lex.tiles != ref.tiles or lex.longest != ref.longest:
                wrong.append((at, d))
            else:
                unchanged += 1
            lex.close()
    assert not wrong, "edits that changed answers unnoticed: %r" % wrong[:20]
    return refused, unchanged


# The sweep is the same firmware code under every interpreter.  The suite runs a share
# of it: on the 32-bit MicroPython (the chip's object sizes and small ints) every header
# byte of the German list (+1), on the 64-bit one every 3rd, and every 8th of the Polish
# one (+1, the two-tile table) on both; under CPython, which runs the check several times
# slower, every 10th byte of the German list.  TC_SWEEP=full runs the whole sweep (de +1,
# -1, +0x80; es +1, -1; pl +1, every byte) under each interpreter:
#   TC_SWEEP=full .venv/bin/python -m pytest tests/firmware/test_lexicon_check.py
FULL = os.getenv("TC_SWEEP") == "full"
CHIP_SIZED = MICROPYTHON and sys.maxsize < 1 << 32


def test_header_edits_are_refused_or_change_no_answer():
    if FULL:
        sweeps = (("de", (1, 255, 0x80), 1), ("es", (1, 255), 1))
    else:
        sweeps = (("de", (1,), 1 if CHIP_SIZED else 3 if MICROPYTHON else 10),)
    for name, edits, stride in sweeps:
        refused, unchanged = _sweep(name, edits, stride)
        assert refused > unchanged > 0, (name, refused, unchanged)


def test_header_edits_of_a_list_with_the_two_tile_table():
    if not FULL and not MICROPYTHON:
        skip("the two-tile table's edits: under MicroPython (the same firmware code)")
    refused, unchanged = _sweep("pl", (1,), 1 if FULL else 8)
    assert refused > unchanged > 0


def test_a_header_whose_length_was_lowered_is_refused_as_damaged():
    # The tables then run past the shorter header: the reader used to raise ValueError.
    for name in ("de", "pl"):
        data = bytearray(read_bytes(image_path(name)))
        data[7] -= 1
        path = tmpdir() + "/short.dawg"
        write_bytes(path, _with_crc(data))
        e = raises(LexiconError, open_file, path)
        assert e.kind == "damaged"


def test_check_api_returns_the_checked_list():
    lex = open_source(FileSource(image_path("pl")), resident_bytes=0)
    assert lex.verified_now and lex.digest == open_file(image_path("pl")).digest
    assert lex.check("żółw") == 1
    lex.close()
    data = bytearray(read_bytes(image_path("pl")))
    data[20] += 1                   # one word more than the graph holds
    path = tmpdir() + "/count.dawg"
    write_bytes(path, _with_crc(data))
    e = raises(LexiconError, open_source, FileSource(path))
    assert e.kind == "damaged" and "words" in str(e)


def test_a_tile_renamed_is_refused():
    good = read_bytes(image_path("de"))
    hlen = good[6] | good[7] << 8
    at = good.rfind(b"\x00\x01A\x01a", 0, hlen)     # tile A, lower-case a
    for edit in (b"\x00\x01B\x01a", b"\x00\x01A\x01b", b"\x00\x01B\x01b"):
        data = bytearray(good)
        data[at:at + 5] = edit
        path = tmpdir() + "/tile.dawg"
        write_bytes(path, _with_crc(data))
        e = raises(LexiconError, open_file, path)      # B twice, or A shown as b
        assert e.kind == "damaged", edit


def test_the_check_keeps_a_bounded_number_of_nodes():
    assert slots_for(35, 65536) == 256
    assert slots_for(35, 16384) == 64
    assert slots_for(250, 1000) == 4           # the least it works with
    lex = open_file(image_path("es"), verify=False)
    from lexicon.check import steps

    done = [item for item in steps(lex, ram=0)]
    assert done[-1][0] == done[-1][1]
