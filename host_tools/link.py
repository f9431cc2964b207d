"""Host side of the link protocol (docs/link-protocol.md) over pyserial."""

from __future__ import annotations

import json
import struct
import time
from collections import Counter
from typing import Callable

from host_tools import resources

# The framing and the message types are the firmware's own modules (firmware/link/frame.py
# and messages.py, pure Python that runs under CPython as well): one definition on both ends
# of the wire, found where the host tools carry the firmware (host_tools/resources.py).
_frame = resources.firmware_module("link/frame.py")
VERSION = _frame.VERSION
FLAG = _frame.FLAG
ESC = _frame.ESC
HEAD = _frame.HEAD
MAX_PAYLOAD = _frame.MAX_PAYLOAD
MAX_RAW = _frame.MAX_RAW
crc32 = _frame.crc32
escape = _frame.escape
unescape = _frame.unescape
body = _frame.body
encode = _frame.encode
parse = _frame.parse
OK, BAD_CRC, BAD_VERSION, GARBAGE = _frame.OK, _frame.BAD_CRC, _frame.BAD_VERSION, _frame.GARBAGE

# The message types, as the firmware defines them (firmware/link/messages.py).
_messages = resources.firmware_module("link/messages.py")
INFO = _messages.INFO
CONFIG_GET = _messages.CONFIG_GET
CONFIG_SET = _messages.CONFIG_SET
LOG_READ = _messages.LOG_READ
BAUD = _messages.BAUD
RESET = _messages.RESET
LEX_BEGIN = _messages.LEX_BEGIN
LEX_CHUNK = _messages.LEX_CHUNK
LEX_COMMIT = _messages.LEX_COMMIT
LEX_ABORT = _messages.LEX_ABORT
LEX_SLOT = _messages.LEX_SLOT
LEX_ADOPT = _messages.LEX_ADOPT
FW_BEGIN = _messages.FW_BEGIN
FW_CHUNK = _messages.FW_CHUNK
FW_COMMIT = _messages.FW_COMMIT
FW_ABORT = _messages.FW_ABORT
REPLY = _messages.REPLY
ERROR = _messages.ERROR

# Rates to try for the WROOM's UART, fastest first: 921600 is the most every common
# USB-UART bridge on those boards takes (CP2102: 921600; CH340, CH9102, FT231X: more).
FAST_BAUDS = (921600, 460800, 230400)

# Errors worth sending the same request again for.
RETRY_CODES = {"E_FRAME", "E_CHUNK"}

# How long a commit or an adoption may take: the device walks the whole list once before
# it answers from it (firmware/lexicon/check.py; docs/wordlist-format.md, section 6), the
# clock running between the steps.  The Polish list's walk takes 23.5 s of the host's
# 32-bit MicroPython; a chip's core runs MicroPython many times slower.
CHECK_TIMEOUT_S = 900.0


class LinkError(Exception):
    """Something went wrong talking to a device; `code` names it (docs, section 6)."""

    def __init__(self, code: str, msg: str):
        super().__init__(f"{code}: {msg}")
        self.code = code
        self.msg = msg


class DeviceError(LinkError):
    """The device answered with an error frame."""


class NoAnswer(LinkError):
    def __init__(self, msg: str):
        super().__init__("E_TIMEOUT", msg)


def best_rotation(data: bytes) -> int:
    """The k for which (byte + k) % 256 over data needs the fewest escapes."""
    counts = [0] * 256
    for value, n in Counter(data).items():
        counts[value] = n
    prefix = [0]
    for i in range(512):
        prefix.append(prefix[-1] + counts[i % 256])

    def window(start, length):   # sum of counts[start .. start+length-1], circular
        start %= 256
        return prefix[start + length] - prefix[start]
    # Escaped after rotation: 0x00-0x1F and 0x7D-0x7F, i.e. source values -k + those.
    return min(range(256), key=lambda k: window(-k, 32) + window(0x7D - k, 3))


_ROTATIONS: dict[int, bytes] = {}


def rotate(data: bytes, k: int) -> bytes:
    if not k:
        return bytes(data)
    table = _ROTATIONS.get(k)
    if table is None:
        table = _ROTATIONS[k] = bytes((i + k) & 0xFF for i in range(256))
    return bytes(data).translate(table)


class Decoder(_frame.Decoder):
    """The firmware's decoder; keeps the last bytes that were not frames (for messages)."""

    def __init__(self, max_raw: int = MAX_RAW):
        super().__init__(max_raw)
        self.noise = bytearray()

    def _skip(self, data, start, end):
        super()._skip(data, start, end)
        self.noise += bytes(data[start:end])
        del self.noise[:-512]


def open_serial(port: str, baudrate: int = 115200):
    import serial

    return serial.serial_for_url(port, baudrate=baudrate, timeout=0.02, write_timeout=10)


