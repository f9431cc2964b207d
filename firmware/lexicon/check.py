# The full check of a word graph image (docs/wordlist-format.md, section 6): what
# the device runs once, when a list is installed (the link's LEX_COMMIT, a list found
# without its record at a start, a list written to flash), before it answers from it.
# The checksums prove that the bytes are the ones the packer wrote; this also proves
# that the header fits the body, since a header whose CRC was recomputed after an
# edit passes every checksum:
#
#   1. every page's check and the body CRC (Lexicon.verify_steps);
#   2. the walk: every word of the graph, in ascending order, from the root, every
#      node decoded as a lookup decodes it and checked for what a lookup relies on
#      (every code decodes, a jump only first with FINAL and LAST clear and a
#      pointer, tiles below T and ascending, no tile of a node again in the node it
#      jumps to, at most 64 jumps, NEXT only on a LAST arc, SINK only on a FINAL one,
#      every target inside the body, no pointer into a missing group, no path longer
#      than the longest word); then the word count, the shortest and the longest word
#      and the SHA-256 of the words (section 9) against the header: the list the
#      device answers from is the one the packer was given, word for word;
#   3. the two-tile table, entry by entry, against the first two levels of the graph.
#
# Bounded RAM: one frame per tile of the current word and a fixed cache of decoded
# nodes (slots_for(): at most 64 KB, at most a quarter of the free heap, at least 4
# nodes); a node that fell out of the cache is decoded again, which costs time, never
# room.  Pages come through the reader's cache.  Bounded time: at most the header's
# word count of words, each at most the longest word long.
#
#   steps(lex, whole=None, ram=None)  a generator over an opened Lexicon
#                   (verify=False): yields (done, total); raises LexiconError
#   check(source, cache_bytes=4096)   a Lexicon over a source, checked in full

from array import array

try:
    from micropython import const
except ImportError:                 # CPython
    const = int

from lexicon.reader import Lexicon, LexiconError

_RAM = const(65536)         # at most this much RAM for the nodes kept decoded,
_RAM_SHARE = const(4)       # and at most a quarter of the free heap
_STEP = const(4096)         # words between two progress reports
_MAX_JUMPS = const(64)
_MAX_COUNT = const(0x3FFFFFFF)      # word counts stay small integers on the chip
_LOOSE = const(0x80)
_LOOSE_BITS = const(6)
_LOOSE_MAX = const(32)
_NO_GROUP = const(0xFFFFFFFF)
_K_SINK = const(0)
_K_NEXT = const(1)
_K_REL = const(2)
_K_GROUP = const(3)


def _damaged(detail):
    return LexiconError("damaged", detail)


