"""Pages of the image body and their checks (docs/wordlist-format.md, section 5).

The logical body (the bit stream) is cut into pages of 2**shift bytes; each page is
followed by a 2-byte check, the low 16 bits of the CRC-32 of the page, the first
OVERHANG bytes of the next page (zeros after the last page) and two zero bytes. The
device reads one page and that overhang into a cache slot (the two zeros take the place
of the check), so an arc that starts in a page is always whole in the slot, and one CRC
over the slot proves every byte a lookup decodes from it.
"""

from __future__ import annotations

import zlib

OVERHANG = 12
CHECK = 2


def page_size(shift: int) -> int:
    return 1 << shift


def paginate(logical: bytes, shift: int) -> bytes:
    """Physical body: the logical bytes padded with zeros to whole pages, a check after
    each page."""
    size = page_size(shift)
    pad = (-len(logical)) % size
    data = logical + bytes(pad + OVERHANG)
    out = bytearray()
    for start in range(0, len(logical) + pad, size):
        page = data[start:start + size]
        crc = zlib.crc32(data[start:start + size + OVERHANG] + bytes(CHECK)) & 0xFFFF
        out += page
        out += crc.to_bytes(CHECK, "little")
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
        stored = int.from_bytes(physical[i * step + size:i * step + step], "little")
        if zlib.crc32(tail[i * size:(i + 1) * size + OVERHANG] + bytes(CHECK)) & 0xFFFF != stored:
            bad.append(i)
    return logical, bad
