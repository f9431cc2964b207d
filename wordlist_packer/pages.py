"""Pages of the image body and their checks (docs/wordlist-format.md, section 5).

The logical body (the bit stream) is cut into pages of 2**shift bytes; each page is
followed by a 4-byte check. The device reads a page into a cache slot together with the
first OVERHANG bytes of the next page (zeros after the last page) and takes the check
out, leaving four zero bytes at the end of the slot: the slot then holds what the check
covers, and one CRC over the slot proves every byte a lookup decodes from it.

The check is a *seed*: a number below 2**30 such that the CRC-32 of the slot, started
from the seed, is below 4. CRC-32 is affine in its starting value, so for each page there
is exactly one such seed, found by solving a 30 x 30 system over GF(2) once per page
size. A 32-bit chip then compares two small integers (a CRC-32 of 2**30 or more would be
a long integer: an allocation in every page read), while the check keeps 30 bits of
strength.
"""

from __future__ import annotations

import zlib
from functools import lru_cache

OVERHANG = 12
CHECK = 4
SEED_BITS = 30
RESULT_BITS = 2         # an intact page: CRC-32 from its seed below 2**RESULT_BITS


def page_size(shift: int) -> int:
    return 1 << shift


@lru_cache(maxsize=None)
def _solver(slot_len: int) -> list[int]:
    """For each of the result bits RESULT_BITS..31, the seed that flips exactly it."""
    zero = bytes(slot_len)
    base = zlib.crc32(zero, 0)
    cols = [zlib.crc32(zero, 1 << i) ^ base for i in range(SEED_BITS)]   # seed bit -> result
    # Gauss-Jordan over GF(2): rows are result bits RESULT_BITS..31 as combinations of seed bits.
    rows = []
    for bit in range(RESULT_BITS, 32):
        mask = sum(((cols[c] >> bit) & 1) << c for c in range(SEED_BITS))
        rows.append([mask, 1 << (bit - RESULT_BITS)])
    n = len(rows)
    for c in range(SEED_BITS):
        piv = next((r for r in range(c, n) if rows[r][0] >> c & 1), None)
        if piv is None:                                     # pragma: no cover
            raise ValueError("no seed: the check cannot be solved for this page size")
        rows[c], rows[piv] = rows[piv], rows[c]
        for r in range(n):
            if r != c and rows[r][0] >> c & 1:
                rows[r][0] ^= rows[c][0]
                rows[r][1] ^= rows[c][1]
    # rows[c] now says: seed bit c = parity of (wanted result bits & rows[c][1])
    out = []
    for bit in range(32 - RESULT_BITS):
        seed = 0
        for c in range(SEED_BITS):
            if rows[c][1] >> bit & 1:
                seed |= 1 << c
        out.append(seed)
    return out


def seed_for(slot: bytes) -> int:
    """The seed that makes the CRC-32 of the slot small."""
    solver = _solver(len(slot))
    high = zlib.crc32(slot, 0) >> RESULT_BITS
    seed = 0
    bit = 0
    while high:
        if high & 1:
            seed ^= solver[bit]
        high >>= 1
        bit += 1
    return seed


def slot_ok(slot: bytes, seed: int) -> bool:
    return seed < 1 << SEED_BITS and zlib.crc32(slot, seed) < 1 << RESULT_BITS


def paginate(logical: bytes, shift: int) -> bytes:
    """Physical body: the logical bytes padded with zeros to whole pages, a check after
    each page."""
    size = page_size(shift)
    pad = (-len(logical)) % size
    data = logical + bytes(pad + OVERHANG)
    out = bytearray()
    for start in range(0, len(logical) + pad, size):
        slot = data[start:start + size + OVERHANG] + bytes(CHECK)
        seed = seed_for(slot)
        assert slot_ok(slot, seed)
        out += data[start:start + size]
        out += seed.to_bytes(CHECK, "little")
    return bytes(out)


def unpaginate(physical: bytes, shift: int) -> tuple[bytes, list[int]]:
    """(logical bytes, indices of pages whose check fails)."""
    size = page_size(shift)
    step = size + CHECK
    if len(physical) % step:
        raise ValueError("body is not a whole number of pages")
    pages = [physical[k:k + size] for k in range(0, len(physical), step)]
    logical = b"".join(pages)
    tail = logical + bytes(OVERHANG)
    bad = []
    for i in range(len(pages)):
        seed = int.from_bytes(physical[i * step + size:i * step + step], "little")
        if not slot_ok(tail[i * size:(i + 1) * size + OVERHANG] + bytes(CHECK), seed):
            bad.append(i)
    return logical, bad
