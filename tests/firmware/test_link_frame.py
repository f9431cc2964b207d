# Link framing, dispatch and word list transfer: runs under CPython and MicroPython.

import binascii
import json
import os

from lexicon_data import DATA, read_bytes
from mpytest import raises, tmpdir

from link import frame
from link.handler import LinkHandler
from link.messages import (INFO, CONFIG_GET, CONFIG_SET, LOG_READ, LEX_BEGIN, LEX_CHUNK,
                           LEX_COMMIT, LEX_ABORT, REPLY, ERROR)
from link.server import Server


def test_every_byte_value_survives_and_no_control_byte_is_sent():
    data = bytes(range(256)) * 2
    wire = frame.encode(0x11, 513, data)
    assert wire[0] == frame.FLAG and wire[-1] == frame.FLAG
    for b in wire[1:-1]:
        assert b >= 0x20 and b not in (0x7E, 0x7F)
    r = frame.Decoder().feed(wire)
    assert r == [(frame.OK, 1, 0x11, 513, data)]


def test_body_layout_is_version_type_seq_length_payload_crc():
    b = frame.body(0x02, 0x1234, b"ab")
    assert bytes(b[:6]) == bytes([1, 0x02, 0x34, 0x12, 2, 0])
    assert bytes(b[6:8]) == b"ab"
    c = binascii.crc32(bytes(b[:8])) & 0xFFFFFFFF
    assert bytes(b[8:]) == bytes([c & 255, (c >> 8) & 255, (c >> 16) & 255, c >> 24])


def test_garbage_and_repl_noise_between_frames_are_skipped():
    d = frame.Decoder()
    stream = (b"MicroPython v1.24.1\r\n>>> \x03\x04garbage" + frame.encode(1, 1)
              + b"Traceback (most recent call last):\r\n" + frame.encode(2, 2, b"x"))
    good = [r for r in d.feed(stream) if r[0] == frame.OK]
    assert [(r[2], r[3], r[4]) for r in good] == [(1, 1, b""), (2, 2, b"x")]
    assert d.garbage > 30


def test_byte_by_byte_feeding_gives_the_same_frames():
    d = frame.Decoder()
    wire = b"\x00\x01noise" + frame.encode(3, 9, bytes(range(40))) + frame.encode(4, 10)
    got = []
    for i in range(len(wire)):
        got += [r for r in d.feed(wire[i:i + 1]) if r[0] == frame.OK]
    assert [(r[2], r[3]) for r in got] == [(3, 9), (4, 10)]


def test_damaged_truncated_and_foreign_frames_are_classified():
    wire = bytearray(frame.encode(1, 5, b"hello"))
    wire[8] ^= 0x01
    assert frame.Decoder().feed(bytes(wire))[0][0] == frame.BAD_CRC
    cut = frame.encode(1, 5, b"hello world")
    d = frame.Decoder()
    assert d.feed(cut[:-6] + b"\x7e")[0][0] in (frame.BAD_CRC, frame.GARBAGE)
    # the next frame is fine again
    assert d.feed(frame.encode(1, 6))[-1][0] == frame.OK
    body = bytearray(frame.body(1, 7))
    body[0] = 2
    c = binascii.crc32(bytes(body[:-4])) & 0xFFFFFFFF
    body[-4:] = bytes([c & 255, (c >> 8) & 255, (c >> 16) & 255, c >> 24])
    r = frame.Decoder().feed(b"\x7e" + bytes(frame.escape(body)) + b"\x7e")
    assert r[0][0] == frame.BAD_VERSION and r[0][1] == 2 and r[0][3] == 7
    assert frame.unescape(b"ab\x7d") is None
    assert frame.unescape(b"\x7dA") is None      # 'A' ^ 0x20 needs no escape


def test_an_overlong_piece_is_dropped_up_to_the_next_flag():
    d = frame.Decoder(max_raw=64)
    r = d.feed(b"\x7e" + b"z" * 500 + frame.encode(1, 3))
    assert [x[3] for x in r if x[0] == frame.OK] == [3]


class Services:
    def __init__(self, folder):
        self.folder = folder
        self.config = {"lang": "de"}
        self.game = False
        self.changed = 0
        self.released = 0

    def device_info(self):
        return {"device": "00aa", "firmware": "9.9"}

    def get_config(self):
        return dict(self.config)

    def set_config(self, changes):
        if changes.get("lang") not in ("de", "en", "pl", "nb"):
            return False, "lang: unknown language"
        self.config.update(changes)
        return True, ""

    def game_in_progress(self):
        return self.game

    def read_log(self, name, offset, size):
        if name != "games":
            raise KeyError(name)
        data = b"".join(b'{"n": %d}\n' % i for i in range(100))
        return data[offset:offset + size]

    def release_lexicon(self):
        self.released += 1

    def lexicon_changed(self):
        self.changed += 1


def _u32(v):
    return bytes((v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >> 24) & 255))


def _image(name=b"list"):
    # Word list images the packer built (tests/host/lexicon_fixtures.py): "list",
    # "old" and "new" (the largest), each with its name as the list name.
    return read_bytes(DATA + "/link_" + name.decode() + ".dawg")


