# What the link's request modules share (link/handler.py, lexupload.py, lexslot.py,
# fwupdate.py): the error a request ends with, the reply it makes, its payload's JSON and
# numbers, the rotation of the chunks' bytes, and the files of the word list in use.

import binascii
import json
import os

from link.messages import REPLY

LEXICON = "lexicon.dawg"
VERIFIED = "lexicon.ok"      # digest of the list in use's full check (docs/wordlist-format.md, 6)


class LinkError(Exception):
    """A request refused: `code` names why (docs/link-protocol.md, section 6)."""

    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


def reply(kind, payload):
    """The reply to a request of type `kind`."""
    return (kind | REPLY, payload)


def u32(b, o):
    return b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)


def pack_u32(v):
    return bytes((v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, (v >> 24) & 0xFF))


def unrotate(payload, start, k):
    """The bytes of `payload` from `start` on, which travel rotated by k (byte + k mod
    256), k chosen by the host so that few of them need escaping (docs/link-protocol.md,
    section 4.2)."""
    if not k:
        return memoryview(payload)[start:]
    data = bytearray(memoryview(payload)[start:])
    k = 256 - k
    for i in range(len(data)):
        data[i] = (data[i] + k) & 0xFF
    return data


def chunk_data(payload, at, limit):
    """A chunk's data: at `at` of its payload its offset and the CRC-32 of its data (4
    bytes each), the rotation k, then the data rotated (docs/link-protocol.md, section
    4.2).  (offset, data); LinkError for more than `limit` bytes or a damaged chunk."""
    offset = u32(payload, at)
    crc = u32(payload, at + 4)
    data = unrotate(payload, at + 9, payload[at + 8])
    if len(data) > limit:
        raise LinkError("E_ARG", "chunk of %d bytes, at most %d" % (len(data), limit))
    if binascii.crc32(data) & 0xFFFFFFFF != crc:
        raise LinkError("E_CHUNK", "chunk checksum mismatch at %d" % offset)
    return offset, data


def dump_json(obj):
    return json.dumps(obj).encode()


def load_json(payload):
    """A request's JSON object ({} for no payload); LinkError E_ARG for anything else."""
    if not payload:
        return {}
    try:
        obj = json.loads(payload)
    except Exception:
        raise LinkError("E_ARG", "payload is not JSON")
    if not isinstance(obj, dict):
        raise LinkError("E_ARG", "payload is not a JSON object")
    return obj


def int_field(obj, key, lo=0, hi=0xFFFFFFFF):
    v = obj.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > hi:
        raise LinkError("E_ARG", "bad or missing '%s'" % key)
    return v


def remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def free_bytes():
    """Free bytes of the filesystem, or None where it does not say."""
    try:
        st = os.statvfs(".")
        return st[0] * st[4]
    except Exception:
        return None
