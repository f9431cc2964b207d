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
#   steps(lex, whole=None, ram=None)  a generator over an opened lexicon.reader.Lexicon
#                   (verify=False): yields (done, total); raises LexiconError
#
# The arcs are decoded by the reader's own decoder (Lexicon.arc), the one lookups use: the
# check walks exactly what a lookup reads.  A list checked in full at opening:
# lexicon.reader.open_source(source) (Lexicon.verify runs steps()).

from array import array

try:
    from micropython import const
except ImportError:                 # CPython
    const = int

from lexicon.format import K_NEXT, K_REL, K_SINK, MAX_JUMPS, damaged

_RAM = const(65536)         # at most this much RAM for the nodes kept decoded,
_RAM_SHARE = const(4)       # and at most a quarter of the free heap
_STEP = const(4096)         # words between two progress reports


class _Walk:
    """The walk over the graph of an opened Lexicon (see the top of this module)."""

    def __init__(self, lex, slots):
        self.lex = lex
        self.ntiles = len(lex.tiles)
        self.arcs = 0               # arcs decoded (figures)
        self.out = array("i", (0, 0, 0))   # one decoded arc: tile, flags, target
        self.slots = slots
        self.keys = array("i", [-1] * slots)
        self.count = bytearray(slots)
        n = slots * self.ntiles
        self.syms = bytearray(n)
        self.fin = bytearray(n)
        self.tgts = array("i", bytes(4 * n))
        self.seen = bytearray(32)

    def arc(self, pos, state):
        """The arc at bit `pos` in previous-tile state `state` (Lexicon.arc):
        (tile, flags, target or -1 for the sink, bit after the arc)."""
        self.arcs += 1
        out = self.out
        pos = self.lex.arc(pos, state, out)
        return out[0], out[1], out[2], pos

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
                if state or jump >= 0 or flags & 3 or (flags >> 2) < K_REL:
                    raise damaged("misplaced jump")
                jump = target
                continue
            if sym > ntiles or sym <= prev:
                raise damaged("tiles out of order")
            if seen[sym >> 3] & (1 << (sym & 7)):
                raise damaged("a tile twice in a node")
            seen[sym >> 3] |= 1 << (sym & 7)
            kind = flags >> 2
            if (kind == K_NEXT and not flags & 2) or (kind == K_SINK and not flags & 1):
                raise damaged("arc kind")
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
                if jumps > MAX_JUMPS:
                    raise damaged("too many jumps")
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
                    raise damaged("more words than the header says")
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
                    raise damaged("a path longer than the longest word")
                d += 1
                f_node[d] = target
                f_next[d] = 0
        if (words, shortest, longest_seen) != (limit, lex.shortest, longest):
            raise damaged("the header's counts differ from the graph's (%d words, %d-%d)"
                           % (words, shortest, longest_seen))
        want = bytearray(32)
        lex.source.read_at(56, want)
        if sha.digest() != want:
            raise damaged("the words differ from the header's SHA-256")

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
        for t2 in range(ntiles):
            if walk.lex.entry(t1, t2) != row[t2]:
                raise damaged("two-tile table entry %d,%d differs from the graph" % (t1, t2))
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
    pages = lex.pages
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
                raise damaged("not enough memory to check a list of %d tiles"
                               % len(lex.tiles))
            slots //= 2
    for done in walk.run():
        yield (pages + done, total)
    if lex.two_tile:
        for _ in _prefix_table(walk):
            pass
    yield (total, total)

