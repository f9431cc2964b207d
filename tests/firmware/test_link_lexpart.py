# push-lexicon into a word list partition (link/lexpart.py): the upload goes into the
# partition not in use, sector by sector; a restart resumes from the last read-back,
# rounded down to its sector start; the list in use is never written; LEX_COMMIT checks
# as LEX_ADOPT does and switches.  Runs under CPython and MicroPython.

import binascii
import json
import os

import sim_device

from app import open_lexicon
from lexicon import slots
from lexicon_data import DATA, read_bytes, write_bytes
from link import lexpart
from link import lexupload as upload_module
from link.handler import LinkHandler
from link.messages import ERROR, LEX_ADOPT, LEX_BEGIN, LEX_CHUNK, LEX_COMMIT, REPLY
from mpytest import raises, tmpdir

TABLE = ("nvs, data, nvs, 0x9000, 0x6000\n"
         "factory, app, factory, 0x10000, 0x1F0000\n"
         "lexa, data, 0x06, 0x200000, 0x10000\n"
         "lexb, data, 0x06, 0x210000, 0x10000\n"
         "vfs, data, fat, 0x220000, 0x1E0000\n")
PL = DATA + "/lexicon_pl.dawg"
DE = DATA + "/lexicon_de.dawg"
CHUNK = 700            # crosses sector boundaries inside chunks


class Services:
    def __init__(self):
        self.changed = 0

    def device_info(self):
        return {"device": "00aa", "firmware": "9.9"}

    def game_in_progress(self):
        return False

    def lexicon_changed(self):
        self.changed += 1


class Device:
    """A folder that is the device's flash (partitions) and its filesystem (cwd); the
    list in use is DE, adopted into lexa; read-backs every 5,000 bytes."""

    def __init__(self):
        self.old = os.getcwd()
        self.check = upload_module.CHECK_BYTES
        upload_module.CHECK_BYTES = 5000       # not a sector multiple
        path = tmpdir()
        sim_device.set_device_dir(path)
        with open(path + "/partitions.csv", "w") as f:
            f.write(TABLE)
        os.chdir(path)
        self.de = read_bytes(DE)
        write_bytes(sim_device.path_in_device("flash-lexa.bin"), self.de)
        crc = binascii.crc32(self.de) & 0xFFFFFFFF
        t, p = LinkHandler(Services()).run(LEX_ADOPT, json.dumps(
            {"slot": "lexa", "size": len(self.de), "crc": crc}).encode())
        assert t == LEX_ADOPT | REPLY, p
        # lexb holds bytes of an older upload: every sector must be erased before use
        write_bytes(sim_device.path_in_device("flash-lexb.bin"), b"\x00" * 0x10000)

    def lexa(self):
        return read_bytes(sim_device.path_in_device("flash-lexa.bin"))[:len(self.de)]

    def done(self):
        upload_module.CHECK_BYTES = self.check
        os.chdir(self.old)
        sim_device.set_device_dir(None)


def _u32(v):
    return bytes((v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >> 24) & 255))


def _begin(h, img, restart=False):
    crc = binascii.crc32(img) & 0xFFFFFFFF
    t, p = h.run(LEX_BEGIN, json.dumps({"size": len(img), "crc": crc,
                                        "restart": restart}).encode())
    assert t == LEX_BEGIN | REPLY, p
    return json.loads(p)


def _send(h, img, pos, end):
    while pos < end:
        piece = img[pos:min(pos + CHUNK, end)]
        msg = _u32(pos) + _u32(binascii.crc32(piece) & 0xFFFFFFFF) + b"\x00" + piece
        t, p = h.run(LEX_CHUNK, msg)
        assert t == LEX_CHUNK | REPLY, p
        pos += len(piece)


def _commit(h, img):
    crc = binascii.crc32(img) & 0xFFFFFFFF
    t, p = h.run(LEX_COMMIT, json.dumps({"size": len(img), "crc": crc}).encode())
    return t, json.loads(p)


