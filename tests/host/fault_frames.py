"""Random and mutated frames against the real firmware while a game runs
(tests/host/link_game_main.py: app.run on the reference board wired up with the fakes,
the left clock running; the link on a pseudo-terminal behind tests/host/linkrig.py's
relay).  Pieces: random bytes, frames of random type and payload with a valid CRC,
valid requests mutated (bytes changed, inserted, deleted, cut short), REPL noise
(Ctrl-C, Ctrl-D, prompts).  Nothing among them is a valid change of the configuration
or a complete word-list push.

After every batch the device must answer a clean INFO at once and, as the device
counts it, the left player must have been charged exactly the time that passed
(used_ms grows by the ticks between two INFO replies, to the millisecond) and the
right player nothing, with the same phase and turn and no pause; at the end the
configuration (CONFIG_GET and config.json) and the word list (lexicon.dawg, INFO) are
unchanged, and the firmware never printed a traceback.  Used by
tests/host/test_fault_frames.py (a quick count) and bench/fault_frames.py (the full
count; figures in docs/faults.md).
"""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

from host_tools import link as hl
from host_tools.drivers import driver_dir
from host_tools.link import Link, LinkError
from tests.host import runtime_proc
from tests.host.linkrig import Rig, wait_for

ENTRY = runtime_proc.HERE / "link_game_main.py"
LEXICON = runtime_proc.REPO / "tests" / "firmware" / "data" / "lexicon_pl.dawg"
KINDS = (hl.INFO, hl.CONFIG_GET, hl.CONFIG_SET, hl.LOG_READ, hl.LEX_BEGIN, hl.LEX_CHUNK,
         hl.LEX_COMMIT, hl.LEX_ABORT, 0x00, 0x05, 0x14, 0x66, 0x7F, 0x80, 0x81, 0xFF)
# requests that mean something, to be mutated (none of them changes anything as sent)
SEEDS = (
    (hl.INFO, b""), (hl.CONFIG_GET, b""), (hl.LOG_READ, b'{"name": "games", "offset": 0}'),
    (hl.CONFIG_SET, b'{"lang": "xx"}'), (hl.CONFIG_SET, b'{"contrast": 999}'),
    (hl.CONFIG_SET, b'{"preset": "tso25"}'), (hl.CONFIG_SET, b'{"warp": 1, "force": true}'),
    (hl.LEX_BEGIN, b'{"size": 0, "crc": 0}'), (hl.LEX_CHUNK, bytes(9)),
    (hl.LEX_COMMIT, b'{"size": 5, "crc": 7, "force": true}'), (hl.LEX_ABORT, b""),
)


def piece(rng: random.Random) -> bytes:
    r = rng.random()
    if r < 0.15:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
    if r < 0.35:
        kind = rng.choice(KINDS)
        if kind == hl.CONFIG_SET:
            payload = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 40)))
            if payload[:1] in (b"{", b""):
                payload = b"[" + payload          # never a JSON object: never a valid change
        else:
            payload = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 80)))
        return hl.encode(kind, rng.randrange(0x10000), payload)
    if r < 0.9:
        kind, payload = rng.choice(SEEDS)
        data = bytearray(hl.encode(kind, rng.randrange(1, 0x10000), payload))
        for _ in range(rng.randint(1, 4)):
            op = rng.randrange(4)
            pos = rng.randrange(len(data))
            if op == 0:
                data[pos] = rng.randrange(256)
            elif op == 1:
                del data[pos:]
            elif op == 2:
                data.insert(pos, rng.randrange(256))
            else:
                del data[pos]
            if not data:
                break
        return bytes(data)
    return rng.choice((b"\r\n>>> import machine\r\n", b"\x03", b"\x03\x03\x04", b"\x04",
                       b"\x7e\x7e\x7e", b"\x7d\x7e", b"\r\n"))


