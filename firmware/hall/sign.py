# HMAC-SHA256 (RFC 2104) over hashlib.sha256: MicroPython has no hmac module, and its
# sha256 objects cannot be copied, so the inner and outer pads are hashed afresh for
# every message.  Pure: the hall on the host imports this very file
# (host_tools/resources.py, firmware_module("hall/sign.py")).

import hashlib
import binascii

BLOCK = 64  # SHA-256's block, in bytes
TAG_HEX = 64  # a tag written as hex digits


def _pads(key):
    if len(key) > BLOCK:
        key = hashlib.sha256(key).digest()
    inner = bytearray(BLOCK)
    outer = bytearray(BLOCK)
    for i in range(BLOCK):
        b = key[i] if i < len(key) else 0
        inner[i] = b ^ 0x36
        outer[i] = b ^ 0x5C
    return bytes(inner), bytes(outer)


class Signer:
    """HMAC-SHA256 with one key; its pads are computed once."""

    def __init__(self, key):
        if isinstance(key, str):
            key = key.encode()
        self._inner, self._outer = _pads(bytes(key))

    def digest(self, *parts):
        """The 32-byte tag of the concatenation of parts (bytes each)."""
        h = hashlib.sha256(self._inner)
        for part in parts:
            h.update(part)
        return hashlib.sha256(self._outer + h.digest()).digest()

    def hexdigest(self, *parts):
        return binascii.hexlify(self.digest(*parts)).decode()

    def verify(self, tag_hex, *parts):
        """True if tag_hex (text or bytes, 64 lowercase hex digits) is the tag of parts;
        compared in time independent of where they differ."""
        if isinstance(tag_hex, str):
            tag_hex = tag_hex.encode()
        return same(bytes(tag_hex), self.hexdigest(*parts).encode())


def hmac_sha256(key, data):
    """The 32-byte HMAC-SHA256 of data (bytes) under key (bytes or text)."""
    return Signer(key).digest(data)


def same(a, b):
    """a == b for two byte strings, without stopping at the first difference."""
    if len(a) != len(b):
        return False
    diff = 0
    for i in range(len(a)):
        diff |= a[i] ^ b[i]
    return diff == 0
