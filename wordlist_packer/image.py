"""Writing and reading the word graph image (format 1.0, see docs/wordlist-format.md)."""

from __future__ import annotations

import hashlib
import heapq
import struct
import zlib
from dataclasses import dataclass

from .graph import Graph

MAGIC = b"TCLX"
MAJOR = 1
MINOR = 0
PREFIX = struct.Struct("<4sBBHII")          # magic, major, minor, header length, body offset, body length
FIXED = struct.Struct("<IIIIIBBBBQ32s")      # body crc, words, arcs, nodes, root, min, max, T, 0, date, sha
TABLE_OFF = PREFIX.size + FIXED.size          # 80
TABLE_LEN = 768
STRINGS_OFF = TABLE_OFF + TABLE_LEN           # 848
NO_ROOT = 0xFFFFFFFF

FINAL = 1
LAST = 2
K_NEXT = 0
K_SINK = 1
K_ADDR = 2
ESCAPE_TILE = 0xFF
UNUSED_TILE = 0xFE
ESCAPE_OP = 0xFF
BLANK_ONLY = 1


class ImageError(ValueError):
    """The image is damaged or not an image of a supported format."""


@dataclass
class Meta:
    language: str
    tiles: list[str]
    blank_only: list[bool]
    name: str = ""
    version: str = ""
    date: int = 0
    sha256: bytes = b"\0" * 32


def source_sha256(words: list[str], tiles: list[str]) -> bytes:
    h = hashlib.sha256()
    if all(len(t) == 1 for t in tiles):
        table = {i: t for i, t in enumerate(tiles)}
        step = 50_000
        for i in range(0, len(words), step):
            chunk = words[i:i + step]
            h.update(("\n".join(chunk).translate(table) + "\n").encode("utf-8"))
    else:
        for w in words:
            h.update(("".join(tiles[ord(c)] for c in w) + "\n").encode("utf-8"))
    return h.digest()


# ----------------------------------------------------------------------------------------
# layout

def _layout(g: Graph) -> tuple[list[int], list[int]]:
    """Order the nodes and choose for each node the child placed right after it.

    Returns (order, next_child) where order lists node ids (sink excluded) and
    next_child[v] is the id of the node laid out right after v's arcs (or -1).
    Chains of NEXT arcs are grown depth-first, preferring children with few parents (only
    those parents can place them for free). Chains are then ordered by how often their
    nodes are addressed per byte, so that hot nodes get short addresses.
    """
    nodes = g.nodes
    n = len(nodes)
    indeg = [0] * n
    for node in nodes:
        for j in range(2, len(node), 3):
            indeg[node[j]] += 1
    placed = bytearray(n)
    placed[0] = 1
    next_child = [-1] * n
    chains: list[list[int]] = []
    if g.words == 0:
        return [], next_child
    stack = [g.root]
    while stack:
        v = stack.pop()
        if placed[v]:
            continue
        chain = []
        while True:
            placed[v] = 1
            chain.append(v)
            node = nodes[v]
            best = -1
            bestkey = None
            for j in range(2, len(node), 3):
                c = node[j]
                if placed[c]:
                    continue
                key = (indeg[c], -len(nodes[c]))
                if bestkey is None or key < bestkey:
                    if best >= 0:
                        stack.append(best)
                    best, bestkey = c, key
                else:
                    stack.append(c)
            if best < 0:
                break
            next_child[v] = best
            v = best
        chains.append(chain)
    # explicit references to each node: in-degree minus the one NEXT arc
    nexted = bytearray(n)
    for v in range(n):
        if next_child[v] >= 0:
            nexted[next_child[v]] = 1
    scored = []
    for i, chain in enumerate(chains):
        refs = 0
        size = 0
        for v in chain:
            refs += indeg[v] - nexted[v]
            size += len(nodes[v]) // 3
        scored.append((-(refs / (2.2 * size)), i))
    scored.sort()
    order = []
    for _, i in scored:
        order.extend(chains[i])
    return order, next_child


def _nmin(addr: int) -> int:
    n = 0
    while addr >> (8 * n) > 255:
        n += 1
    return n


