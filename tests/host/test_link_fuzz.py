"""Fuzzing the link: random, truncated and damaged frames against the firmware's
framing and dispatch (hypothesis, CPython), and a burst of them through the real
MicroPython device while a game runs."""

import json
import os
import random
import tempfile

from hypothesis import given, settings, strategies as st

import host_tools.link as hl
from link import frame
from link.handler import LinkHandler
from link.server import Server
from tests.host.linkrig import Rig, wait_for
from host_tools.link import Link


class Services:
    def __init__(self):
        self.config = {"lang": "de"}

    def device_info(self):
        return {"device": "ff", "firmware": "x"}

    def get_config(self):
        return dict(self.config)

    def set_config(self, changes):
        return (False, "read-only") if "lang" in changes else (True, "")

    def game_in_progress(self):
        return True

    def read_log(self, name, offset, size):
        raise KeyError(name)

    def lexicon_changed(self):
        raise AssertionError("no list may be swapped in by noise")


frames = st.builds(lambda k, s, p: bytes(hl.encode(k, s, p)),
                   st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=300))


def mangle(data, draw_ops):
    data = bytearray(data)
    for op, pos, val in draw_ops:
        if not data:
            break
        pos %= len(data)
        if op == 0:
            data[pos] = val
        elif op == 1:
            del data[pos:]
        elif op == 2:
            data.insert(pos, val)
        else:
            del data[pos]
    return bytes(data)


pieces = st.one_of(
    st.binary(max_size=200),
    frames,
    st.tuples(frames, st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**6), st.integers(0, 255)),
                               min_size=1, max_size=4)).map(lambda t: mangle(*t)),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(pieces, max_size=12), st.integers(1, 64))
def test_firmware_framing_and_dispatch_survive_anything(chunks, step):
    cwd = os.getcwd()
    folder = tempfile.mkdtemp(prefix="linkfuzz-")
    os.chdir(folder)
    try:
        out = []
        srv = Server(LinkHandler(Services()), out.append)
        stream = b"".join(chunks)
        for i in range(0, len(stream), step):
            for job in srv.feed(stream[i:i + step]):
                pending = srv.start(*job)
                while pending is not None and not srv.step(pending):
                    pass
        # Afterwards the link still answers a clean request.
        work = srv.feed(hl.encode(hl.INFO, 4242))
        # (a frame that lost only its closing flag is completed by this one's flag)
        assert work and work[-1][0] == 4242 and len(work) <= 2
        for job in work:
            pending = srv.start(*job)
            while pending is not None and not srv.step(pending):
                pass
        replies = [r for r in hl.Decoder().feed(b"".join(bytes(o) for o in out)) if r[0] == hl.OK]
        assert replies[-1][2] == hl.INFO | hl.REPLY and replies[-1][3] == 4242
        assert all(r[2] & hl.REPLY or r[2] == hl.ERROR for r in replies)
        assert not os.path.exists("lexicon.dawg")
    finally:
        os.chdir(cwd)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=hl.MAX_PAYLOAD))
def test_host_and_firmware_framing_agree(kind, seq, payload):
    wire = hl.encode(kind, seq, payload)
    assert bytes(frame.encode(kind, seq, payload)) == wire
    assert frame.Decoder().feed(wire) == [(frame.OK, 1, kind, seq, payload)]
    assert hl.Decoder().feed(wire) == [(hl.OK, 1, kind, seq, payload)]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_host_and_firmware_decoders_agree_on_garbage(noise):
    wire = noise + hl.encode(1, 7, b"ok") + noise
    fw = [r for r in frame.Decoder().feed(wire)]
    host = [r for r in hl.Decoder().feed(wire)]
    assert [r[0] for r in fw] == [r[0] for r in host]
    assert [r for r in fw if r[0] == frame.OK] == [r for r in host if r[0] == hl.OK]
    assert (hl.OK, 1, 1, 7, b"ok") in host


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=1, max_size=2048))
def test_rotation_choice_reduces_escapes_and_round_trips(data):
    k = hl.best_rotation(data)
    rotated = hl.rotate(data, k)
    assert len(hl.escape(rotated)) <= len(hl.escape(data))
    assert bytes((b - k) & 0xFF for b in rotated) == data


def test_noise_through_the_real_device_disturbs_neither_link_nor_game(tmp_path):
    rnd = random.Random(7)
    with Rig(tmp_path / "dev", args=("--game",)) as rig, Link(rig.port) as link:
        before = link.info()
        burst = bytearray()
        for i in range(400):
            choice = rnd.randrange(4)
            good = hl.encode(rnd.choice([1, 2, 3, 4, 0x10, 0x11, 0x12, 0x13, 0x66]), rnd.randrange(1, 60000),
                             bytes(rnd.randrange(256) for _ in range(rnd.randrange(40))))
            if choice == 0:
                burst += bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 80)))
            elif choice == 1:
                burst += good[:rnd.randrange(1, len(good))]
            elif choice == 2:
                g = bytearray(good)
                g[rnd.randrange(1, len(g) - 1)] = rnd.randrange(256)
                burst += g
            else:
                burst += b"\r\n>>> import machine\r\n\x03\x04" + bytes([rnd.randrange(256)]) * 30
        # Fuzz frames aimed at the transfer, too: valid CRC, nonsense content.
        for kind, payload in ((0x10, b'{"size": -1, "crc": 5}'), (0x10, b"[1,2]"), (0x11, b"\x00" * 3),
                              (0x12, b'{"size": 10, "crc": 1, "force": true}'), (0x03, b'"x"'),
                              (0x04, b'{"name": 5}')):
            burst += hl.encode(kind, 999, payload)
        link.ser.write(bytes(burst))
        # The device answers everything it can parse; wait until it has caught up.
        assert wait_for(lambda: _answers(link), timeout=30, what="the device to answer again")
        after = link.info()
        assert rig.alive()
    assert after["game"] is True
    assert after["test"]["phase"] == before["test"]["phase"]
    assert after["test"]["on_turn"] == before["test"]["on_turn"]
    assert after["test"]["loops"] > before["test"]["loops"]
    assert after["lexicon"] is None and after["test"]["swaps"] == 0
    assert not (tmp_path / "dev" / "config.json").exists()   # no setting changed by noise


def _answers(link):
    try:
        link.request(hl.INFO, timeout=1.0, retries=0)
        return True
    except hl.LinkError:
        return False
