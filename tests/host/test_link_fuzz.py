"""Fuzzing the link: random, truncated and damaged frames against the firmware's
framing and dispatch (hypothesis, CPython).  The same against the real firmware while
a game runs, at count: tests/host/test_fault_frames.py and bench/fault_frames.py."""

import os
import tempfile

from hypothesis import given, settings, strategies as st

import host_tools.link as hl
from link import frame
from link.handler import LinkHandler
from link.server import Server


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
    with tempfile.TemporaryDirectory(prefix="linkfuzz-") as folder:
        os.chdir(folder)
        try:
            _framing_and_dispatch(chunks, step)
        finally:
            os.chdir(cwd)


def _framing_and_dispatch(chunks, step):
    """One stream fed in steps, then a clean request: the link still answers it."""
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