class _Arcs:
    """Flat arrays of the arcs in layout order."""

    def __init__(self, g: Graph, order: list[int], next_child: list[int]) -> None:
        nodes = g.nodes
        self.order = order
        tile: list[int] = []
        fl: list[int] = []       # FINAL | LAST<<1 | KIND<<2  (the opcode group)
        target: list[int] = []
        first = []
        for v in order:
            node = nodes[v]
            first.append(len(tile))
            nc = next_child[v]
            k = len(node) // 3
            nxt_j = -1
            if nc >= 0:
                for j in range(3 * (k - 1), -1, -3):
                    if node[j + 2] == nc:
                        nxt_j = j
                        break
            js = [j for j in range(0, len(node), 3) if j != nxt_j]
            if nxt_j >= 0:
                js.append(nxt_j)
            for pos, j in enumerate(js):
                last = LAST if pos == k - 1 else 0
                t = node[j + 2]
                if j == nxt_j:
                    kind = K_NEXT
                elif t == 0:
                    kind = K_SINK
                else:
                    kind = K_ADDR
                tile.append(node[j])
                fl.append(node[j + 1] | last | (kind << 2))
                target.append(t)
        first.append(len(tile))
        self.tile, self.fl, self.target, self.first = tile, fl, target, first


def _select_opcodes(arcs: _Arcs, addr_of: list[int]) -> dict:
    """Choose up to 255 opcodes (one is the escape) greedily by bytes saved.

    Candidates: (group, None) for NEXT/SINK groups; (group, L, hi) for ADDR groups with
    L address bytes. Returns {candidate: opcode}.
    """
    from collections import Counter
    simple: Counter = Counter()
    addr_cnt: Counter = Counter()
    tile, fl, target = arcs.tile, arcs.fl, arcs.target
    for i in range(len(tile)):
        f = fl[i]
        if (f >> 2) == K_ADDR:
            addr_cnt[(tile[i], f, addr_of[target[i]])] += 1
        else:
            simple[(tile[i], f)] += 1
    # cost of each (group, addr) item now: escape
    items = list(addr_cnt.items())
    cur = [4 + _nmin(a) for (_, _, a), _ in items]
    cover: dict[tuple, list[int]] = {}
    for idx, ((t, f, a), c) in enumerate(items):
        g = (t, f)
        for L in range(4):
            if a >> (8 * L) <= 255:
                cover.setdefault((g, L, a >> (8 * L)), []).append(idx)
    counts = [c for _, c in items]

    def saving(cand) -> int:
        if cand[1] is None:
            return 3 * simple[cand[0]]
        L = cand[1]
        s = 0
        for idx in cover[cand]:
            d = cur[idx] - (1 + L)
            if d > 0:
                s += d * counts[idx]
        return s

    heap = [(-3 * c, (g, None, 0)) for g, c in simple.items()]
    heap += [(-saving(cand), cand) for cand in cover]
    heapq.heapify(heap)
    chosen: dict = {}
    while heap and len(chosen) < 255:
        negs, cand = heapq.heappop(heap)
        s = saving(cand)
        if s <= 0:
            continue
        if heap and s < -heap[0][0]:
            heapq.heappush(heap, (-s, cand))
            continue
        chosen[cand] = len(chosen)
        if cand[1] is not None:
            for idx in cover[cand]:
                if 1 + cand[1] < cur[idx]:
                    cur[idx] = 1 + cand[1]
    return chosen


def _sizes(arcs: _Arcs, ops: dict, addr_of: list[int], prev: list[int] | None) -> list[int]:
    tile, fl, target = arcs.tile, arcs.fl, arcs.target
    out = [0] * len(tile)
    for i in range(len(tile)):
        f = fl[i]
        g = (tile[i], f)
        if (f >> 2) != K_ADDR:
            s = 1 if (g, None, 0) in ops else 4
            if prev is not None and prev[i] > s:
                s = prev[i]  # sizes 1 and 4 do not change with addresses
            out[i] = s
            continue
        a = addr_of[target[i]]
        nm = _nmin(a)
        avail = [4 + n for n in range(nm, 4)]
        for L in range(nm, 4):
            if (g, L, a >> (8 * L)) in ops:
                avail.append(1 + L)
        if prev is None:
            out[i] = min(avail)
        else:
            p = prev[i]
            out[i] = min(s for s in avail if s >= p) if max(avail) >= p else p
    return out


def _addresses(arcs: _Arcs, sizes: list[int], n_nodes: int) -> tuple[list[int], int]:
    addr_of = [0] * n_nodes
    pos = 0
    first = arcs.first
    for k, v in enumerate(arcs.order):
        addr_of[v] = pos
        pos += sum(sizes[first[k]:first[k + 1]])
    return addr_of, pos


