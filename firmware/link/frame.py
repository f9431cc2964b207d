# Framing of the host link (docs/link-protocol.md, section 2).  The host tools
# import this very file (host_tools/link.py): one implementation on both sides.
#
# On the wire a frame is FLAG, the escaped body, FLAG.  Escaping replaces every
# byte below 0x20, and 0x7D, 0x7E, 0x7F, by ESC followed by the byte XOR 0x20,
# so that no control character (Ctrl-C, Ctrl-D, CR, LF, XON/XOFF...) ever
# crosses the line: a frame sent to a device sitting at the REPL does nothing.
#
# Body: version (1), type (1), sequence (2 LE), payload length (2 LE),
# payload, CRC-32 (4 LE) of everything before it.

import binascii

VERSION = 1
FLAG = 0x7E
ESC = 0x7D
HEAD = 6
MAX_PAYLOAD = 8192      # a firmware listing of ~110 files (FW_BEGIN) takes 4.5 KB
# Longest escaped frame on the wire between the flags.
MAX_RAW = 2 * (HEAD + MAX_PAYLOAD + 4)

_FLAG_B = b"\x7e"
_ESC_B = b"\x7d"


def error_payload(code, msg):
    """An error reply's payload (type messages.ERROR): {"code": ..., "msg": ...} as JSON."""
    import json

    return json.dumps({"code": code, "msg": msg}).encode()


def _needs_escape(b):
    return b < 0x20 or b == 0x7D or b == 0x7E or b == 0x7F


def crc32(data, value=0):
    return binascii.crc32(data, value) & 0xFFFFFFFF


def escape(data):
    out = bytearray()
    start = 0
    n = len(data)
    for i in range(n):
        b = data[i]
        if b < 0x20 or b == 0x7D or b == 0x7E or b == 0x7F:
            if i > start:
                out.extend(data[start:i])
            out.append(ESC)
            out.append(b ^ 0x20)
            start = i + 1
    if start < n:
        out.extend(data[start:n])
    return out


def unescape(raw):
    """The unescaped bytes, or None if an escape is malformed."""
    out = bytearray()
    pos = 0
    n = len(raw)
    while pos < n:
        i = raw.find(_ESC_B, pos)
        if i < 0:
            out.extend(raw[pos:n])
            break
        if i > pos:
            out.extend(raw[pos:i])
        if i + 1 >= n:
            return None
        b = raw[i + 1] ^ 0x20
        if not _needs_escape(b):
            return None
        out.append(b)
        pos = i + 2
    return out


def body(kind, seq, payload=b""):
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise ValueError("payload too long")
    b = bytearray(HEAD + n + 4)
    b[0] = VERSION
    b[1] = kind & 0xFF
    b[2] = seq & 0xFF
    b[3] = (seq >> 8) & 0xFF
    b[4] = n & 0xFF
    b[5] = n >> 8
    b[HEAD:HEAD + n] = payload
    c = crc32(memoryview(b)[:HEAD + n])
    b[HEAD + n] = c & 0xFF
    b[HEAD + n + 1] = (c >> 8) & 0xFF
    b[HEAD + n + 2] = (c >> 16) & 0xFF
    b[HEAD + n + 3] = (c >> 24) & 0xFF
    return b


def encode(kind, seq, payload=b""):
    """The bytes of one frame on the wire."""
    out = bytearray(_FLAG_B)
    out.extend(escape(body(kind, seq, payload)))
    out.append(FLAG)
    return out


# parse() results: (status, version, kind, seq, payload)
OK = 0
BAD_CRC = 1      # looks like a frame of ours, but damaged: worth a NAK
BAD_VERSION = 2  # intact frame of another protocol version
GARBAGE = 3      # not a frame (noise, REPL output, truncated piece)


def parse(raw):
    """Interpret the bytes between two flags."""
    data = unescape(raw)
    if data is None or len(data) < HEAD + 4:
        return (GARBAGE, 0, 0, 0, None)
    n = data[4] | (data[5] << 8)
    if len(data) != HEAD + n + 4:
        if data[0] == VERSION and len(data) >= HEAD + 4 and n <= MAX_PAYLOAD:
            return (BAD_CRC, data[0], data[1], 0, None)
        return (GARBAGE, 0, 0, 0, None)
    c = data[HEAD + n] | (data[HEAD + n + 1] << 8) | (data[HEAD + n + 2] << 16) | (data[HEAD + n + 3] << 24)
    if crc32(memoryview(data)[:HEAD + n]) != c:
        if data[0] == VERSION:
            return (BAD_CRC, data[0], data[1], 0, None)
        return (GARBAGE, 0, 0, 0, None)
    seq = data[2] | (data[3] << 8)
    if data[0] != VERSION:
        return (BAD_VERSION, data[0], data[1], seq, None)
    return (OK, data[0], data[1], seq, bytes(data[HEAD:HEAD + n]))


class Decoder:
    """Cuts a byte stream into frames; never raises on any input.

    feed() returns a list of parse() results for the pieces completed by the
    new bytes.  Empty pieces (two flags in a row) are skipped; a piece longer
    than MAX_RAW is dropped whole, up to the next flag.
    """

    def __init__(self, max_raw=MAX_RAW):
        self._buf = bytearray()
        self._max = max_raw
        self._overflow = False
        self._seen_flag = False
        self.garbage = 0  # bytes that were not part of any good frame

    def feed(self, data):
        out = []
        pos = 0
        n = len(data)
        while pos < n:
            i = data.find(_FLAG_B, pos)
            end = n if i < 0 else i
            if end > pos:
                if self._overflow or len(self._buf) + (end - pos) > self._max:
                    self._overflow = True
                    self._skip(data, pos, end)
                    self._buf = bytearray()
                else:
                    self._buf.extend(data[pos:end])
            if i < 0:
                break
            # A flag closes the current piece.
            if self._buf:
                if self._seen_flag:
                    r = parse(self._buf)
                else:
                    r = (GARBAGE, 0, 0, 0, None)
                if r[0] != OK:
                    self._skip(self._buf, 0, len(self._buf))
                out.append(r)
                self._buf = bytearray()
            self._overflow = False
            self._seen_flag = True
            pos = i + 1
        return out

    def _skip(self, data, start, end):
        # Bytes that were not part of a good frame: counted here; the host's
        # decoder (host_tools/link.py) also keeps them for its messages.
        self.garbage += end - start

    def reset(self):
        self._buf = bytearray()
        self._overflow = False
        self._seen_flag = False
