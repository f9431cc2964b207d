"""Flash page reads of the device's lookups, counted without the device.

A model of `firmware/lexicon/reader.py`: the page the reader asks for at every arc it
decodes (it asks when the arc starts outside the page in hand), fed to a copy of its
cache (slots of one page each, segmented LRU: a page asked for again while cached is
*hot* and evicted only after the cold ones, two slots kept for pages read once), beside
the pages the image's header names resident (the reader loads them when it opens the
list and never reads them again). `tests/host/test_packer_pagereads.py` checks the counts
against the reader itself.

`cold_reads(img)` walks every word of the image with a cold cache per word (what a
lookup costs after the device has looked up nothing else): the figures
`bench/bench_lexicon.py` prints and `docs/packer.md` records.
"""

from __future__ import annotations

from .encode import FINAL, LAST, PREFIX_ENTRY
from .image import CHECK, Image

OVERHANG = 12
HOT = 1 << 26
COLD_SLOTS = 2
DEVICE_CACHE = 4096          # bytes: firmware/app's cache_bytes


def cache_slots(img: Image, cache_bytes: int = DEVICE_CACHE) -> int:
    return max(1, cache_bytes // ((1 << img.page_shift) + CHECK + OVERHANG))


class Cache:
    """The reader's cache (Lexicon._fetch), counting reads; resident: the pages the
    reader holds besides it (asking for one touches nothing)."""

    def __init__(self, slots: int, resident=frozenset()) -> None:
        self.resident = resident
        self.tags = [-1] * slots
        self.stamps = [0] * slots
        self.tick = 0
        self.reads = 0

    def copy(self) -> "Cache":
        c = Cache.__new__(Cache)
        c.resident = self.resident
        c.tags = self.tags[:]
        c.stamps = self.stamps[:]
        c.tick = self.tick
        c.reads = self.reads
        return c

    def fetch(self, page: int) -> None:
        if page in self.resident:
            return
        tags, stamps = self.tags, self.stamps
        self.tick = tick = self.tick + 1
        if page in tags:
            slot = tags.index(page)
            if not stamps[slot] & HOT:
                hot = 0
                oldest = -1
                for i in range(len(stamps)):
                    if stamps[i] & HOT:
                        hot += 1
                        if oldest < 0 or stamps[i] < stamps[oldest]:
                            oldest = i
                if hot >= len(stamps) - COLD_SLOTS and oldest >= 0:
                    stamps[oldest] &= ~HOT
            stamps[slot] = tick | HOT
        else:
            slot = stamps.index(min(stamps))
            tags[slot] = page
            stamps[slot] = tick
            self.reads += 1


class Model:
    """The pages the reader fetches, per step of a lookup. records: where the stored
    nodes come from (see Model.records); the packer passes its own, made from the
    addresses it has just laid out, so that choosing the resident pages decodes nothing."""

    def __init__(self, img: Image, records=None) -> None:
        self.img = img
        self.shift = img.page_shift + 3          # bit address -> page
        self._steps: dict[int, dict[int, tuple]] = {}
        if records is not None:
            self.records = records

    def records(self, pos: int) -> list[tuple[int, int, int, int]]:
        """The stored node at bit address pos, in the order the reader decodes it:
        (tile, final, target, page of the arc's start) for each arc, the jump first (tile
        ntiles) if the node has one; target -1 is the sink."""
        img, shift, T = self.img, self.shift, self.img.ntiles
        out = []
        state = 0
        while True:
            sym, flags, value, end, _ = img._arc(pos, state)
            out.append((sym, flags & FINAL, img._target(sym, flags, value, end), pos >> shift))
            if sym != T:
                if flags & LAST:
                    return out
                state = sym + 1
            pos = end

    def step(self, node: int) -> dict[int, tuple]:
        """tile -> (pages asked for at arc starts, in order, final, target) for the scan
        of `node` that finds that tile (jumps followed as the reader does)."""
        got = self._steps.get(node)
        if got is not None:
            return got
        T = self.img.ntiles
        # the arcs the reader decodes, in its order: the jump first, then the own arcs;
        # for a tile it scans the own arcs up to the tile (or a larger one / LAST) and
        # then continues at the jump
        out: dict[int, tuple] = {}
        chain: list[tuple[list, list]] = []      # per stored node: (own arcs, pages)
        pos = node
        for _ in range(64 + 1):
            pages = []
            arcs = []
            jump = -1
            for sym, final, target, page in self.records(pos):
                pages.append(page)
                if sym == T:
                    jump = target
                else:
                    arcs.append((sym, final, target, len(pages)))
            chain.append((arcs, pages))
            if jump < 0:
                break
            pos = jump
        if len(chain) == 1:         # no jump: the arcs up to the tile
            arcs, pages = chain[0]
            for sym, final, target, upto in arcs:
                out[sym] = tuple(pages[:upto]), final, target
        else:
            for arcs, _ in chain:
                for sym, _, _, _ in arcs:
                    out[sym] = self._scan(chain, sym)
        self._steps[node] = out
        return out

    @staticmethod
    def _scan(chain, t):
        seq: list[int] = []
        for arcs, pages in chain:
            has_jump = len(pages) > len(arcs)
            if has_jump:
                seq.append(pages[0])
            for sym, final, target, upto in arcs:
                seq.append(pages[upto - 1])
                if sym == t:
                    return tuple(seq), final, target
                if sym > t:
                    break
        raise AssertionError("tile not in node")  # pragma: no cover

    def fetches(self, tiles) -> list[int]:
        """Every page the reader asks its cache for while looking up tiles (a word of
        the list), in order, repeats of the page in hand left out."""
        img = self.img
        seq: list[int] = []
        node = img.root
        k = 0
        if img.prefix_depth and len(tiles) >= 2:
            at = PREFIX_ENTRY * (tiles[0] * img.ntiles + tiles[1])
            seq.append(at >> img.page_shift)
            entry = img.prefix(tiles[0], tiles[1])
            if entry is None:
                return seq
            node = entry[1]
            k = 2
        for t in tiles[k:]:
            got = self.step(node).get(t)
            if got is None:
                raise ValueError("not a word of the image")
            pages, _, node = got
            seq.extend(pages)
        return [p for i, p in enumerate(seq) if i == 0 or p != seq[i - 1]]

    def reads(self, tiles, slots: int, resident=None) -> int:
        """Page reads of one lookup with a cold cache of `slots` slots, beside the
        resident pages (None: all those the header names)."""
        c = Cache(slots, _resident(self.img, resident))
        for p in self.fetches(tiles):
            c.fetch(p)
        return c.reads


def _dedup(seq, last):
    out = []
    for p in seq:
        if p != last:
            out.append(p)
            last = p
    return out, last


def _resident(img: Image, resident) -> frozenset:
    return frozenset(img.resident if resident is None else resident)


def hot_pages(img: Image, k: int, sample: int = 20_000, seed: int = 1,
              words=None, records=None) -> list[int]:
    """The k pages most words read (on an even sample of the words, or of `words`: the
    packer passes its own), most read first: what the packer names resident. records:
    the stored nodes, if not decoded from img (Model)."""
    import random

    m = Model(img, records)
    if words is None:
        words = list(img.iter_tile_words())
    if len(words) > sample:
        words = random.Random(seed).sample(list(words), sample)
    counts: dict[int, int] = {}
    for w in words:
        for p in set(m.fetches(w)):
            counts[p] = counts.get(p, 0) + 1
    return sorted(counts, key=lambda p: (-counts[p], p))[:k]


def cold_reads(img: Image, slots: int | None = None, progress=None, resident=None):
    """Every word of the image looked up with a cold cache: (histogram {reads: words},
    worst word as tile indices). Walks the automaton depth first, carrying the cache.
    resident: pages the reader holds besides its cache (never read by a lookup); None:
    every page the header names (a reader with the RAM for them), () none."""
    if slots is None:
        slots = cache_slots(img)
    resident = _resident(img, resident)
    m = Model(img)
    hist: dict[int, int] = {}
    worst: tuple[int, tuple] = (-1, ())
    T = img.ntiles
    roots: list[tuple] = []
    if img.root < 0 or img.words == 0:
        return hist, ()
    root_steps = m.step(img.root)
    # words of one tile: scanned from the root
    for t, (pages, final, _) in root_steps.items():
        if final and img.min_len <= 1:
            c = Cache(slots, resident)
            for p in _dedup(pages, -1)[0]:
                c.fetch(p)
            hist[c.reads] = hist.get(c.reads, 0) + 1
            if c.reads > worst[0]:
                worst = (c.reads, (t,))
    for t1 in sorted(root_steps):
        c1 = root_steps[t1][2]
        if c1 < 0:
            continue
        for t2, (pages, final, target) in sorted(m.step(c1).items()):
            c = Cache(slots, resident)
            if img.prefix_depth:
                last = (PREFIX_ENTRY * (t1 * T + t2)) >> img.page_shift
                c.fetch(last)
            else:
                last = -1
                for p in _dedup(root_steps[t1][0] + pages, -1)[0]:
                    c.fetch(p)
                    last = p
            roots.append(((t1, t2), final, target, c, last))
    count = 0
    stack = roots
    while stack:
        word, final, node, c, last = stack.pop()
        if final:
            hist[c.reads] = hist.get(c.reads, 0) + 1
            if c.reads > worst[0]:
                worst = (c.reads, word)
            count += 1
            if progress and count % 500_000 == 0:
                progress(count)
        if node < 0:
            continue
        for t, (pages, f, target) in m.step(node).items():
            c2 = c.copy()
            lp = last
            for p in pages:
                if p != lp:
                    c2.fetch(p)
                    lp = p
            stack.append((word + (t,), f, target, c2, lp))
    return hist, worst[1]


def summary(hist: dict[int, int]) -> dict:
    n = sum(hist.values())
    if not n:
        return {"words": 0, "mean": 0.0, "worst": 0}
    return {"words": n, "mean": sum(k * v for k, v in hist.items()) / n, "worst": max(hist)}