def encode_body(g: Graph, progress=None) -> tuple[bytes, bytes, int]:
    """Returns (body, opcode table, root address)."""
    if g.words == 0:
        return b"", bytes([UNUSED_TILE, 0, 0] * 255 + [ESCAPE_TILE, 0, 0]), NO_ROOT
    order, next_child = _layout(g)
    arcs = _Arcs(g, order, next_child)
    n_nodes = len(g.nodes)
    # first estimate: NEXT/SINK 1 byte, ADDR 3 bytes
    sizes = [3 if (f >> 2) == K_ADDR else 1 for f in arcs.fl]
    addr_of, total = _addresses(arcs, sizes, n_nodes)
    ops: dict = {}
    for rnd in range(2):
        ops = _select_opcodes(arcs, addr_of)
        sizes = _sizes(arcs, ops, addr_of, None)
        addr_of, total = _addresses(arcs, sizes, n_nodes)
        if progress:
            progress(f"layout round {rnd + 1}: {total} bytes")
    # settle: sizes may only grow from here on, so this terminates
    for _ in range(64):
        new = _sizes(arcs, ops, addr_of, sizes)
        if new == sizes:
            break
        sizes = new
        addr_of, total = _addresses(arcs, sizes, n_nodes)
    else:  # pragma: no cover - sizes are bounded, cannot happen
        raise RuntimeError("layout did not settle")
    # opcode table
    table = bytearray([UNUSED_TILE, 0, 0] * 256)
    table[3 * ESCAPE_OP:3 * ESCAPE_OP + 3] = bytes([ESCAPE_TILE, 0, 0])
    for cand, op in ops.items():
        (t, f), L, hi = cand
        flags = f | ((L or 0) << 4)
        table[3 * op:3 * op + 3] = bytes([t, flags, hi])
    body = bytearray()
    tile, fl, target = arcs.tile, arcs.fl, arcs.target
    for i in range(len(tile)):
        f = fl[i]
        g_ = (tile[i], f)
        s = sizes[i]
        if (f >> 2) != K_ADDR:
            if s == 1:
                body.append(ops[(g_, None, 0)])
            else:
                body += bytes([ESCAPE_OP, tile[i], f, 0])
            continue
        a = addr_of[target[i]]
        L = s - 1
        if s <= 4 and (g_, L, a >> (8 * L)) in ops:
            body.append(ops[(g_, L, a >> (8 * L))])
            if L:
                body += (a & ((1 << (8 * L)) - 1)).to_bytes(L, "big")
            continue
        n = s - 4
        hi = a >> (8 * n)
        assert 0 <= n <= 3 and hi <= 255
        body += bytes([ESCAPE_OP, tile[i], f | (n << 4), hi])
        if n:
            body += (a & ((1 << (8 * n)) - 1)).to_bytes(n, "big")
    assert len(body) == total
    return bytes(body), bytes(table), addr_of[g.root]


def _pstr(s: str) -> bytes:
    b = s.encode("utf-8")
    if len(b) > 255:
        raise ValueError(f"string too long for the header: {s[:40]!r}...")
    return bytes([len(b)]) + b


