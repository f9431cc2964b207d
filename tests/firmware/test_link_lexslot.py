# A word list written into a raw partition (as esptool does for clockctl flash-lexicon)
# and adopted over the link: LEX_SLOT names the partition not in use, LEX_ADOPT checks
# the image there in full and switches by one rename; what fails a check, or a game
# without force, leaves the list in use.  Runs under CPython and MicroPython.

import binascii
import json
import os

import sim_device

from app import open_lexicon
from lexicon import slots
from lexicon.reader import read_record
from lexicon_data import DATA, read_bytes, write_bytes
from link.handler import LinkHandler
from link.messages import ERROR, LEX_SLOT, LEX_ADOPT, REPLY
from mpytest import tmpdir

TABLE = ("nvs, data, nvs, 0x9000, 0x6000\n"
         "factory, app, factory, 0x10000, 0x1F0000\n"
         "lexa, data, 0x06, 0x200000, 0x10000\n"
         "lexb, data, 0x06, 0x210000, 0x10000\n"
         "vfs, data, fat, 0x220000, 0x1E0000\n")
PL = DATA + "/lexicon_pl.dawg"
DE = DATA + "/lexicon_de.dawg"


class Services:
    def __init__(self):
        self.changed = 0
        self.game = False

    def device_info(self):
        return {"device": "00aa", "firmware": "9.9"}

    def game_in_progress(self):
        return self.game

    def lexicon_changed(self):
        self.changed += 1


class Device:
    """A folder that is the device's flash (partitions) and its filesystem (cwd)."""

    def __init__(self, table=TABLE):
        self.old = os.getcwd()
        path = tmpdir()
        sim_device.set_device_dir(path)
        if table:
            with open(path + "/partitions.csv", "w") as f:
                f.write(table)
        os.chdir(path)

    def done(self):
        os.chdir(self.old)
        sim_device.set_device_dir(None)


def _esptool(label, image):
    """What esptool's write-flash leaves: the image at the partition's start."""
    write_bytes(sim_device.path_in_device("flash-%s.bin" % label), image)


def _adopt(h, label, image, force=False):
    crc = binascii.crc32(image) & 0xFFFFFFFF
    t, p = h.run(LEX_ADOPT, json.dumps({"slot": label, "size": len(image), "crc": crc,
                                        "force": force}).encode())
    return t, json.loads(p)


def _slot(h):
    t, p = h.run(LEX_SLOT, b"{}")
    return t, json.loads(p)


def test_the_free_partition_is_written_checked_and_switched_to():
    d = Device()
    try:
        pl = read_bytes(PL)
        write_bytes("lexicon.dawg", read_bytes(DE))
        s = Services()
        h = LinkHandler(s)
        t, r = _slot(h)
        assert t == LEX_SLOT | REPLY
        assert r == {"write": {"label": "lexa", "offset": 0x200000, "size": 0x10000},
                     "active": None}
        assert h.lexicon_info()["slot"] is None
        _esptool("lexa", pl)
        t, r = _adopt(h, "lexa", pl)
        assert t == LEX_ADOPT | REPLY, r
        assert r["lexicon"]["slot"] == "lexa" and r["lexicon"]["size"] == len(pl)
        assert slots.selected() == "lexa" and s.changed == 1
        # the runtime opens it by its header: the adopt's full check was recorded
        lex, problem = open_lexicon()
        assert problem is None and not lex.verified_now
        assert read_record("lexicon.ok") == lex.digest
        assert lex.check("ŻÓŁW") == 1
        lex.close()
        # the next list goes into lexb; lexa's stays in use until it is switched
        t, r = _slot(h)
        assert r["write"]["label"] == "lexb" and r["active"] == "lexa"
    finally:
        d.done()


def test_a_damaged_or_different_image_is_refused_and_the_list_in_use_stays():
    d = Device()
    try:
        pl = read_bytes(PL)
        h = LinkHandler(Services())
        bad = bytearray(pl)
        bad[len(bad) - 100] ^= 0x10                 # a page's byte
        _esptool("lexa", bytes(bad))
        t, r = _adopt(h, "lexa", pl)
        assert t == ERROR and r["code"] == "E_VERIFY", r
        assert "stays" in r["msg"]
        assert slots.selected() is None
        # an image other than the one announced
        _esptool("lexa", read_bytes(DE))
        t, r = _adopt(h, "lexa", pl)
        assert t == ERROR and r["code"] == "E_VERIFY", r
        # an erased partition (a write that never came)
        _esptool("lexa", b"\xff" * 64)
        t, r = _adopt(h, "lexa", pl)
        assert t == ERROR and r["code"] == "E_VERIFY", r
        assert slots.selected() is None
        # the partition in use is never the one written
        _esptool("lexa", pl)
        assert _adopt(h, "lexa", pl)[0] == LEX_ADOPT | REPLY
        t, r = _adopt(LinkHandler(Services()), "lexa", read_bytes(DE))
        assert t == ERROR and r["code"] == "E_SLOT", r
    finally:
        d.done()


def test_a_game_needs_force_and_force_keeps_the_game():
    d = Device()
    try:
        pl = read_bytes(PL)
        s = Services()
        s.game = True
        h = LinkHandler(s)
        _esptool("lexa", pl)
        t, r = _adopt(h, "lexa", pl)
        assert t == ERROR and r["code"] == "E_GAME", r
        assert slots.selected() is None and s.changed == 0
        t, r = _adopt(h, "lexa", pl, force=True)
        assert t == LEX_ADOPT | REPLY, r
        assert slots.selected() == "lexa" and s.changed == 1 and s.game
        # the reply was lost: asking again is answered, nothing changes
        t, r = _adopt(h, "lexa", pl, force=True)
        assert t == LEX_ADOPT | REPLY and s.changed == 1, r
    finally:
        d.done()


def test_a_clock_without_the_partitions_is_told_to_reflash():
    d = Device(table=None)              # MicroPython's default table
    try:
        h = LinkHandler(Services())
        t, r = _slot(h)
        assert t == ERROR and r["code"] == "E_SLOT"
        assert "reflash it with clockctl flash" in r["msg"]
        pl = read_bytes(PL)
        t, r = _adopt(h, "lexa", pl)
        assert t == ERROR and r["code"] == "E_SLOT"
    finally:
        d.done()


def test_a_provisioned_slot_is_checked_in_full_at_the_first_start():
    d = Device()
    try:
        _esptool("lexb", read_bytes(PL))
        slots.select("lexb")            # as clockctl flash leaves it
        lex, problem = open_lexicon()
        assert problem is None and lex.verified_now
        lex.close()
        lex, problem = open_lexicon()
        assert problem is None and not lex.verified_now
        lex.close()
        slots.select("lexa")            # erased: no list there
        assert open_lexicon() == (None, "damaged")
    finally:
        d.done()
