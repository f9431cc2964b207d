"""Writing and reading the word graph image (format 3.0, see docs/wordlist-format.md)."""

from __future__ import annotations

import hashlib
import struct
import zlib
from dataclasses import dataclass, field

from . import huffman
from .encode import (ABS, FINAL, GROUP, LAST, LOOSE, LOOSE_BITS, LOOSE_MAX, MAX_CONTEXTS,
                     MAX_WIDTH, NEXT, NO_GROUP, PREFIX_ENTRY, PREFIX_MAX_TILES, REL, SINK,
                     encode)
from .graph import CODE_BASE, Graph
from .pages import CHECK, paginate, unpaginate

MAGIC = b"TCLX"
MAJOR = 3
MINOR = 0
PREFIX = struct.Struct("<4sBBHII")          # magic, major, minor, header length, body offset, body length
# body crc, words, arcs, nodes, jumps, root, shortest, longest, T, page shift, align shift,
# contexts, prefix table depth (0 or 2), reserved, date, sha-256
FIXED = struct.Struct("<IIIIIIBBBBBBBBQ32s")
TABLES_OFF = PREFIX.size + FIXED.size         # 88
MAX_HEADER = 4096       # the device reads the header into RAM: one limit for all readers
NO_ROOT = 0xFFFFFFFF
PAGE_SHIFT = 8          # 256-byte pages: the device's cache blocks
PAGE_SHIFTS = (7, 8, 10, 11, 12)   # the page sizes whose check can be solved (pages.py)
MAX_TILES = 250
BLANK_ONLY = 1
RESIDENT_PAGES = 32     # pages the header names for a reader to keep in RAM (section 2)
MAX_RESIDENT = 255
HOT_SAMPLE = 20_000     # words whose lookups choose those pages
MAX_JUMPS = 64          # jumps followed in one node before the image counts as damaged
KIND_NAMES = ("sink", "next", "rel", "group", "abs")


class ImageError(ValueError):
    """The image is damaged or not an image of a supported format."""


class HeaderTooLong(ValueError):
    """The header would not fit the readers' limit (MAX_HEADER)."""


@dataclass
class Meta:
    language: str
    tiles: list[str]
    blank_only: list[bool]
    name: str = ""
    version: str = ""
    date: int = 0
    sha256: bytes = b"\0" * 32
    lower: list[str] = field(default_factory=list)   # lower-case tiles (default: str.lower)


def source_sha256(words: list[str], tiles: list[str]) -> bytes:
    """SHA-256 of the kept words in ascending order, each as its tile indices (one byte
    each) followed by 0xFF (docs/wordlist-format.md, section 6)."""
    h = hashlib.sha256()
    T = len(tiles)
    step = 200_000
    if CODE_BASE + T <= 0xFF:
        table = bytearray(range(256))
        for i in range(T):
            table[CODE_BASE + i] = i
        table[0x0A] = 0xFF
        for i in range(0, len(words), step):
            chunk = "\n".join(words[i:i + step]) + "\n"
            h.update(chunk.encode("latin-1").translate(table))
    else:
        for w in words:
            h.update(bytes(ord(c) - CODE_BASE for c in w) + b"\xff")
    return h.digest()


def _pstr(s: str, what: str) -> bytes:
    b = s.encode("utf-8")
    if len(b) > 255:
        raise ValueError(f"{what} longer than 255 bytes: {s[:40]!r}...")
    return bytes([len(b)]) + b


def _tables(body) -> bytes:
    out = bytearray(body.ctxmap)
    for counts, syms in body.s1:
        out.append(len(counts))
        out += bytes(counts)
        out += bytes(syms)
    counts, syms = body.s2
    out.append(len(counts))
    for c in counts:
        out += struct.pack("<H", c)
    for s in syms:
        out += bytes([s >> 8, s & 0xFF])
    for b in body.group_base:
        out += struct.pack("<I", b)
    return bytes(out)