class _Walk:
    """The walk over the graph of an opened Lexicon (see the top of this module)."""

    def __init__(self, lex, slots):
        self.lex = lex
        (self.c1, self.y1, self.s1, self.lim2, self.off2, self.sym2, self.j2, self.groups,
         self.page, self.pshift, self.bits, self.ntiles, self.align, self.prefix) = lex._t
        self.arcs = 0               # arcs decoded (figures)
        self.slots = slots
        self.keys = array("i", [-1] * slots)
        self.count = bytearray(slots)
        n = slots * self.ntiles
        self.syms = bytearray(n)
        self.fin = bytearray(n)
        self.tgts = array("i", bytes(4 * n))
        self.seen = bytearray(32)
        self.buf = None
        self.base = -(1 << 30)     # no page in hand yet

    # --- one arc ------------------------------------------------------------------

    def _byte(self, at):
        """The page holding logical byte `at` in self.buf; returns at's offset in it."""
        o = at - self.base
        if o < 0 or o >= self.page:
            p = at >> self.pshift
            self.buf = self.lex._fetch(p)
            self.base = p << self.pshift
            o = at - self.base
        return o

    def arc(self, pos, state):
        """Decode the arc at bit `pos` in previous-tile state `state`:
        (symbol, flags, target or -1 for the sink, bit after the arc)."""
        if pos >= self.bits:
            raise _damaged("arc outside the body")
        self.arcs += 1
        o = self._byte(pos >> 3)
        buf = self.buf
        v = buf[o] << 16 | buf[o + 1] << 8 | buf[o + 2]
        w = (v >> (9 - (pos & 7))) & 0x7FFF
        s1 = self.s1
        c = self.c1[state]
        y = self.y1[state]
        first = 0
        length = 0
        while True:                 # a complete code (checked at opening): it ends
            length += 1
            cnt = s1[c]
            x = (w >> (15 - length)) - first
            if x < cnt:
                break
            c += 1
            y += cnt
            first = (first + cnt) << 1
        sym = s1[y + x]
        pos += length
        o = (pos >> 3) - self.base          # the arc is whole in the slot (section 5)
        w = ((buf[o] << 16 | buf[o + 1] << 8 | buf[o + 2]) >> (9 - (pos & 7))) & 0x7FFF
        lim2 = self.lim2
        j = self.j2
        while w >= lim2[j]:
            j += 1
        x = ((w >> (14 - j)) + self.off2[j]) << 1
        pos += j + 1
        flags = self.sym2[x]
        width = self.sym2[x + 1]
        kind = flags >> 2
        if kind == _K_SINK:
            return sym, flags, -1, pos
        if kind == _K_NEXT:
            return sym, flags, pos, pos
        nb = width - 1
        value = 1
        if width == _LOOSE:
            o = (pos >> 3) - self.base
            nb = ((buf[o] << 8 | buf[o + 1]) >> (10 - (pos & 7))) & 63
            if nb > _LOOSE_MAX:
                raise _damaged("pointer too wide")
            pos += _LOOSE_BITS
            value = 0
        while nb > 0:
            take = 16 if nb > 16 else nb
            o = (pos >> 3) - self.base
            value = (value << take) | (((buf[o] << 16 | buf[o + 1] << 8 | buf[o + 2])
                                        >> (24 - (pos & 7) - take)) & ((1 << take) - 1))
            pos += take
            nb -= take
        if width != _LOOSE:
            value -= 1
        if kind == _K_REL:
            target = pos + value
        elif kind == _K_GROUP:
            g = self.groups[sym] if sym <= self.ntiles else _NO_GROUP
            if g == _NO_GROUP:
                raise _damaged("pointer into a missing group")
            target = (g + value) << self.align
        else:
            target = value << self.align
        if target >= self.bits:
            raise _damaged("address outside the body")
        return sym, flags, target, pos

    # --- the nodes ------------------------------------------------------------------------

    def load(self, node, slot):
        """Decode the node at bit `node` into cache slot `slot`: its arcs, jumps
        followed, in ascending tile order, each checked as a lookup relies on it."""
        ntiles = self.ntiles
        at = slot * ntiles
        seen = self.seen
        for i in range(32):
            seen[i] = 0
        syms = self.syms
        fin = self.fin
        tgts = self.tgts
        n = 0
        pos = node
        state = 0
        prev = -1
        jump = -1
        jumps = 0
        while True:
            sym, flags, target, pos = self.arc(pos, state)
            if sym == ntiles:
                # a jump: only the very first symbol of a node (or of the node it
                # continues in), FINAL and LAST clear, with a pointer
                if state or jump >= 0 or flags & 3 or (flags >> 2) < _K_REL:
                    raise _damaged("misplaced jump")
                jump = target
                continue
            if sym > ntiles or sym <= prev:
                raise _damaged("tiles out of order")
            if seen[sym >> 3] & (1 << (sym & 7)):
                raise _damaged("a tile twice in a node")
            seen[sym >> 3] |= 1 << (sym & 7)
            kind = flags >> 2
            if (kind == _K_NEXT and not flags & 2) or (kind == _K_SINK and not flags & 1):
                raise _damaged("arc kind")
            # insert in tile order (the arcs of the node jumped to come after)
            i = at + n
            while i > at and syms[i - 1] > sym:
                syms[i] = syms[i - 1]
                fin[i] = fin[i - 1]
                tgts[i] = tgts[i - 1]
                i -= 1
            syms[i] = sym
            fin[i] = flags & 1
            tgts[i] = target
            n += 1
            prev = sym
            state = sym + 1
            if flags & 2:               # the LAST arc: on in the node jumped to, or done
                if jump < 0:
                    break
                jumps += 1
                if jumps > _MAX_JUMPS:
                    raise _damaged("too many jumps")
                pos = jump
                jump = -1
                state = 0
                prev = -1
        self.keys[slot] = node
        self.count[slot] = n

    def run(self):
        """A generator: every word of the graph in ascending order, each node's arcs
        from the cache (decoded again when it fell out); yields the words so far
        every _STEP words; finally checks the counts and the SHA-256 of the words
        against the header."""
        import hashlib

        lex = self.lex
        ntiles = self.ntiles
        longest = lex.longest
        limit = lex.word_count
        f_node = [0] * (longest + 1)
        f_next = [0] * (longest + 1)
        word = bytearray(longest + 1)
        mv = memoryview(word)
        sha = hashlib.sha256()
        keys = self.keys
        count = self.count
        syms = self.syms
        fin = self.fin
        tgts = self.tgts
        mask = self.slots - 1
        words = 0
        shortest = 255
        longest_seen = 0
        report = _STEP
        f_node[0] = lex.root
        d = 0
        while d >= 0:
            node = f_node[d]
            slot = (node ^ (node >> 7) ^ (node >> 17)) & mask
            if keys[slot] != node:
                self.load(node, slot)
            i = f_next[d]
            if i >= count[slot]:
                d -= 1
                continue
            f_next[d] = i + 1
            k = slot * ntiles + i
            word[d] = syms[k]
            if fin[k]:
                words += 1
                if words > limit:
                    raise _damaged("more words than the header says")
                if d + 1 < shortest:
                    shortest = d + 1
                if d + 1 > longest_seen:
                    longest_seen = d + 1
                word[d + 1] = 0xFF if d + 1 < longest else 0
                if d + 1 < longest:
                    sha.update(mv[:d + 2])
                else:
                    sha.update(mv[:d + 1])
                    sha.update(b"\xff")
                if words >= report:
                    report = words + _STEP
                    yield words
            target = tgts[k]
            if target >= 0:
                if d + 1 >= longest:
                    raise _damaged("a path longer than the longest word")
                d += 1
                f_node[d] = target
                f_next[d] = 0
        if (words, shortest, longest_seen) != (limit, lex.shortest, longest):
            raise _damaged("the header's counts differ from the graph's (%d words, %d-%d)"
                           % (words, shortest, longest_seen))
        want = bytearray(32)
        lex.source.read_at(56, want)
        if sha.digest() != want:
            raise _damaged("the words differ from the header's SHA-256")

    # --- the two-tile table ------------------------------------------------------------

    def entries(self, node, row):
        """row[t]: the two-tile table's entry for tile t after `node`, from the node's
        arcs, jumps followed (a node the walk has checked)."""
        pos = node
        state = 0
        jump = -1
        while True:
            sym, flags, target, pos = self.arc(pos, state)
            if sym == self.ntiles:
                jump = target
                continue
            row[sym] = ((target + 1 if target >= 0 else 0) << 1) | (flags & 1)
            state = sym + 1
            if flags & 2:
                if jump < 0:
                    return
                pos = jump
                jump = -1
                state = 0