def test_a_restart_resumes_from_the_sector_start_and_the_list_is_switched_to():
    d = Device()
    try:
        pl = read_bytes(PL)
        h = LinkHandler(Services())
        assert _begin(h, pl)["have"] == 0
        assert json.loads(read_bytes("lexicon.job"))["slot"] == "lexb"
        _send(h, pl, 0, 12000)          # read back at 5,600 and 11,200
        assert not os.listdir(".").count("lexicon.new")
        # a restart: the job names lexb and 11,200 bytes read back there
        s = Services()
        h = LinkHandler(s)
        r = _begin(h, pl)
        assert r["have"] == 8192 and r["crc"] == binascii.crc32(pl[:8192]) & 0xFFFFFFFF
        _send(h, pl, 8192, len(pl))
        assert slots.selected() == "lexa" and d.lexa() == d.de
        t, r = _commit(h, pl)
        assert t == LEX_COMMIT | REPLY, r
        assert r["lexicon"]["slot"] == "lexb" and r["lexicon"]["size"] == len(pl)
        assert slots.selected() == "lexb" and s.changed == 1
        assert not os.listdir(".").count("lexicon.job")
        assert read_bytes(sim_device.path_in_device("flash-lexb.bin"))[:len(pl)] == pl
        assert d.lexa() == d.de
        lex, problem = open_lexicon()
        assert problem is None and not lex.verified_now    # the commit's check recorded
        assert lex.check("ŻÓŁW") == 1
        lex.close()
        # the next push goes into lexa
        h = LinkHandler(Services())
        _begin(h, d.de)
        assert json.loads(read_bytes("lexicon.job"))["slot"] == "lexa"
    finally:
        d.done()


def _adopt(h, label, img):
    write_bytes(sim_device.path_in_device("flash-%s.bin" % label), img)   # esptool's write
    crc = binascii.crc32(img) & 0xFFFFFFFF
    t, p = h.run(LEX_ADOPT, json.dumps({"slot": label, "size": len(img), "crc": crc}).encode())
    assert t == LEX_ADOPT | REPLY, p


def test_a_job_whose_partition_came_into_use_is_begun_anew_in_the_other():
    d = Device()
    try:
        pl = read_bytes(PL)
        h = LinkHandler(Services())
        _begin(h, pl)
        _send(h, pl, 0, 6000)
        # then esptool wrote lexb, the chip restarted and adopted it (clockctl flash-lexicon)
        h = LinkHandler(Services())
        _adopt(h, "lexb", d.de)
        # the job on the disk names lexb, now in use: not resumed, a new one in lexa
        assert _begin(h, pl)["have"] == 0
        assert json.loads(read_bytes("lexicon.job"))["slot"] == "lexa"
        _send(h, pl, 0, len(pl))
        t, r = _commit(h, pl)
        assert t == LEX_COMMIT | REPLY and r["lexicon"]["slot"] == "lexa", r
        assert read_bytes(sim_device.path_in_device("flash-lexb.bin"))[:len(d.de)] == d.de
        # an upload into lexb ends when lexb is adopted: its next chunk writes nothing
        assert _begin(h, pl, restart=True)["have"] == 0
        _send(h, pl, 0, 6000)
        _adopt(h, "lexb", d.de)
        assert h.upload.slot() is None
        msg = pl[6000:6000 + CHUNK]
        t, p = h.run(LEX_CHUNK, _u32(6000) + _u32(binascii.crc32(msg) & 0xFFFFFFFF)
                     + b"\x00" + msg)
        assert t == ERROR and json.loads(p)["code"] == "E_STATE", p
        assert read_bytes(sim_device.path_in_device("flash-lexb.bin")) == d.de   # as esptool left it
    finally:
        d.done()


def test_a_damaged_upload_or_one_too_large_leaves_the_list_in_use():
    d = Device()
    try:
        pl = bytearray(read_bytes(PL))
        pl[len(pl) - 100] ^= 0x10                   # a page's byte
        h = LinkHandler(Services())
        _begin(h, pl)
        _send(h, pl, 0, len(pl))
        t, r = _commit(h, pl)
        assert t == ERROR and r["code"] == "E_VERIFY", r
        assert slots.selected() == "lexa" and d.lexa() == d.de
        assert not os.listdir(".").count("lexicon.job")
        big = b"\x00" * 0x10001
        crc = binascii.crc32(big) & 0xFFFFFFFF
        t, p = h.run(LEX_BEGIN, json.dumps({"size": len(big), "crc": crc}).encode())
        assert t == ERROR and json.loads(p)["code"] == "E_SPACE", p
        assert "the lexb partition holds 65536" in json.loads(p)["msg"]
        # the partition in use is never erased
        raises(OSError, lexpart.write, "lexa", slots.partition("lexa"), 0, b"x")
        assert d.lexa() == d.de
    finally:
        d.done()