class Link:
    """A conversation with one device.  `port` is a path/URL or an open pyserial object."""

    def __init__(self, port, timeout: float = 1.0, retries: int = 4, baudrate: int = 115200,
                 chunk: int = 1024):
        self.ser = open_serial(port, baudrate) if isinstance(port, str) else port
        self.port = port if isinstance(port, str) else getattr(port, "port", "?")
        self.timeout = timeout
        self.retries = retries
        self.chunk_max = chunk
        self.decoder = Decoder()
        self._seq = 0
        self.echoes = 0
        self.stats = {"tx_bytes": 0, "rx_bytes": 0, "retransmits": 0, "naks": 0, "stale_naks": 0,
                      "requests": 0}

    def close(self):
        try:
            self.ser.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- requests -----------------------------------------------------------------------

    def _next_seq(self) -> int:
        self._seq = self._seq % 0xFFFF + 1   # 1..65535; 0 is the device's "no request"
        return self._seq

    def _write(self, data: bytes):
        self.ser.write(data)
        self.stats["tx_bytes"] += len(data)

    def request(self, kind: int, payload: bytes = b"", timeout: float | None = None,
                retries: int | None = None) -> tuple[int, bytes]:
        """Send one request and wait for its reply; resend after a timeout or a NAK."""
        timeout = self.timeout if timeout is None else timeout
        retries = self.retries if retries is None else retries
        seq = self._next_seq()
        wire = encode(kind, seq, payload)
        self.stats["requests"] += 1
        last_error = None
        for attempt in range(retries + 1):
            if attempt:
                self.stats["retransmits"] += 1
            self._write(wire)
            sent = time.monotonic()
            deadline = sent + timeout
            resend = False
            while not resend and time.monotonic() < deadline:
                data = self.ser.read(max(1, getattr(self.ser, "in_waiting", 0) or 0))
                if not data:
                    continue
                self.stats["rx_bytes"] += len(data)
                for status, version, rkind, rseq, rpayload in self.decoder.feed(data):
                    if status == BAD_VERSION and rseq == seq:
                        raise LinkError("E_VERSION", f"device speaks protocol version {version}, "
                                        f"this tool {VERSION}")
                    if status != OK:
                        continue
                    if rkind != ERROR and not rkind & REPLY:
                        self.echoes += 1   # our own request coming back: a REPL echoes
                        continue
                    if rkind == ERROR:
                        err = _error(rpayload)
                        if rseq == 0 and err.code == "E_FRAME":
                            if time.monotonic() < sent + self.wire_time(len(wire)):
                                # Too early to be about this copy, which is still on its
                                # way: it answers an earlier, damaged one (resent after a
                                # timeout).  Resending now would pile a third copy on the
                                # device while it works on this one.
                                self.stats["stale_naks"] += 1
                                continue
                            self.stats["naks"] += 1
                            resend = True   # our frame arrived damaged: send it again now
                            break
                        if rseq != seq:
                            continue
                        if err.code in RETRY_CODES:
                            self.stats["naks"] += 1
                            last_error = err
                            resend = True
                            break
                        raise err
                    if rseq == seq:
                        if rkind != kind | REPLY:
                            raise LinkError("E_PROTO", f"reply type 0x{rkind:02x} to 0x{kind:02x}")
                        return rkind, rpayload
        if last_error is not None:
            raise last_error
        raise NoAnswer(self._silence_hint())

    def wire_time(self, nbytes: int) -> float:
        """Seconds `nbytes` take to reach the device at the port's rate (10 bits a byte),
        plus 50 ms for the USB bridge and the device to take them."""
        return nbytes * 10 / max(1200, self.ser.baudrate or 115200) + 0.05

    def _silence_hint(self) -> str:
        seen = bytes(self.decoder.noise)
        if self.echoes:
            return ("no answer from the tileclock firmware: the device echoes what it is sent, "
                    "so it sits at the MicroPython REPL (firmware not running?)")
        if b">>>" in seen or b"MicroPython" in seen or b"Traceback" in seen:
            return ("no answer from the tileclock firmware: the device shows the MicroPython "
                    "REPL or a traceback (firmware not running?)")
        if seen:
            return f"no answer from the device ({len(seen)} bytes of noise seen)"
        return "no answer from the device (not a tileclock, unplugged, or busy)"

    def request_json(self, kind: int, obj=None, **kw):
        payload = b"" if obj is None else json.dumps(obj).encode()
        _, reply = self.request(kind, payload, **kw)
        try:
            return json.loads(reply)
        except ValueError:
            raise LinkError("E_PROTO", "reply is not JSON") from None

    # -- commands -----------------------------------------------------------------------

    def info(self, set_time: bool = True) -> dict:
        """The device's description; by default the request carries this computer's
        local time, which the device's clock takes for its logs (docs/link-protocol.md)."""
        if not set_time:
            return self.request_json(INFO)
        now = time.localtime()
        return self.request_json(INFO, {"time": [now.tm_year, now.tm_mon, now.tm_mday,
                                                 now.tm_hour, now.tm_min, now.tm_sec]})

    def reset_game(self, force: bool = False) -> dict:
        """A fresh game with the configured preset; E_GAME while a game runs unless force."""
        return self.request_json(RESET, {"force": force})

    def config_get(self) -> dict:
        return self.request_json(CONFIG_GET)

    def config_set(self, changes: dict) -> dict:
        return self.request_json(CONFIG_SET, changes)

    def read_log(self, name: str, progress: Callable[[int], None] | None = None) -> bytes:
        out = bytearray()
        while True:
            _, reply = self.request(LOG_READ, json.dumps({"name": name, "offset": len(out)}).encode())
            if len(reply) < 4 or struct.unpack_from("<I", reply)[0] != len(out):
                raise LinkError("E_PROTO", "log piece for another offset")
            if len(reply) == 4:
                return bytes(out)
            out += reply[4:]
            if progress:
                progress(len(out))

    def switch_baud(self, rates=FAST_BAUDS) -> int:
        """Move the link to the fastest of `rates` both ends take; returns the rate in use.

        The device answers at the old rate, then switches; this side follows and checks
        with INFO.  If that fails, both go back: the device by itself after its
        probation (link/server.py), this side at once.  A device on native USB (where
        the rate means nothing) takes any rate."""
        old = self.ser.baudrate
        for rate in rates:
            if rate == old:
                return old
            try:
                reply = self.request_json(BAUD, {"baud": rate}, retries=1)
            except DeviceError:
                continue                    # not offered: try a slower one
            except LinkError:
                return old                  # no BAUD at all (an older firmware)
            # Let the device's UART switch first: it does once the reply has left, and
            # the bridge may still hold the reply's last bytes for a USB frame or two.
            time.sleep(0.1)
            self.ser.baudrate = rate
            try:
                self.request(INFO, timeout=max(0.3, self.timeout / 2), retries=2)
                return rate
            except LinkError:
                self.ser.baudrate = old
                time.sleep(reply.get("probation_ms", 2000) / 1000 + 0.3)
                self.decoder.reset()
                self.request(INFO)          # back where we started (raises if not)
        return old

    def lexicon_slot(self) -> dict:
        """The word list partition esptool may write (the one not in use):
        {"write": {"label", "offset", "size"}, "active": label or None}."""
        return self.request_json(LEX_SLOT, {})

    def adopt_lexicon(self, slot: str, image: bytes, force: bool = False,
                      timeout: float = None) -> dict:
        """Have the device check the image esptool wrote into `slot` and switch to it."""
        timeout = CHECK_TIMEOUT_S if timeout is None else timeout
        return self.request_json(LEX_ADOPT, {"slot": slot, "size": len(image),
                                             "crc": crc32(image), "force": force},
                                 timeout=timeout, retries=1)

    def abort_lexicon(self) -> None:
        self.request(LEX_ABORT)

    def push_lexicon(self, image: bytes, force: bool = False,
                     progress: Callable[[str, int, int], None] | None = None,
                     commit_timeout: float | None = None) -> dict:
        """Send a word list image; resumes what the device already holds of it.

        Returns {"resumed_from", "sent", "lexicon"}.  Raises LinkError; on any error
        the device keeps its old list."""
        size, crc = len(image), crc32(image)
        spec = {"size": size, "crc": crc, "force": force}
        begin = self.request_json(LEX_BEGIN, spec, timeout=max(self.timeout, 3.0))
        have = begin.get("have", 0)
        if not (0 <= have <= size) or crc32(image[:have]) != begin.get("crc"):
            begin = self.request_json(LEX_BEGIN, dict(spec, restart=True),
                                      timeout=max(self.timeout, 3.0))
            have = begin.get("have", 0)
            if have != 0:
                raise LinkError("E_PROTO", "device did not restart the transfer")
        resumed_from = have
        top = max(64, min(int(begin.get("chunk", 256)), self.chunk_max))
        chunk = top
        clean = 0
        sent = 0
        if progress:
            progress("send", have, size)
        while have < size:
            data = image[have:have + chunk]
            before = self.stats["retransmits"] + self.stats["naks"]
            k = best_rotation(data)
            _, reply = self.request(LEX_CHUNK, struct.pack("<IIB", have, crc32(data), k)
                                    + rotate(data, k))
            sent += len(data)
            new = struct.unpack_from("<I", reply)[0]
            if new > size:
                raise LinkError("E_PROTO", f"device claims {new} of {size} bytes")
            have = new
            # Fewer bytes per frame on a lossy line, more again once it is clean.
            if self.stats["retransmits"] + self.stats["naks"] > before:
                chunk, clean = max(64, chunk // 2), 0
            else:
                clean += 1
                if clean >= 16 and chunk < top:
                    chunk, clean = min(top, chunk * 2), 0
            if progress:
                progress("send", have, size)
        if progress:
            progress("verify", size, size)
        done = self.request_json(LEX_COMMIT, spec, retries=1,
                                 timeout=CHECK_TIMEOUT_S if commit_timeout is None else commit_timeout)
        if progress:
            progress("done", size, size)
        return {"resumed_from": resumed_from, "sent": sent, "lexicon": done.get("lexicon")}


def _error(payload: bytes) -> DeviceError:
    try:
        obj = json.loads(payload)
        return DeviceError(str(obj.get("code", "E_UNKNOWN")), str(obj.get("msg", "")))
    except (ValueError, AttributeError):
        return DeviceError("E_UNKNOWN", repr(payload[:80]))