def _prefix_table(walk):
    """Every entry of the two-tile table against the graph; yields after each row."""
    ntiles = walk.ntiles
    first = array("i", bytes(4 * ntiles))   # the root's entries: node after one tile
    walk.entries(walk.lex.root, first)
    row = array("i", bytes(4 * ntiles))
    for t1 in range(ntiles):
        for t2 in range(ntiles):
            row[t2] = 0
        node = (first[t1] >> 1) - 1
        if node >= 0:
            walk.entries(node, row)
        at = 4 * t1 * ntiles
        for t2 in range(ntiles):
            o = walk._byte(at)
            buf = walk.buf
            if (buf[o] << 24 | buf[o + 1] << 16 | buf[o + 2] << 8 | buf[o + 3]) != row[t2]:
                raise _damaged("two-tile table entry %d,%d differs from the graph" % (t1, t2))
            at += 4
        yield t1


def slots_for(ntiles, ram=None):
    """Nodes kept decoded (a power of two, at least 4) in `ram` bytes, by default
    _RAM or a quarter of the free heap, whichever is less: each costs 5 + 6 x tiles
    bytes."""
    if ram is None:
        import gc

        ram = _RAM
        if hasattr(gc, "mem_free"):
            gc.collect()
            ram = min(ram, gc.mem_free() // _RAM_SHARE)
    slots = 4
    while 2 * slots * (5 + 6 * ntiles) <= ram:
        slots *= 2
    return slots


def steps(lex, whole=None, ram=None):
    """The full check of an opened Lexicon (opened with verify=False): a generator that
    yields (done, total) as it goes, total the pages plus the words the header gives;
    raises LexiconError("damaged") for what the device must not answer from.
    whole: see Lexicon.verify_steps; ram: see slots_for()."""
    pages = lex._pages
    words = lex.word_count
    total = pages + words
    for done, _ in lex.verify_steps(whole=whole):
        yield (done, total)
    slots = slots_for(len(lex.tiles), ram)
    while True:
        try:
            walk = _Walk(lex, slots)
            break
        except MemoryError:         # the heap had less room in one piece: fewer nodes
            if slots <= 4:
                raise _damaged("not enough memory to check a list of %d tiles"
                               % len(lex.tiles))
            slots //= 2
    for done in walk.run():
        yield (pages + done, total)
    if lex._t[-1]:
        for _ in _prefix_table(walk):
            pass
    yield (total, total)


def check(source, cache_bytes=4096):
    """A Lexicon over `source` (lexicon.sources.FileSource, lexicon.partsource's
    PartitionSource or anything with read_at(), size and exact), checked in full:
    returned with verified_now set and its digest to record.  Raises LexiconError for
    an image the device must not answer from; the source is closed then."""
    lex = Lexicon(source, cache_bytes, verify=False)
    try:
        for _ in steps(lex):
            pass
    except BaseException as e:
        lex.close()
        raise e
    lex.verified_now = True
    return lex
