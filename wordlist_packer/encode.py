"""The image body as a bit stream (docs/wordlist-format.md, sections 3 and 4).

Every arc is two Huffman codes and, for a pointer, its payload:

* S1, the tile (or JUMP at the start of a node), coded with the table of the *context*:
  the tile of the previous arc of the node, or the start of a node;
* S2, the arc's flags (FINAL, LAST), its kind (SINK, NEXT, REL, GROUP, ABS) and the
  width of its pointer, coded with one table for the whole body;
* the pointer: `width - 1` bits, the value plus one without its leading 1 bit.

Tables are tuned on the list being packed and travel in the header. Pointer widths depend
on addresses, addresses on code lengths, code lengths on how often each width occurs, so
sizes are iterated until nothing changes.
"""

from __future__ import annotations

from array import array
from collections import Counter
from itertools import accumulate, repeat
from operator import add, and_, mod, or_, rshift, sub
from typing import Iterable

from . import huffman
from .graph import Graph
from .layout import Layout

SINK, NEXT, REL, GROUP, ABS = range(5)
FINAL = 1
LAST = 2
MAX_WIDTH = 25          # pointer values below 2**25 - 1
MAX_CONTEXTS = 64
PREFIX_MAX_TILES = 64     # the two-tile table: T * T entries of 4 bytes
PREFIX_ENTRY = 4
NO_GROUP = 0xFFFFFFFF
LOOSE = 0x80            # S2 width byte of a loose pointer: LOOSE_BITS give its width,
LOOSE_BITS = 6          # then the value in that many bits (no implicit leading 1),
LOOSE_MAX = 32          # at most this many: an arc stays within 68 bits


class LayoutError(ValueError):
    pass


class Body:
    """The encoded body: logical bytes (before page checks) and what the header says
    about them."""

    def __init__(self) -> None:
        self.data = b""
        self.root = -1              # bit address, -1 for an empty list
        self.ctxmap = b""           # prev-state -> context
        self.s1: list[tuple[list[int], list[int]]] = []
        self.s2: tuple[list[int], list[int]] = ([], [])
        self.group_base: list[int] = []
        self.align_shift = 3
        self.arcs = 0
        self.nodes = 0
        self.jumps = 0
        self.prefix_table = False   # the body starts with the two-tile table
        self.stored: StoredNodes | None = None


def prefix_entry(final: int, target: int) -> int:
    """Entry of the two-tile table: 0 no word starts so; else the target's bit address
    plus one (0 for the sink) times two, plus FINAL."""
    return ((target + 1 if target >= 0 else 0) << 1) | final


def _contexts(counts_by_state: list[dict], limit: int) -> tuple[bytes, list[dict]]:
    """Merge the rarest previous-tile states until at most `limit` contexts remain."""
    states = [s for s in range(len(counts_by_state)) if counts_by_state[s]]
    if len(states) <= limit:
        keep = states
    else:
        totals = sorted(states, key=lambda s: (-sum(counts_by_state[s].values()), s))
        keep = sorted(totals[:limit - 1])
    index = {s: i for i, s in enumerate(keep)}
    rest = len(keep)
    tables: list[dict] = [dict() for _ in keep]
    ctxmap = bytearray(len(counts_by_state))
    for s in range(len(counts_by_state)):
        if s in index:
            ctxmap[s] = index[s]
            tables[index[s]] = dict(counts_by_state[s])
        elif counts_by_state[s]:
            ctxmap[s] = rest
            if True:
                if len(tables) == rest:
                    tables.append({})
                t = tables[rest]
                for k, c in counts_by_state[s].items():
                    t[k] = t.get(k, 0) + c
    if not tables:
        tables = [{}]
    return bytes(ctxmap), tables