def _resident_table(pages) -> bytes:
    return bytes([len(pages)]) + b"".join(struct.pack("<I", p) for p in pages)


def write_image(g: Graph, meta: Meta, progress=None, page_shift: int = PAGE_SHIFT,
                align_shift: int | None = None, prefix_table: bool | None = None,
                rounds: tuple[int, int] = (4, 8), resident: int = RESIDENT_PAGES,
                sample=None) -> bytes:
    """resident: how many pages the header names as the ones most lookups read (a
    reader keeps as many of them in RAM as it can afford); sample: words (tile
    indices) whose lookups choose them, else an even sample of the list's words."""
    T = len(meta.tiles)
    if not 0 <= resident <= MAX_RESIDENT:
        raise ValueError(f"0 to {MAX_RESIDENT} resident pages")
    if not 1 <= T <= MAX_TILES:
        raise ValueError(f"1 to {MAX_TILES} tiles")
    if page_shift not in PAGE_SHIFTS:
        raise ValueError(f"page size 2**{page_shift}: one of 2**{PAGE_SHIFTS}")
    lower = meta.lower or [t.lower() for t in meta.tiles]
    var = _pstr(meta.language, "language") + _pstr(meta.name, "list name") + _pstr(
        meta.version, "list version")
    for t, lo, b in zip(meta.tiles, lower, meta.blank_only):
        var += bytes([BLANK_ONLY if b else 0]) + _pstr(t, "tile") + _pstr(lo, "tile")
    var_len = len(var) + 1                    # and the count of resident pages
    fixed_len = TABLES_OFF + var_len + 4 + 4 * (T + 1) + (T + 1)
    if fixed_len > MAX_HEADER:
        raise HeaderTooLong(f"the header needs {fixed_len} bytes for the tile table and "
                            f"strings alone; the device reads at most {MAX_HEADER}")
    if align_shift is None:
        align_shift = 3
    contexts = MAX_CONTEXTS
    while True:
        body = encode(g, T, align_shift=align_shift, max_contexts=contexts, progress=progress,
                      prefix_table=prefix_table, rounds=rounds)
        tables = _tables(body)
        hlen = TABLES_OFF + len(tables) + var_len + 4
        if hlen <= MAX_HEADER or contexts == 1:
            break
        contexts = max(1, min(contexts, len(body.s1)) // 2)   # fewer tile contexts
        if progress:
            progress(f"header of {hlen} bytes too long: {contexts} contexts")
    if hlen > MAX_HEADER:
        raise HeaderTooLong(f"header of {hlen} bytes; the device reads at most {MAX_HEADER}")
    phys = paginate(body.data, page_shift) if body.data else b""
    root = NO_ROOT if body.root < 0 else body.root

    def header(pages) -> bytes:
        table = _resident_table(pages)
        hlen = TABLES_OFF + len(tables) + len(var) + len(table) + 4
        head = PREFIX.pack(MAGIC, MAJOR, MINOR, hlen, hlen, len(phys))
        head += FIXED.pack(zlib.crc32(phys), g.words, body.arcs, body.nodes, body.jumps, root,
                           min(g.min_len, 255), min(g.max_len, 255), T, page_shift,
                           align_shift, len(body.s1), 2 if body.prefix_table else 0, 0,
                           meta.date, meta.sha256)
        head += tables + var + table
        return head + struct.pack("<I", zlib.crc32(head))

    data = header(()) + phys
    resident = min(resident, (MAX_HEADER - hlen) // 4)   # as many as the header holds
    if resident and g.words:
        from .pagereads import hot_pages

        stored = body.stored
        pages = hot_pages(Image(data, check_body=False), resident, words=sample,
                          records=lambda pos: stored.records(pos, page_shift))
        if progress:
            progress(f"resident pages: {len(pages)}")
        data = header(pages) + phys
    return data


# ----------------------------------------------------------------------------------------
# reading

class Image:
    """A parsed, integrity-checked image. ``Image(data)`` raises ImageError if damaged."""

    def __init__(self, data: bytes, check_body: bool = True) -> None:
        self.data = data = bytes(data)
        if len(data) < PREFIX.size:
            raise ImageError(f"truncated: {len(data)} bytes, shorter than the fixed prefix")
        magic, major, minor, hlen, boff, blen = PREFIX.unpack_from(data, 0)
        if magic != MAGIC:
            raise ImageError("not a word graph image (bad magic)")
        if major != MAJOR:
            raise ImageError(f"unsupported format version {major}.{minor} (this packer "
                             f"reads {MAJOR}.x: pack the list again)")
        if hlen < TABLES_OFF + 4 or hlen > MAX_HEADER or boff < hlen:
            raise ImageError("damaged header (bad lengths)")
        if len(data) < hlen:
            raise ImageError(f"truncated: {len(data)} bytes, header needs {hlen}")
        (hcrc,) = struct.unpack_from("<I", data, hlen - 4)
        if zlib.crc32(data[:hlen - 4]) != hcrc:
            raise ImageError("damaged header (CRC mismatch)")
        if len(data) != boff + blen:
            kind = "truncated" if len(data) < boff + blen else "trailing bytes"
            raise ImageError(f"{kind}: {len(data)} bytes, expected {boff + blen}")
        (self.body_crc, self.words, self.arcs, self.nodes, self.jumps, self.root,
         self.min_len, self.max_len, T, self.page_shift, self.align_shift, C, self.prefix_depth,
         _, self.date, self.sha256) = FIXED.unpack_from(data, PREFIX.size)
        self.version = (major, minor)
        self.header_len = hlen
        self.body_offset = boff
        self.body_len = blen
        if not 1 <= T <= MAX_TILES or self.page_shift not in PAGE_SHIFTS or C < 1 or \
                self.align_shift > 8 or self.prefix_depth not in (0, 2) or \
                (self.prefix_depth and T > PREFIX_MAX_TILES):
            raise ImageError("damaged header (bad sizes)")
        self.ntiles = T
        try:
            self._read_tables(data, hlen, T, C)
        except (IndexError, UnicodeDecodeError, ValueError, struct.error) as e:
            raise ImageError(f"damaged header ({e})") from None
        self.body = data[boff:boff + blen]
        step = (1 << self.page_shift) + CHECK
        if blen % step:
            raise ImageError("damaged header (body is not whole pages)")
        if check_body and zlib.crc32(self.body) != self.body_crc:
            raise ImageError("damaged body (CRC mismatch)")
        logical, bad = unpaginate(self.body, self.page_shift)
        if bad and check_body:
            raise ImageError(f"damaged body (page {bad[0]} fails its check)")
        self.logical = logical
        self.bits_len = 8 * len(logical)
        self._bits = logical + bytes(8)
        if self.root != NO_ROOT and self.root >= self.bits_len:
            raise ImageError("damaged header (root address outside the body)")
        if (self.root == NO_ROOT) != (self.words == 0):
            raise ImageError("damaged header (root and word count disagree)")
        pages = blen // step
        if len(set(self.resident)) != len(self.resident) or \
                any(p >= pages for p in self.resident):
            raise ImageError("damaged header (resident pages)")
        if self.prefix_depth and 8 * PREFIX_ENTRY * T * T > self.bits_len and self.words:
            raise ImageError("damaged header (two-tile table runs past the body)")

    def _read_tables(self, data: bytes, hlen: int, T: int, C: int) -> None:
        pos = TABLES_OFF
        self.ctxmap = data[pos:pos + T + 1]
        pos += T + 1
        if len(self.ctxmap) != T + 1 or max(self.ctxmap) >= C:
            raise ValueError("context map")
        self.s1_tables = []
        self.s1 = []
        for _ in range(C):
            m = data[pos]
            counts = list(data[pos + 1:pos + 1 + m])
            n = sum(counts)
            syms = list(data[pos + 1 + m:pos + 1 + m + n])
            pos += 1 + m + n
            if m > huffman.MAX_LEN or len(syms) != n or any(s > T for s in syms):
                raise ValueError("tile code table")
            self.s1_tables.append((counts, syms))
            self.s1.append(huffman.Decoder(counts, syms) if n else None)
        m = data[pos]
        counts = list(struct.unpack_from("<%dH" % m, data, pos + 1))
        pos += 1 + 2 * m
        n = sum(counts)
        raw = data[pos:pos + 2 * n]
        syms = [raw[2 * i] << 8 | raw[2 * i + 1] for i in range(n)]
        pos += 2 * n
        if m > huffman.MAX_LEN or len(syms) != n:
            raise ValueError("flag code table")
        for s in syms:
            kind, w = (s >> 10) & 7, s & 0xFF
            if kind > ABS or (s >> 13) or (kind >= REL) != (1 <= w <= MAX_WIDTH or w == LOOSE) \
                    or (kind < REL and w):
                raise ValueError("flag code table")
        self.s2_table = (counts, syms)
        self.s2 = huffman.Decoder(counts, syms) if n else None
        self.group_base = list(struct.unpack_from("<%dI" % (T + 1), data, pos))
        pos += 4 * (T + 1)
        strings = []
        for _ in range(3):
            n = data[pos]
            strings.append(data[pos + 1:pos + 1 + n].decode("utf-8"))
            pos += 1 + n
        tiles, lower, blank = [], [], []
        for _ in range(T):
            fl = data[pos]
            n = data[pos + 1]
            tiles.append(data[pos + 2:pos + 2 + n].decode("utf-8"))
            pos += 2 + n
            n = data[pos]
            lower.append(data[pos + 1:pos + 1 + n].decode("utf-8"))
            pos += 1 + n
            blank.append(bool(fl & BLANK_ONLY))
        n = data[pos]
        self.resident = list(struct.unpack_from("<%dI" % n, data, pos + 1))
        pos += 1 + 4 * n
        if pos != hlen - 4:
            raise ValueError("resident pages do not end where the header does")
        self.language, self.name, self.list_version = strings
        self.tile_strings, self.tile_lower, self.blank_only = tiles, lower, blank

    @classmethod
    def load(cls, path) -> "Image":
        with open(path, "rb") as f:
            return cls(f.read())

    # -- tiles ----------------------------------------------------------------------------
    def tile_table(self) -> list[tuple[str, bool]]:
        """[(display string, blank_only)] in tile index order (for the keypad map)."""
        return list(zip(self.tile_strings, self.blank_only))

    def tiles_of(self, word: str) -> list[int] | None:
        """Split a display string into tile indices (longest tile first); None if it
        contains something that is not a tile."""
        order = sorted(range(len(self.tile_strings)), key=lambda i: -len(self.tile_strings[i]))
        out = []
        pos = 0
        while pos < len(word):
            for i in order:
                t = self.tile_strings[i]
                if word.startswith(t, pos):
                    out.append(i)
                    pos += len(t)
                    break
            else:
                return None
        return out

    # -- bits -----------------------------------------------------------------------------
    def _window(self, pos: int) -> int:
        b = pos >> 3
        return (int.from_bytes(self._bits[b:b + 3], "big") >> (9 - (pos & 7))) & 0x7FFF

    def _read(self, pos: int, n: int) -> int:
        b = pos >> 3
        v = int.from_bytes(self._bits[b:b + 5], "big")
        return (v >> (40 - (pos & 7) - n)) & ((1 << n) - 1)

    def _arc(self, pos: int, state: int) -> tuple[int, int, int, int, int]:
        """Decode the arc at bit address pos read in the previous-tile state:
        (symbol, flags byte, value or -1, position after it, payload bits).
        Symbol ntiles is a JUMP."""
        if pos >= self.bits_len:
            raise ImageError("damaged body (arc outside the body)")
        dec = self.s1[self.ctxmap[state]]
        try:
            if dec is None:
                raise ValueError
            sym, n1 = dec.decode(self._window(pos))
            pos += n1
            if self.s2 is None:
                raise ValueError
            s2, n2 = self.s2.decode(self._window(pos))
        except ValueError:
            raise ImageError("damaged body (no code matches)") from None
        pos += n2
        flags, w = s2 >> 8, s2 & 0xFF
        value = -1
        payload = 0
        if w == LOOSE:
            n = self._read(pos, LOOSE_BITS)
            if n > LOOSE_MAX:
                raise ImageError("damaged body (pointer too wide)")
            pos += LOOSE_BITS
            value = 0
            for k in range(0, n, 16):
                take = min(16, n - k)
                value = (value << take) | self._read(pos, take)
                pos += take
            payload = LOOSE_BITS + n
        elif w:
            value = ((1 << (w - 1)) | self._read(pos, w - 1)) - 1
            pos += w - 1
            payload = w - 1
        return sym, flags, value, pos, payload

    def _target(self, sym: int, flags: int, value: int, end: int) -> int:
        kind = flags >> 2
        if kind == SINK:
            return -1
        if kind == NEXT:
            if not flags & LAST:
                raise ImageError("damaged body (NEXT on an arc that is not the last)")
            return end
        if kind == REL:
            t = end + value
        elif kind == GROUP:
            base = self.group_base[sym] if sym <= self.ntiles else NO_GROUP
            if base == NO_GROUP:
                raise ImageError("damaged body (pointer into a missing group)")
            t = (base + value) << self.align_shift
        else:
            t = value << self.align_shift
        if t >= self.bits_len:
            raise ImageError("damaged body (address outside the body)")
        return t

    def node_record(self, node: int) -> tuple[list[tuple[int, bool, int, int]], int]:
        """The arcs stored at a node: ([(tile, final, target, kind)], jump target or -1).
        target -1 is the sink."""
        pos = node
        state = 0
        jump = -1
        out = []
        while True:
            sym, flags, value, end, _ = self._arc(pos, state)
            if sym == self.ntiles:
                if state != 0 or jump >= 0 or (flags >> 2) < REL or flags & 3:
                    raise ImageError("damaged body (misplaced jump)")
                jump = self._target(self.ntiles, flags, value, end)
                pos = end
                continue
            if out and sym <= out[-1][0]:
                raise ImageError("damaged body (tiles out of order)")
            out.append((sym, bool(flags & FINAL), self._target(sym, flags, value, end),
                        flags >> 2))
            pos = end
            state = sym + 1
            if flags & LAST:
                return out, jump

    def stored_nodes(self):
        """(address, own arcs, jump) of every node stored in the body, reached from the
        root through arcs and jumps, each once (see node_record)."""
        if self.root == NO_ROOT:
            return
        seen: set[int] = set()
        stack = [self.root]
        while stack:
            a = stack.pop()
            if a in seen:
                continue
            seen.add(a)
            own, jump = self.node_record(a)
            yield a, own, jump
            stack.extend(t for _, _, t, _ in own if t >= 0 and t not in seen)
            if jump >= 0 and jump not in seen:
                stack.append(jump)

    def arcs_at(self, node: int) -> list[tuple[int, bool, int]]:
        """[(tile, final, target)] of the node at bit address node, jumps followed,
        ascending tiles."""
        out = []
        for _ in range(MAX_JUMPS):
            arcs, node = self.node_record(node)
            out.extend((t, f, c) for t, f, c, _ in arcs)
            if node < 0:
                out.sort()
                return out
        raise ImageError("damaged body (too many jumps)")

    def contains_tiles(self, tiles) -> bool:
        """The device's lookup: own arcs ascending, stop at a larger tile, then the jump."""
        if self.root == NO_ROOT or not tiles or len(tiles) > self.max_len:
            return False
        if len(tiles) < self.min_len:
            return False
        node = self.root
        final = False
        T = self.ntiles
        if self.prefix_depth and len(tiles) >= 2:
            entry = self.prefix(tiles[0], tiles[1])
            if entry is None:
                return False
            final, node = entry
            tiles = tiles[2:]
        for t in tiles:
            if node < 0:
                return False
            pos = node
            state = 0
            jump = -1
            jumps = 0
            while True:
                sym, flags, value, end, _ = self._arc(pos, state)
                if sym == T:
                    if state != 0:
                        raise ImageError("damaged body (misplaced jump)")
                    jump = self._target(T, flags, value, end)
                    pos = end
                    continue
                if sym == t:
                    final = bool(flags & FINAL)
                    node = self._target(sym, flags, value, end)
                    break
                if sym > t or flags & LAST:
                    if jump < 0:
                        return False
                    jumps += 1
                    if jumps > MAX_JUMPS:
                        raise ImageError("damaged body (too many jumps)")
                    pos, state, jump = jump, 0, -1
                    continue
                pos = end
                state = sym + 1
        return final

    def prefix(self, t1: int, t2: int) -> tuple[bool, int] | None:
        """The two-tile table: None if no word starts with t1 t2, else (final, node
        after both tiles, -1 for the sink)."""
        T = self.ntiles
        if t1 >= T or t2 >= T:
            return None
        at = PREFIX_ENTRY * (t1 * T + t2)
        v = int.from_bytes(self.logical[at:at + PREFIX_ENTRY], "big")
        if v == 0:
            return None
        node = (v >> 1) - 1
        if node >= self.bits_len:
            raise ImageError("damaged body (two-tile table points outside the body)")
        return bool(v & 1), node

    def __contains__(self, word: str) -> bool:
        tiles = self.tiles_of(word)
        return tiles is not None and self.contains_tiles(tiles)

    def iter_tile_words(self):
        """Every accepted word as a tuple of tile indices, in ascending order."""
        if self.root == NO_ROOT:
            return
        out = []
        memo: dict[int, list] = {}
        stack = [(self.root, ())]
        while stack:
            node, prefix = stack.pop()
            if len(prefix) >= self.max_len:
                raise ImageError("damaged body (path longer than the longest word)")
            arcs = memo.get(node)
            if arcs is None:
                arcs = memo[node] = self.arcs_at(node)
            for t, final, target in arcs:
                w = prefix + (t,)
                if final:
                    out.append(w)
                if target >= 0:
                    stack.append((target, w))
        out.sort()
        yield from out

    def word_list(self) -> list[str]:
        ts = self.tile_strings
        return ["".join(ts[t] for t in w) for w in self.iter_tile_words()]

    def header(self) -> dict:
        import datetime
        return {
            "format_version": f"{self.version[0]}.{self.version[1]}",
            "language": self.language,
            "name": self.name,
            "list_version": self.list_version,
            "build_date": datetime.datetime.fromtimestamp(self.date, datetime.timezone.utc)
            .strftime("%Y-%m-%dT%H:%M:%SZ"),
            "build_date_epoch": self.date,
            "words": self.words,
            "arcs": self.arcs,
            "nodes": self.nodes,
            "jumps": self.jumps,
            "shortest": self.min_len,
            "longest": self.max_len,
            "tiles": [{"tile": t, "lower": lo, "blank_only": b}
                      for t, lo, b in zip(self.tile_strings, self.tile_lower, self.blank_only)],
            "sha256": self.sha256.hex(),
            "body_crc32": f"{self.body_crc:08x}",
            "header_length": self.header_len,
            "body_offset": self.body_offset,
            "body_length": self.body_len,
            "page_size": 1 << self.page_shift,
            "pages": self.body_len // ((1 << self.page_shift) + CHECK),
            "align_bits": 1 << self.align_shift,
            "contexts": len(self.s1),
            "prefix_table": self.prefix_depth,
            "image_length": len(self.data),
            "root": None if self.root == NO_ROOT else self.root,
            "resident_pages": list(self.resident),
        }