def _reply(h, kind, payload=b""):
    return h.run(kind, payload)


def _json_reply(h, kind, obj=None):
    t, p = h.run(kind, b"" if obj is None else json.dumps(obj).encode())
    return t, json.loads(p)


def _send(h, img, start=0, chunk=512, k=0):
    have = start
    while have < len(img):
        data = img[have:have + chunk]
        rot = bytes([(b + k) & 255 for b in data])
        t, p = h.run(LEX_CHUNK, _u32(have) + _u32(binascii.crc32(data) & 0xFFFFFFFF)
                     + bytes([k]) + rot)
        assert t == LEX_CHUNK | REPLY, p
        have = p[0] | (p[1] << 8) | (p[2] << 16) | (p[3] << 24)
    return have


class InDir:
    def __init__(self):
        self.old = os.getcwd()
        self.path = tmpdir()
        os.chdir(self.path)

    def done(self):
        os.chdir(self.old)


def test_info_config_and_logs():
    d = InDir()
    try:
        s = Services(d.path)
        h = LinkHandler(s)
        t, info = _json_reply(h, INFO)
        assert t == INFO | REPLY
        assert info["device"] == "00aa" and info["proto"] == 1 and info["lexicon"] is None
        assert info["game"] is False
        assert _json_reply(h, CONFIG_SET, {"lang": "pl"})[1]["ok"] is True
        t, err = _json_reply(h, CONFIG_SET, {"lang": "xx"})
        assert t == ERROR and err["code"] == "E_CONFIG"
        assert _json_reply(h, CONFIG_GET)[1] == {"lang": "pl"}
        t, p = h.run(LOG_READ, b'{"name": "games", "offset": 9}')
        assert t == LOG_READ | REPLY and p[:4] == _u32(9) and p[4:].startswith(b'{"n": 1}')
        t, err = _json_reply(h, LOG_READ, {"name": "secrets", "offset": 0})
        assert err["code"] == "E_LOG"
        t, err = _json_reply(h, 0x55)
        assert t == ERROR and err["code"] == "E_TYPE"
        t, err = _json_reply(h, LEX_CHUNK)
        assert err["code"] == "E_STATE"
        t, p = h.run(CONFIG_SET, b"{not json")
        assert json.loads(p)["code"] == "E_ARG"
    finally:
        d.done()


def test_transfer_verify_and_swap():
    d = InDir()
    try:
        s = Services(d.path)
        old = _image(b"old")
        with open("lexicon.dawg", "wb") as f:
            f.write(old)
        img = _image(b"new")
        h = LinkHandler(s, chunk=512)
        crc = binascii.crc32(img) & 0xFFFFFFFF
        t, b = _json_reply(h, LEX_BEGIN, {"size": len(img), "crc": crc})
        assert t == LEX_BEGIN | REPLY and b["have"] == 0 and b["chunk"] == 512
        assert _send(h, img, k=77) == len(img)
        assert h.progress == ("receive", len(img), len(img))
        with open("lexicon.dawg", "rb") as f:
            assert f.read() == old   # nothing swapped before the commit
        t, c = _json_reply(h, LEX_COMMIT, {"size": len(img), "crc": crc})
        assert t == LEX_COMMIT | REPLY and c["lexicon"]["name"] == "new", c
        with open("lexicon.dawg", "rb") as f:
            assert f.read() == img
        assert s.changed == 1 and s.released == 1 and h.progress[0] == "done"
        # A repeated commit (its reply was lost) is answered, not redone.
        t, c = _json_reply(h, LEX_COMMIT, {"size": len(img), "crc": crc})
        assert t == LEX_COMMIT | REPLY and s.changed == 1
    finally:
        d.done()


def test_repeats_and_gaps_are_answered_with_the_position():
    d = InDir()
    try:
        img = _image()
        h = LinkHandler(Services(d.path), chunk=256)
        crc = binascii.crc32(img) & 0xFFFFFFFF
        _json_reply(h, LEX_BEGIN, {"size": len(img), "crc": crc})
        piece = img[:256]
        msg = _u32(0) + _u32(binascii.crc32(piece) & 0xFFFFFFFF) + b"\x00" + piece
        assert h.run(LEX_CHUNK, msg)[1] == _u32(256)
        assert h.run(LEX_CHUNK, msg)[1] == _u32(256)     # repeat
        far = img[1024:1280]
        gap = _u32(1024) + _u32(binascii.crc32(far) & 0xFFFFFFFF) + b"\x00" + far
        assert h.run(LEX_CHUNK, gap)[1] == _u32(256)     # gap
        bad = _u32(256) + _u32(1) + b"\x00" + img[256:512]
        t, p = h.run(LEX_CHUNK, bad)
        assert t == ERROR and json.loads(p)["code"] == "E_CHUNK"
        big = _u32(256) + _u32(0) + b"\x00" + bytes(300)
        assert json.loads(h.run(LEX_CHUNK, big)[1])["code"] == "E_ARG"
        # Resume in the same session: BEGIN again gives the position and its CRC.
        t, b = _json_reply(h, LEX_BEGIN, {"size": len(img), "crc": crc})
        assert b["have"] == 256 and b["crc"] == binascii.crc32(piece) & 0xFFFFFFFF
        t, p = h.run(LEX_ABORT, b"")
        assert t == LEX_ABORT | REPLY
        assert raises(OSError, os.stat, "lexicon.new")
    finally:
        d.done()