def write_image(g: Graph, meta: Meta, progress=None) -> bytes:
    body, table, root = encode_body(g, progress)
    var = _pstr(meta.language) + _pstr(meta.name) + _pstr(meta.version)
    for t, b in zip(meta.tiles, meta.blank_only):
        tb = t.encode("utf-8")
        var += bytes([BLANK_ONLY if b else 0, len(tb)]) + tb
    hlen = STRINGS_OFF + len(var) + 4
    if hlen > 0xFFFF:
        raise ValueError("header too long")
    nodes = len(g.nodes) - 1 if g.words else 0
    arcs = g.arc_count
    head = PREFIX.pack(MAGIC, MAJOR, MINOR, hlen, hlen, len(body))
    head += FIXED.pack(zlib.crc32(body), g.words, arcs, nodes, root,
                       min(g.min_len, 255), min(g.max_len, 255), len(meta.tiles), 0,
                       meta.date, meta.sha256)
    head += table + var
    head += struct.pack("<I", zlib.crc32(head))
    return head + body


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
            raise ImageError(f"unsupported format version {major}.{minor}")
        if hlen < STRINGS_OFF + 4 or boff < hlen:
            raise ImageError("damaged header (bad lengths)")
        if len(data) < hlen:
            raise ImageError(f"truncated: {len(data)} bytes, header needs {hlen}")
        (hcrc,) = struct.unpack_from("<I", data, hlen - 4)
        if zlib.crc32(data[:hlen - 4]) != hcrc:
            raise ImageError("damaged header (CRC mismatch)")
        if len(data) != boff + blen:
            kind = "truncated" if len(data) < boff + blen else "trailing bytes"
            raise ImageError(f"{kind}: {len(data)} bytes, expected {boff + blen}")
        (self.body_crc, self.words, self.arcs, self.nodes, self.root, self.min_len,
         self.max_len, ntiles, _, self.date, self.sha256) = FIXED.unpack_from(data, PREFIX.size)
        self.version = (major, minor)
        self.header_len = hlen
        self.body_offset = boff
        self.body_len = blen
        self.table = data[TABLE_OFF:TABLE_OFF + TABLE_LEN]
        pos = STRINGS_OFF
        strings = []
        try:
            for _ in range(3):
                n = data[pos]
                strings.append(data[pos + 1:pos + 1 + n].decode("utf-8"))
                pos += 1 + n
            tiles, blank = [], []
            for _ in range(ntiles):
                fl, n = data[pos], data[pos + 1]
                tiles.append(data[pos + 2:pos + 2 + n].decode("utf-8"))
                blank.append(bool(fl & BLANK_ONLY))
                pos += 2 + n
        except (IndexError, UnicodeDecodeError) as e:
            raise ImageError(f"damaged header ({e})") from None
        if pos > hlen - 4:
            raise ImageError("damaged header (tile table overruns the header)")
        self.language, self.name, self.list_version = strings
        self.tile_strings, self.blank_only = tiles, blank
        self.body = data[boff:boff + blen]
        if check_body and zlib.crc32(self.body) != self.body_crc:
            raise ImageError("damaged body (CRC mismatch)")
        if self.root != NO_ROOT and self.root >= blen:
            raise ImageError("damaged header (root address outside the body)")

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

    # -- arcs -----------------------------------------------------------------------------
    def _arc(self, pos: int) -> tuple[int, int, int, int]:
        """Decode the arc at body address pos: (tile, flags, target, next position).
        target is -1 for the sink."""
        body = self.body
        try:
            op = body[pos]
            t = self.table[3 * op]
            if t == ESCAPE_TILE:
                t, flags, hi = body[pos + 1], body[pos + 2], body[pos + 3]
                pos += 4
            else:
                flags, hi = self.table[3 * op + 1], self.table[3 * op + 2]
                pos += 1
        except IndexError:
            raise ImageError("damaged body (arc runs past the end)") from None
        if t == UNUSED_TILE:
            raise ImageError(f"damaged body (unused opcode {op})")
        kind = (flags >> 2) & 3
        n = (flags >> 4) & 3
        if kind == K_NEXT:
            return t, flags, pos, pos
        if kind == K_SINK:
            return t, flags, -1, pos
        if kind != K_ADDR:
            raise ImageError("damaged body (reserved arc kind)")
        if pos + n > len(body):
            raise ImageError("damaged body (arc runs past the end)")
        target = hi
        for k in range(n):
            target = (target << 8) | body[pos + k]
        if target >= len(body):
            raise ImageError("damaged body (address outside the body)")
        return t, flags, target, pos + n

    def arcs_at(self, node: int) -> list[tuple[int, bool, int]]:
        """[(tile, final, target)] of the node at body address node."""
        out = []
        pos = node
        while True:
            t, flags, target, pos = self._arc(pos)
            out.append((t, bool(flags & FINAL), target))
            if flags & LAST:
                return out

    def contains_tiles(self, tiles) -> bool:
        if self.root == NO_ROOT or not tiles or len(tiles) > self.max_len:
            return False
        node = self.root
        final = False
        arc = self._arc
        for t in tiles:
            if node < 0:
                return False
            pos = node
            while True:
                at, flags, target, pos = arc(pos)
                if at == t:
                    final = flags & FINAL
                    node = target
                    break
                if flags & LAST:
                    return False
        return bool(final)

    def __contains__(self, word: str) -> bool:
        tiles = self.tiles_of(word)
        return tiles is not None and self.contains_tiles(tiles)

    def iter_tile_words(self):
        """Every accepted word as a tuple of tile indices, in ascending order."""
        if self.root == NO_ROOT:
            return
        out = []
        stack = [(self.root, ())]
        seen_depth = self.max_len
        while stack:
            node, prefix = stack.pop()
            if len(prefix) >= seen_depth:
                raise ImageError("damaged body (path longer than the longest word)")
            for t, final, target in self.arcs_at(node):
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
            "shortest": self.min_len,
            "longest": self.max_len,
            "tiles": [{"tile": t, "blank_only": b} for t, b in self.tile_table()],
            "sha256": self.sha256.hex(),
            "body_crc32": f"{self.body_crc:08x}",
            "header_length": self.header_len,
            "body_offset": self.body_offset,
            "body_length": self.body_len,
            "image_length": len(self.data),
            "root": None if self.root == NO_ROOT else self.root,
        }