class Replies(threading.Thread):
    """Reads and decodes everything the device sends, so that nothing backs up."""

    def __init__(self, ser):
        super().__init__(daemon=True)
        self.ser = ser
        self.stop = threading.Event()
        self.frames = 0
        self.errors = 0
        self.decoder = hl.Decoder()
        self.infos = {}          # seq -> INFO reply, for the seqs in `wanted`
        self.wanted = set()

    def run(self):
        while not self.stop.is_set():
            try:
                data = self.ser.read(65536)
            except Exception:
                return
            for status, _, kind, seq, payload in self.decoder.feed(data):
                if status == hl.OK:
                    self.frames += 1
                    if kind == hl.ERROR:
                        self.errors += 1
                    elif kind == hl.INFO | hl.REPLY and seq in self.wanted:
                        self.infos[seq] = json.loads(payload)


def clock_of(port: str) -> dict:
    with Link(port, timeout=2.0, retries=2) as link:
        return link.info()


def run(frames: int, seed: int, folder: Path, batch: int = 2000, log=print) -> dict:
    rng = random.Random(seed)
    folder = Path(folder)
    rig = Rig(folder, script=ENTRY, path_extra=[driver_dir()],
              files={"lexicon.dawg": LEXICON.read_bytes()})
    rig.start()
    t0 = time.monotonic()
    sent = 0
    checks = 0
    try:
        info = wait_for(lambda: _game_running(rig.port), timeout=60, what="the game to run")
        with Link(rig.port, timeout=2.0) as link:
            config = link.config_get()
        config_file = _read(folder / "config.json")
        lexicon = (folder / "lexicon.dawg").read_bytes()
        import serial

        ser = serial.serial_for_url(rig.port, timeout=0.05, write_timeout=120)
        replies = Replies(ser)
        replies.start()
        try:
            while sent < frames:
                n = min(batch, frames - sent)
                ser.write(b"".join(piece(rng) for _ in range(n)) + b"\x7e")
                sent += n
                # the device answers a clean request once it has read the batch
                after = wait_for(lambda: _info(ser, replies), timeout=300,
                                 what="the device to answer after %d pieces" % sent)
                _check_clock(info, after)
                info = after
                checks += 1
                if log:
                    log("%d pieces, %d replies" % (sent, replies.frames))
        finally:
            replies.stop.set()
            replies.join(timeout=5)
            ser.close()
        with Link(rig.port, timeout=2.0) as link:
            assert link.config_get() == config, "the configuration changed"
            final = link.info()
        _check_clock(info, final)
        assert final["lexicon"]["crc"] == info["lexicon"]["crc"]
        assert (folder / "lexicon.dawg").read_bytes() == lexicon, "the word list changed"
        assert _read(folder / "config.json") == config_file, "config.json was written"
        assert rig.alive()
    finally:
        err = rig.stop()
    assert "Traceback" not in err, err[-3000:]
    return {"pieces": sent, "replies": replies.frames, "error_replies": replies.errors,
            "clock_checks": checks, "seconds": round(time.monotonic() - t0, 1)}


def _read(path: Path):
    return path.read_bytes() if path.exists() else None


def _game_running(port: str):
    try:
        info = clock_of(port)
    except LinkError:
        return None
    c = info["clock"]
    return info if c["phase"] == 1 and c["on_turn"] == 0 and not c["paused"] else None


_seq = [0]


def _info(ser, replies: Replies):
    """One INFO request on the shared port; its reply (dict) or None."""
    _seq[0] = _seq[0] % 60000 + 1
    seq = _seq[0]
    replies.wanted.add(seq)
    ser.write(hl.encode(hl.INFO, seq))
    end = time.monotonic() + 2.0
    while seq not in replies.infos and time.monotonic() < end:
        threading.Event().wait(0.01)
    replies.wanted.discard(seq)
    return replies.infos.pop(seq, None)


def _check_clock(before: dict, after: dict) -> None:
    """The running (left) side was charged exactly the ticks between the two replies."""
    a, b = before["clock"], after["clock"]
    assert (b["phase"], b["on_turn"], b["paused"], b["challenging"]) == (1, 0, False, False), b
    elapsed = (b["ticks"] - a["ticks"]) & 0x3FFFFFFF
    assert b["used_ms"][0] - a["used_ms"][0] == elapsed, (a, b)
    assert b["used_ms"][1] == a["used_ms"][1], (a, b)
