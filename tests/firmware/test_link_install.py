# Installing a word list: the full check runs once (upload or first start after
# flashing) and is recorded; opening at boot then reads the header only; a list of
# no words is refused and the old one stays.  Runs under CPython and MicroPython.

import binascii
import json
import os

from lexicon import LexiconError
from lexicon_data import DATA, answers, read_bytes, write_bytes
from lexicon import open_file
from lexicon.reader import read_record, write_record
from link.handler import LinkHandler
from link.messages import LEX_BEGIN, LEX_CHUNK, LEX_COMMIT, REPLY, ERROR
from mpytest import raises, tmpdir


LEXICON = "lexicon.dawg"
RECORD = "lexicon.ok"


def _open():
    return open_file(LEXICON, record=RECORD)      # as the runtime does at every start


class Services:
    def __init__(self):
        self.changed = 0

    def device_info(self):
        return {"device": "00aa", "firmware": "9.9"}

    def game_in_progress(self):
        return False

    def lexicon_changed(self):
        self.changed += 1


def _u32(v):
    return bytes((v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >> 24) & 255))


def _push(h, img):
    crc = binascii.crc32(img) & 0xFFFFFFFF
    t, p = h.run(LEX_BEGIN, json.dumps({"size": len(img), "crc": crc}).encode())
    assert t == LEX_BEGIN | REPLY, p
    pos = 0
    while pos < len(img):
        piece = img[pos:pos + 512]
        msg = _u32(pos) + _u32(binascii.crc32(piece) & 0xFFFFFFFF) + b"\x00" + piece
        t, p = h.run(LEX_CHUNK, msg)
        assert t == LEX_CHUNK | REPLY, p
        pos += len(piece)
    t, p = h.run(LEX_COMMIT, json.dumps({"size": len(img), "crc": crc}).encode())
    return t, json.loads(p)


class InDir:
    def __init__(self):
        self.old = os.getcwd()
        os.chdir(tmpdir())

    def done(self):
        os.chdir(self.old)


def test_first_start_checks_in_full_once_then_reads_the_header_and_resident_pages():
    d = InDir()
    try:
        write_bytes(LEXICON, read_bytes(DATA + "/lexicon_pl.dawg"))   # as flashed
        assert read_record(RECORD) is None
        lex = _open()
        assert lex.verified_now and lex.reads > lex.pages
        assert read_record(RECORD) == lex.digest
        lex.close()
        again = _open()            # the next start
        # the prefix, the header and the pages the header names resident
        assert not again.verified_now and again.reads == 2 + len(again.resident_pages)
        assert again.check("ŻÓŁW") == 1
        again.close()
    finally:
        d.done()


def test_an_upload_is_checked_once_and_recorded():
    d = InDir()
    try:
        write_bytes(LEXICON, read_bytes(DATA + "/link_old.dawg"))
        write_record(RECORD, "old digest")
        h = LinkHandler(Services(), chunk=512)
        t, c = _push(h, read_bytes(DATA + "/lexicon_pl.dawg"))
        assert t == LEX_COMMIT | REPLY and c["lexicon"]["words"] == 3000, c
        lex = _open()              # what the runtime does after the swap
        assert not lex.verified_now and lex.reads == 2 + len(lex.resident_pages)
        lex.close()
    finally:
        d.done()


def test_a_list_of_no_words_is_refused_and_the_old_list_stays():
    d = InDir()
    try:
        old = read_bytes(DATA + "/link_old.dawg")
        write_bytes(LEXICON, old)
        s = Services()
        h = LinkHandler(s, chunk=512)
        t, e = _push(h, read_bytes(DATA + "/lexicon_empty.dawg"))
        assert t == ERROR and e["code"] == "E_VERIFY"
        assert e["msg"] == "image rejected: the word list holds no words", e
        assert read_bytes(LEXICON) == old and s.changed == 0
        assert raises(OSError, os.stat, "lexicon.new")
        # and a list of no words put there some other way is not opened
        write_bytes(LEXICON, read_bytes(DATA + "/lexicon_empty.dawg"))
        e = raises(LexiconError, _open)
        assert e.kind == "damaged" and "no words" in str(e)
    finally:
        d.done()


def test_damage_in_a_resident_page_found_at_a_start_drops_the_record():
    d = InDir()
    try:
        data = bytearray(read_bytes(DATA + "/lexicon_pl.dawg"))
        write_bytes(LEXICON, bytes(data))
        lex = _open()              # checked and recorded
        page = lex.resident_pages[0]
        data[lex.body_offset + page * (lex.page_size + 4) + 10] ^= 0x01
        lex.close()
        write_bytes(LEXICON, bytes(data))
        assert raises(LexiconError, _open).kind == "damaged"    # read at opening
        assert read_record(RECORD) is None   # the next start checks everything
    finally:
        d.done()


def test_damage_found_by_a_lookup_drops_the_record():
    d = InDir()
    try:
        data = bytearray(read_bytes(DATA + "/lexicon_pl.dawg"))
        write_bytes(LEXICON, bytes(data))
        _open().close()            # checked and recorded
        digest = read_record(RECORD)
        lex = _open()
        # the flash goes bad after the check, in a page a lookup reads (not resident)
        page = 0
        while page in lex.resident_pages:
            page += 1
        # (past the first 12 bytes, which the check of the page before covers too)
        data[lex.body_offset + page * (lex.page_size + 4) + 100] ^= 0x01
        lex.close()
        write_bytes(LEXICON, bytes(data))
        lex = _open()              # the header is fine: no full check
        assert not lex.verified_now and read_record(RECORD) == digest
        found = None
        for word, _ in answers("pl"):
            try:
                lex.check(word)
            except LexiconError as e:
                found = e
                break
        assert found is not None and found.kind == "damaged"
        assert read_record(RECORD) is None   # the next start checks everything
        lex.close()
        assert raises(LexiconError, _open).kind == "damaged"
    finally:
        d.done()