def encode(g: Graph, ntiles: int, align_shift: int = 3, max_contexts: int = MAX_CONTEXTS,
           progress=None, prefix_table: bool | None = None,
           rounds: tuple[int, int] = (4, 8)) -> Body:
    """prefix_table: start the body with the two-tile table (None: when it costs at
    most an eighth of the graph, as for a real list). rounds: how many sizing rounds
    make the S2 code again, and how many keep it before arcs may only grow (tests set
    few, so that the last way of settling is taken)."""
    body = Body()
    body.align_shift = align_shift
    T = ntiles
    states = T + 1
    if g.words == 0:
        body.ctxmap = bytes(states)
        body.s1 = [([], [])]
        body.group_base = [NO_GROUP] * (T + 1)
        return body
    lay = Layout(g, T)
    if progress:
        progress(f"layout: {len(lay.order)} nodes, {sum(1 for j in lay.jump if j)} jumps")
    own, jump, tree, group, first_kid = lay.nodes, lay.jump, lay.tree, lay.group, lay.first_kid
    order = lay.order
    # one record per arc, in body order
    s1: list[int] = []       # state * (T + 1) + symbol (symbol T: JUMP)
    fl: list[int] = []       # flags byte: FINAL | LAST << 1 | kind << 2
    tgt: list[int] = []
    grp: list[int] = []
    first: list[int] = []
    for v in order:
        first.append(len(s1))
        a = jump[v]
        if a:
            kind = REL if tree[a] else (GROUP if group[a] == T else ABS)
            s1.append(T)
            fl.append(kind << 2)
            tgt.append(a)
            grp.append(T)
        x = own[v]
        k = len(x) // 3
        state = 0
        for i in range(k):
            t, f, c = x[3 * i], x[3 * i + 1], x[3 * i + 2]
            last = i == k - 1
            if c == 0:
                kind = SINK
            elif tree[c]:
                kind = NEXT if last and c == first_kid[v] else REL
            elif group[c] == t:
                kind = GROUP
            else:
                kind = ABS
            s1.append(state * states + t)
            fl.append(f | (LAST if last else 0) | kind << 2)
            tgt.append(c)
            grp.append(t)
            state = t + 1
    first.append(len(s1))
    body.arcs = len(s1) - sum(1 for v in order if jump[v])
    body.nodes = len(order)
    body.jumps = len(s1) - body.arcs

    # S1: contexts and codes (they do not depend on addresses)
    by_state: list[dict] = [dict() for _ in range(states)]
    for key, n in Counter(s1).items():      # symbols in the order they first occur
        by_state[key // states][key % states] = n
    ctxmap, tables = _contexts(by_state, max_contexts)
    body.ctxmap = ctxmap
    s1_codes = []
    s1_len: dict[int, tuple[int, int]] = {}
    for ci, counts in enumerate(tables):
        if len(counts) == 1:        # a complete code needs two symbols: add one unused
            (only,) = counts
            counts = {only: 1, (only + 1) % states: 1}
        lengths = huffman.code_lengths(counts)
        cnt, syms = huffman.canonical(lengths)
        s1_codes.append((cnt, syms))
    body.s1 = s1_codes
    for state in range(states):
        cnt, syms = s1_codes[ctxmap[state]]
        for sym, cl in huffman.codes(cnt, syms).items():
            s1_len[state * states + sym] = cl
    len1 = [s1_len[k][1] for k in s1]

    # S2 and the addresses, iterated together
    n_arcs = len(s1)
    is_ptr = [(f >> 2) >= REL for f in fl]
    st = _Sizing(order, first, lay.shared, dict(lay.group_order), align_shift, fl, tgt, grp)
    widths = [0] * n_arcs
    guess = (3, 3, 13, 11, 18)       # first estimate of S2 + payload bits by kind
    sizes = [l1 + guess[f >> 2] for l1, f in zip(len1, fl)]
    fl8 = array("l", [f << 8 for f in fl])    # an arc's S2 key: fl8 | width
    if prefix_table is None:
        prefix_table = PREFIX_ENTRY * T * T * 8 * 8 <= sum(sizes)
    body.prefix_table = bool(prefix_table) and T <= PREFIX_MAX_TILES
    if body.prefix_table:
        st.start = 8 * PREFIX_ENTRY * T * T
    s2_code: dict[int, tuple[int, int]] = {}
    s2_table: tuple[list[int], list[int]] = ([], [])
    settled = False
    # 1. rounds with the S2 code made again each time from how often each width occurs
    table_rounds, fixed_rounds = rounds
    for rnd in range(max(1, table_rounds)):
        st.place(sizes)
        widths = st.exact_widths()
        s2_table = huffman.canonical(huffman.code_lengths(_s2_counts(map(or_, fl8, widths))))
        s2_code = huffman.codes(*s2_table)
        new = _arc_sizes(len1, map(or_, fl8, widths), s2_code)
        if progress:
            progress(f"coding round {rnd + 1}: {(st.total + 7) // 8} bytes")
        if new == sizes:
            settled = True
            break
        sizes = new
    if not settled:
        # 2. the S2 code fixed, with codes for neighbouring widths and a loose pointer
        # (explicit width) for each kind of pointer arc
        counts = _s2_counts(map(or_, fl8, widths))
        spread: dict[int, list[int]] = {}
        for key in counts:
            if key & 0xFF:
                spread.setdefault(key >> 8, []).append(key & 0xFF)
        for f, ws in spread.items():
            for w in range(min(ws), min(MAX_WIDTH, max(ws) + 2) + 1):
                counts.setdefault(f << 8 | w, 1)
            counts.setdefault(f << 8 | LOOSE, 1)
        s2_table = huffman.canonical(huffman.code_lengths(counts))
        s2_code = huffman.codes(*s2_table)
        sizes = _arc_sizes(len1, map(or_, fl8, widths), s2_code)
        for rnd in range(fixed_rounds):
            st.place(sizes)
            widths = st.exact_widths()
            widths = [w if not w or (f8 | w) in s2_code else LOOSE | w
                      for f8, w in zip(fl8, widths)]
            new = _arc_sizes(len1, map(or_, fl8, widths), s2_code)
            if progress:
                progress(f"coding round {table_rounds + rnd + 1}: {(st.total + 7) // 8} bytes")
            if new == sizes:
                settled = True
                break
            sizes = new
    if not settled:
        # 3. from here on an arc only grows: a pointer that would shrink is written
        # loose, padded to its former size; sizes are bounded, so this ends
        for rnd in range(10_000):
            st.place(sizes)
            values = st.values()
            changed = False
            for i in st.ptr:
                f = fl[i]
                v = values[i]
                w = (v + 1).bit_length()
                key = f << 8 | w
                exact = len1[i] + s2_code[key][1] + w - 1 if key in s2_code else 0
                target = sizes[i]
                fixed = len1[i] + s2_code[f << 8 | LOOSE][1] + LOOSE_BITS
                if exact == target:
                    widths[i] = w
                elif fixed + v.bit_length() <= target <= fixed + LOOSE_MAX:
                    widths[i] = LOOSE | (target - fixed)      # the same size, padded
                else:
                    loose = fixed + v.bit_length()
                    if exact > target and (exact <= loose or loose < target):
                        widths[i] = w
                        sizes[i] = exact
                    else:
                        widths[i] = LOOSE | v.bit_length()
                        sizes[i] = loose
                    changed = True
            if progress and rnd % 10 == 0:
                progress(f"settling round {rnd + 1}: {(st.total + 7) // 8} bytes")
            if not changed:
                break
        else:  # pragma: no cover - every round grows something bounded
            raise LayoutError("arc sizes did not settle")
    body.s2 = s2_table
    addr = st.addresses(len(g.nodes))
    gbase = st.gbase
    total = st.total
    body.group_base = [gbase.get(gi, NO_GROUP) for gi in range(T + 1)]
    body.root = addr[g.root]
    s2keys = [fl[i] << 8 | (LOOSE if widths[i] & LOOSE else widths[i]) for i in range(n_arcs)]
    values = st.values()
    n_nodes = len(order)

    # the bits
    out = bytearray()
    if body.prefix_table:
        table = [0] * (T * T)
        root = g.nodes[g.root]
        for j in range(0, len(root), 3):
            t1, c1 = root[j], root[j + 2]
            x = g.nodes[c1]
            for k in range(0, len(x), 3):
                c2 = x[k + 2]
                table[t1 * T + x[k]] = prefix_entry(x[k + 1], addr[c2] if c2 else -1)
        if max(table) >= 1 << 30:
            raise LayoutError("word list too large for the two-tile table")
        for v in table:
            out += v.to_bytes(PREFIX_ENTRY, "big")
    acc = 0
    nacc = 0
    pos = st.start
    for k in range(n_nodes):
        v = order[k]
        a = addr[v]
        if a != pos:
            pad = a - pos          # alignment: zero bits
            acc <<= pad
            nacc += pad
            pos = a
        for i in range(first[k], first[k + 1]):
            c1, l1 = s1_len[s1[i]]
            key = s2keys[i]
            c2, l2 = s2_code[key]
            bits = (c1 << l2) | c2
            n = l1 + l2
            if is_ptr[i]:
                w = widths[i]
                value = values[i]
                if w & LOOSE:
                    w &= ~LOOSE
                    assert value < 1 << w, (i, w, value)
                    bits = (((bits << LOOSE_BITS) | w) << w) | value
                    n += LOOSE_BITS + w
                else:
                    assert (1 << (w - 1)) <= value + 1 < (1 << w), (i, w, value)
                    bits = (bits << (w - 1)) | ((value + 1) & ((1 << (w - 1)) - 1))
                    n += w - 1
            acc = (acc << n) | bits
            nacc += n
            pos += n
            if nacc >= 64:
                nacc -= 64
                out += (acc >> nacc).to_bytes(8, "big")
                acc &= (1 << nacc) - 1
    if nacc:
        pad = (8 - nacc % 8) % 8
        out += (acc << pad).to_bytes((nacc + pad) // 8, "big")
    assert pos == total, (pos, total)
    body.data = bytes(out)
    body.stored = StoredNodes(st, first, s1, states, fl, tgt, addr, sizes)
    return body


class StoredNodes:
    """The stored nodes as the reader decodes them (pagereads.Model.records), told by
    the encoder's lists instead of decoded from the bits: choosing the pages the header
    names resident then decodes nothing. Kept in arrays, one entry per arc."""

    def __init__(self, st: "_Sizing", first, s1, states, fl, tgt, addr, sizes) -> None:
        self._node_addr = array("q", st.node_addr)
        self._at: dict[int, int] = {}       # address -> position, made when first asked
        self._first = array("l", first)
        self._tile = array("H", map(mod, s1, repeat(states)))
        self._final = bytes(map(and_, fl, repeat(FINAL)))
        where = [-1] + addr[1:]             # the sink: -1
        self._target = array("q", map(where.__getitem__, tgt))
        self._start = array("q", map(sub, st.ends, sizes))

    def records(self, pos: int, page_shift: int) -> list[tuple[int, int, int, int]]:
        """(tile or JUMP, final, target or -1, page of its start) for each arc of the
        node at bit address pos, in body order."""
        if not self._at:
            self._at = {a: k for k, a in enumerate(self._node_addr)}
        k = self._at[pos]
        shift = page_shift + 3
        tile, final, target, start = self._tile, self._final, self._target, self._start
        return [(tile[i], final[i], target[i], start[i] >> shift)
                for i in range(self._first[k], self._first[k + 1])]


def _s2_counts(keys: Iterable[int]) -> dict[int, int]:
    counts = Counter(keys)
    if len(counts) == 1:            # a complete code needs two symbols: add one unused
        (only,) = counts
        counts[(FINAL | LAST | SINK << 2) << 8 if only != (FINAL | LAST | SINK << 2) << 8
               else (FINAL | SINK << 2) << 8] = 1
    return counts


def _arc_sizes(len1: list[int], keys: Iterable[int], s2_code: dict) -> list[int]:
    """Bits of each arc: its S1 code, then its S2 code and pointer, by S2 key (flags << 8
    | width, LOOSE | width for a loose pointer)."""
    bits = {}
    for key, (_, n) in s2_code.items():
        w = key & 0xFF
        if w == LOOSE:
            for lw in range(LOOSE_MAX + 1):
                bits[key | lw] = n + LOOSE_BITS + lw
        else:
            bits[key] = n + (w - 1 if w else 0)
    return list(map(add, len1, map(bits.__getitem__, keys)))


class _Sizing:
    """Addresses from arc sizes (aligned nodes start on a multiple of the alignment),
    pointer values from addresses. A round is a few passes over flat lists, without
    Python code per arc."""

    def __init__(self, order, first, aligned, group_first, align_shift, fl, tgt, grp):
        self.order, self.first = order, first[:-1]       # first arc of each node
        self.aligned_first = [first[k] for k, v in enumerate(order) if v in aligned]
        self.shift = align_shift
        position = {v: k for k, v in enumerate(order)}
        self.heads = [(gi, position[v]) for gi, v in group_first.items()]
        self.node_addr: list[int] = []      # bit address of each node, in body order
        self.ends: list[int] = []           # bit address after each arc
        self.gbase: dict[int, int] = {}
        self.total = 0
        self.start = 0              # bit address of the first node
        # An arc's value is (its target's address >> shift) - base, where shift and base
        # are for REL 0 and the arc's end, for GROUP the alignment and its group's base,
        # for ABS the alignment and 0. An arc without a pointer gets -1 (width 0): target
        # address 0, base 1. Targets are looked up in the node addresses + [0], bases in
        # the ends + the group bases + [0, 1].
        kinds = [f >> 2 for f in fl]
        self.ptr = [i for i, k in enumerate(kinds) if k >= REL]
        self.no_ptr = len(fl) - len(self.ptr)
        nowhere = len(order)
        self.target = array("l", [position[c] if k >= REL else nowhere
                                    for c, k in zip(tgt, kinds)])
        self.value_shift = [align_shift if k >= GROUP else 0 for k in kinds]
        self.groups = sorted(group_first)
        n = len(fl)
        slot = {gi: n + j for j, gi in enumerate(self.groups)}
        zero = n + len(self.groups)
        self.base = array("l", [i if k == REL else slot[g] if k == GROUP else zero if k == ABS
                                else zero + 1 for i, (k, g) in enumerate(zip(kinds, grp))])

    def place(self, sizes: list[int]) -> None:
        mask = (1 << self.shift) - 1
        cum = list(accumulate(sizes, initial=self.start))
        delta = [0] * len(sizes)    # padding before each arc
        off = 0
        for i in self.aligned_first:
            pad = -(cum[i] + off) & mask
            if pad:
                delta[i] = pad
                off += pad
        self.ends = ends = list(map(add, cum[1:], accumulate(delta)))
        # a node starts where its first arc ends less that arc's size
        self.node_addr = list(map(sub, map(ends.__getitem__, self.first),
                                  map(sizes.__getitem__, self.first)))
        self.gbase = {gi: self.node_addr[k] >> self.shift for gi, k in self.heads}
        self.total = ends[-1] if ends else 0

    def addresses(self, n: int) -> list[int]:
        """Bit address of each node by node id (0 for the sink)."""
        addr = [0] * n
        for v, a in zip(self.order, self.node_addr):
            addr[v] = a
        return addr

    def values(self) -> list[int]:
        """The value of each arc's pointer (-1 for an arc without one)."""
        addr = self.node_addr + [0]
        bases = self.ends + [self.gbase[gi] for gi in self.groups] + [0, 1]
        return list(map(sub, map(rshift, map(addr.__getitem__, self.target), self.value_shift),
                        map(bases.__getitem__, self.base)))

    def exact_widths(self) -> list[int]:
        """The width of each arc's pointer (0 for an arc without one)."""
        values = self.values()
        widths = list(map(int.bit_length, map((1).__add__, values)))
        if values and (min(values) < -1 or widths.count(0) != self.no_ptr):
            raise LayoutError("pointer backwards")  # pragma: no cover
        if widths and max(widths) > MAX_WIDTH:
            raise LayoutError("word list too large for the image format")
        return widths