def test_resume_after_restart_reads_the_partial_file():
    d = InDir()
    try:
        img = _image()
        crc = binascii.crc32(img) & 0xFFFFFFFF
        import link.lexupload as upload_module

        check = upload_module.CHECK_BYTES
        upload_module.CHECK_BYTES = 512     # synced and read back every 512 bytes
        h = LinkHandler(Services(d.path), chunk=256)
        _json_reply(h, LEX_BEGIN, {"size": len(img), "crc": crc})
        _send(h, img[:1024 + 256], chunk=256)
        h.upload._close_new()                # what the flash holds when the power goes
        upload_module.CHECK_BYTES = check
        h2 = LinkHandler(Services(d.path), chunk=256)   # the device rebooted
        t, b = _json_reply(h2, LEX_BEGIN, {"size": len(img), "crc": crc})
        # It resumes from the last synced and checked byte: the last chunk comes again.
        assert b["have"] >= 1024 and b["crc"] == binascii.crc32(img[:b["have"]]) & 0xFFFFFFFF
        if b["have"] > 1024:
            assert b["have"] == 1024 + 256
        assert _send(h2, img, start=b["have"], chunk=256) == len(img)
        t, c = _json_reply(h2, LEX_COMMIT, {"size": len(img), "crc": crc})
        assert t == LEX_COMMIT | REPLY
        # restart=True starts from zero
        t, b = _json_reply(h2, LEX_BEGIN, {"size": len(img), "crc": crc, "restart": True})
        assert b["have"] == 0
    finally:
        d.done()


def test_game_in_progress_refuses_unless_forced_and_bad_images_keep_the_old_list():
    d = InDir()
    try:
        s = Services(d.path)
        old = _image(b"old")
        with open("lexicon.dawg", "wb") as f:
            f.write(old)
        s.game = True
        h = LinkHandler(s, chunk=512)
        img = _image(b"new")
        crc = binascii.crc32(img) & 0xFFFFFFFF
        t, e = _json_reply(h, LEX_BEGIN, {"size": len(img), "crc": crc})
        assert t == ERROR and e["code"] == "E_GAME"
        s.game = False
        _json_reply(h, LEX_BEGIN, {"size": len(img), "crc": crc})
        _send(h, img[:512])
        s.game = True    # a game started during the transfer
        t, p = h.run(LEX_CHUNK, _u32(512) + _u32(binascii.crc32(img[512:1024]) & 0xFFFFFFFF)
                     + b"\x00" + img[512:1024])
        assert t == ERROR and json.loads(p)["code"] == "E_GAME"
        # forced: goes through, with the game on
        _json_reply(h, LEX_BEGIN, {"size": len(img), "crc": crc, "force": True})
        _send(h, img, start=512)
        t, c = _json_reply(h, LEX_COMMIT, {"size": len(img), "crc": crc, "force": True})
        assert t == LEX_COMMIT | REPLY
        # a body that does not match its header's CRC is refused
        s.game = False
        bad = bytearray(_image(b"list"))
        bad[-1] ^= 0xFF
        bad = bytes(bad)
        bcrc = binascii.crc32(bad) & 0xFFFFFFFF
        _json_reply(h, LEX_BEGIN, {"size": len(bad), "crc": bcrc})
        _send(h, bad)
        t, e = _json_reply(h, LEX_COMMIT, {"size": len(bad), "crc": bcrc})
        assert t == ERROR and e["code"] == "E_VERIFY" and "body" in e["msg"]
        with open("lexicon.dawg", "rb") as f:
            assert f.read() == img
        assert raises(OSError, os.stat, "lexicon.new")
        assert h.progress[0] == "failed"
        t, e = _json_reply(h, LEX_COMMIT, {"size": len(bad), "crc": bcrc})
        assert e["code"] == "E_STATE"
    finally:
        d.done()


def test_server_answers_frames_and_naks_damaged_ones():
    d = InDir()
    try:
        out = []
        srv = Server(LinkHandler(Services(d.path)), out.append)
        wire = bytearray(frame.encode(INFO, 3))
        wire[10] ^= 0x01
        work = srv.feed(b"noise" + bytes(wire) + frame.encode(INFO, 4))
        assert len(work) == 1 and work[0][0] == 4
        assert srv.start(*work[0]) is None
        replies = [r for r in frame.Decoder().feed(b"".join(bytes(o) for o in out)) if r[0] == frame.OK]
        assert replies[0][2] == ERROR and replies[0][3] == 0
        assert json.loads(replies[0][4])["code"] == "E_FRAME"
        assert replies[1][2] == INFO | REPLY and replies[1][3] == 4
    finally:
        d.done()
