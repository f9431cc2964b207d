# The word graph image (docs/wordlist-format.md, major version 3) read straight
# from flash.  Only the header's code tables and tile table live in RAM; the
# body is read through a small cache of pages, beside the pages the header names
# resident (the ones most lookups read), as many as the caller's RAM budget
# allows: they are read and checked once, when the list is opened.  A cache slot
# holds one page, the first 12 bytes of the next one and four zero bytes, which is exactly what the
# page's check covers: every page is checked when it is read, so a damaged page
# is reported, never answered from, and an arc that starts in a page is always
# whole in its slot.  The check is a seed below 2**30 from which the CRC-32 of
# the slot comes out below 4: comparing small integers allocates nothing on a
# 32-bit chip.
#
# The full check of the body (CRC-32 of every byte) runs once, when an image is
# installed: the link checks an upload, and open_file(record=...) checks an image
# that came with the flash; either records the image's digest in a small file, so
# that opening the list at every start reads the header only.

import binascii
import os
from array import array

try:
    from micropython import const   # compile-time constants: no room in RAM
except ImportError:                 # CPython
    const = int

from lexicon.format import (CHECK, K_GROUP, K_NEXT, K_REL, K_SINK, LOOSE, LOOSE_BITS,
                            LOOSE_MAX, MAX_JUMPS, NO_GROUP, OVERHANG,
                            LexiconError, damaged)
from lexicon.opening import read_header
from lexicon.sources import FileSource

INVALID = 0
VALID = 1
TOO_LONG = 2        # longer than the list covers: the referee decides (TSO 1.2b)

_HOT = const(1 << 26)       # cache stamps: recency below, "read more than once" on top
_COLD_SLOTS = const(2)      # slots kept for pages read once
_NO_PAGE = const(-0x100000)     # the arc cursor's base when no page is in hand


class Lexicon:
    frequencies = None      # tile frequencies, when a later format carries them
    record = None           # the digest record to drop when a lookup finds damage
    verified_now = False    # True if opening ran the full check
    # set from the header when the image is opened (lexicon/opening.py, read_header);
    # annotations only: they make nothing at run time
    word_count: int
    shortest: int
    longest: int
    body_crc: int
    format: tuple
    digest: str
    body_offset: int
    body_len: int
    page_size: int          # bytes of a page, without its check
    pages: int
    two_tile: bool          # the body starts with the two-tile table
    root: int
    language: str
    name: str
    version: str
    tiles: list
    blank_only: bytearray
    resident_pages: tuple   # the pages the header names resident, most read first

    def __init__(self, source, cache_bytes=4096, verify=True, verified=None,
                 resident_bytes=-1):
        """resident_bytes: RAM for the pages the header names resident, most read
        first (-1: all of them)."""
        self.source = source
        self.reads = 0           # page reads from flash since opening (benchmarks)
        try:
            self._t, self._counts, self._alt = read_header(self)
        except LexiconError as e:
            raise e
        except MemoryError as e:
            raise e
        except Exception as e:      # a header that passes its CRC yet does not parse
            raise damaged("header: %s" % type(e).__name__)
        slot = self.page_size + CHECK + OVERHANG
        slots = max(1, cache_bytes // slot)
        self._bufs = [bytearray(slot) for _ in range(slots)]
        self._tags = [-1] * slots
        self._stamps = [0] * slots
        self._tick = 0
        self._resident = {}
        self._buf = self._bufs[0]   # the arc cursor: the page in hand (see _byte)
        self._base = _NO_PAGE
        self._arc = array("i", (0, 0, 0))   # lookup()'s decoded arc (see arc)
        if verify and verified != self.digest:
            self.verify()       # through the cache, before any page is kept resident
            self.verified_now = True
        # the resident pages: page -> slot, read and checked now, never evicted
        pages = self.resident_pages
        if resident_bytes >= 0:
            pages = pages[:resident_bytes // slot]
        for page in pages:
            buf = bytearray(slot)
            self._load(page, buf)
            self._resident[page] = buf

    def verify(self):
        """The full check (lexicon/check.py): every page's check, the body CRC and the
        graph's structure against the header."""
        from lexicon.check import steps     # loaded when a list is installed

        try:
            for _ in steps(self):
                pass
        finally:
            self.drop_cache()

    def drop_cache(self):
        """Forget the pages in the cache and the page in hand (after the full check: its
        pages are not the ones lookups read again): the cache as opening leaves it, from
        which the next lookup is a cold one."""
        for i in range(len(self._tags)):
            self._tags[i] = -1
            self._stamps[i] = 0
        self._tick = 0
        self._base = _NO_PAGE

    def verify_steps(self, every=16, whole=None):
        """The checksums of the full check: CRC-32 of the whole body and every page's
        check, as a generator that yields (pages done, pages) every `every` pages, so
        that a caller can let other tasks run.  whole: a list whose first item becomes
        the CRC-32 of the whole image (header and body), for the link."""
        buf = self._bufs[0]
        self._tags[0] = -1
        self._base = _NO_PAGE
        data = memoryview(buf)[:self.page_size]
        check = bytearray(CHECK)
        crc = 0
        all_crc = 0
        if whole is not None:
            head = bytearray(self.body_offset)
            self.source.read_at(0, head)
            all_crc = binascii.crc32(head)
            head = None
        pages = self.pages
        for page in range(pages):
            stored = self._load(page, buf)
            # the body CRC runs over the stored bytes: the page and its check
            for i in range(CHECK):
                check[i] = (stored >> (8 * i)) & 0xFF
            crc = binascii.crc32(check, binascii.crc32(data, crc))
            if whole is not None:
                all_crc = binascii.crc32(check, binascii.crc32(data, all_crc))
            if (page + 1) % every == 0:
                yield (page + 1, pages)
        if crc & 0xFFFFFFFF != self.body_crc:
            raise damaged("body CRC")
        if whole is not None:
            whole[0] = all_crc & 0xFFFFFFFF
        yield (pages, pages)

    def close(self):
        self.source.close()

    # --- the cache ------------------------------------------------------------

    def _load(self, page, buf):
        """Read a page into buf and check it (docs/wordlist-format.md, section 5):
        the 4 check bytes follow the page: a seed below 2**30 from which the CRC-32
        of the page, the first OVERHANG bytes of the next page (zeros after the last
        one) and four zero bytes comes out below 4.  The slot holds exactly those
        bytes once the check is taken out.  Returns the seed."""
        size = self.page_size
        n = self.source.read_at(self.body_offset + page * (size + CHECK), buf)
        self.reads += 1
        if n < size + CHECK:
            raise damaged("truncated body")
        if buf[size + 3] >= 64:
            raise damaged("page %d fails its check" % page)
        seed = buf[size] | buf[size + 1] << 8 | buf[size + 2] << 16 | buf[size + 3] << 24
        last = page == self.pages - 1
        for i in range(OVERHANG):
            j = size + CHECK + i
            buf[size + i] = 0 if last or j >= n else buf[j]
        for i in range(size + OVERHANG, size + OVERHANG + CHECK):
            buf[i] = 0
        if binascii.crc32(buf, seed) >= 4:
            raise damaged("page %d fails its check" % page)
        return seed

    def _fetch(self, page):
        # Segmented LRU: a page read again becomes "hot" (a stamp with _HOT set)
        # and is evicted only after every cold page, so that the pages of one
        # long word do not push out the pages every word needs.
        buf = self._resident.get(page)
        if buf is not None:
            return buf
        tags = self._tags
        stamps = self._stamps
        tick = self._tick + 1
        if tick >= _HOT:             # stay a small int on the chip
            for i in range(len(stamps)):
                stamps[i] &= _HOT
            tick = 1
        self._tick = tick
        if page in tags:
            slot = tags.index(page)
            if not stamps[slot] & _HOT:
                hot = 0
                oldest = -1
                for i in range(len(stamps)):
                    if stamps[i] & _HOT:
                        hot += 1
                        if oldest < 0 or stamps[i] < stamps[oldest]:
                            oldest = i
                if hot >= len(stamps) - _COLD_SLOTS and oldest >= 0:
                    stamps[oldest] &= ~_HOT     # the oldest hot page cools down
            stamps[slot] = tick | _HOT
        else:
            if (page + 1) * (self.page_size + CHECK) > self.body_len:
                raise self._fail("arc outside the body")
            slot = stamps.index(min(stamps))    # the oldest cold page, else the oldest
            tags[slot] = -1
            if self._bufs[slot] is self._buf:
                self._base = _NO_PAGE           # the arc cursor's page goes
            try:
                self._load(page, self._bufs[slot])
            except LexiconError as e:
                self._report_damage()
                raise e
            tags[slot] = page
            stamps[slot] = tick
        return self._bufs[slot]

    def _byte(self, at):
        """Put the page holding byte `at` of the body in hand (self._buf, which begins
        at byte self._base); returns at's offset in it.  Every page the graph's
        decoding reads comes through here; _fetch forgets the page in hand when it
        reuses its slot, and verify_steps when it reads through slot 0."""
        o = at - self._base
        if o < 0 or o >= self.page_size:
            p = at >> self._t[9]
            self._buf = self._fetch(p)
            self._base = p << self._t[9]
            o = at - self._base
        return o

    def _report_damage(self):
        # The next start must check the whole image again.
        if self.record is not None:
            forget_record(self.record)
            self.record = None

    def _fail(self, detail):
        self._report_damage()
        return damaged(detail)

    # --- the graph ----------------------------------------------------------------

    def arc(self, pos, state, out, want=-1):
        """Decode the arc at bit `pos` of the body (docs/wordlist-format.md, section 4),
        `state` the previous tile's context (0 at the start of a node, else that tile
        + 1): out[0] becomes its tile (the tile count for a jump), out[1] its flags
        (FINAL 1, LAST 2, kind above), out[2] its target's bit (-1: the sink).  Returns
        the bit after the arc.  With want >= 0 (a lookup's tile) the node at `pos` is
        searched for the arc of tile `want`, its jumps followed, and out[0] == want if
        it has one (out[1], out[2] that arc's): the arcs of other tiles are passed by
        without their pointers, in one call (a call costs a heap frame in MicroPython).
        The one decoder of arcs: lookup() and the full check (lexicon/check.py) use it.
        `out`: an array("i") of 3; allocates nothing."""
        c1, y1, s1, lim2, off2, sym2, j2, groups, page, pshift, bits, ntiles, align = self._t
        buf = self._buf                     # the page in hand, in locals (see _byte)
        base = self._base
        jump = -1                           # want >= 0: the node's jump, if it has one
        jumps = 0
        while True:
            if pos >= bits:
                raise self._fail("arc outside the body")
            o = (pos >> 3) - base
            if o < 0 or o >= page:
                o = self._byte(pos >> 3)
                buf = self._buf             # the arc is whole in the slot (section 5)
                base = self._base
            # S1: the tile, or a jump, in the context of the previous tile
            v = buf[o] << 16 | buf[o + 1] << 8 | buf[o + 2]
            r = 9 - (pos & 7)               # v holds 15 + r bits from pos on
            w = (v >> r) & 0x7FFF
            c = c1[state]
            y = y1[state]
            first = 0
            length = 0
            while True:                     # a complete code (checked at opening): it ends
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
            # S2: flags, kind and pointer width (from the same bytes if they hold it)
            if length <= r:
                w = (v >> (r - length)) & 0x7FFF
            else:
                o = (pos >> 3) - base
                w = ((buf[o] << 16 | buf[o + 1] << 8 | buf[o + 2]) >> (9 - (pos & 7))) & 0x7FFF
            j = j2
            while w >= lim2[j]:
                j += 1
            x = ((w >> (14 - j)) + off2[j]) << 1
            pos += j + 1
            flags = sym2[x]
            width = sym2[x + 1]
            if sym == ntiles:
                if state or (want >= 0 and (jump >= 0 or (flags >> 2) < K_REL)):
                    raise self._fail("misplaced jump")
            elif want >= 0 and sym != want:
                if width:                   # the pointer passed by
                    if width == LOOSE:
                        o = (pos >> 3) - base
                        nb = ((buf[o] << 8 | buf[o + 1]) >> (10 - (pos & 7))) & 63
                        if nb > LOOSE_MAX:
                            raise self._fail("pointer too wide")
                        pos += LOOSE_BITS + nb
                    else:
                        pos += width - 1
                if sym < want and not flags & 2:
                    state = sym + 1
                    continue
                # passed the tile, or the LAST arc: on in the node jumped to, if any
                if jump < 0:
                    out[0] = sym
                    out[1] = flags
                    return pos
                jumps += 1
                if jumps > MAX_JUMPS:
                    raise self._fail("too many jumps")
                pos = jump
                jump = -1
                state = 0
                continue
            kind = flags >> 2
            if kind == K_SINK:
                target = -1
            elif kind == K_NEXT:
                target = pos
            else:
                # the pointer: width - 1 bits below an implicit leading 1
                nb = width - 1
                value = 1
                if width == LOOSE:          # rare: a padded pointer gives its width
                    o = (pos >> 3) - base
                    nb = ((buf[o] << 8 | buf[o + 1]) >> (10 - (pos & 7))) & 63
                    if nb > LOOSE_MAX:
                        raise self._fail("pointer too wide")
                    pos += LOOSE_BITS
                    value = 0
                while nb > 0:
                    take = 16 if nb > 16 else nb
                    o = (pos >> 3) - base
                    value = (value << take) | (((buf[o] << 16 | buf[o + 1] << 8 | buf[o + 2])
                                                >> (24 - (pos & 7) - take)) & ((1 << take) - 1))
                    pos += take
                    nb -= take
                if width != LOOSE:
                    value -= 1
                if kind == K_REL:
                    target = pos + value
                elif kind == K_GROUP:
                    g = groups[sym] if sym <= ntiles else NO_GROUP
                    if g == NO_GROUP:
                        raise self._fail("pointer into a missing group")
                    target = (g + value) << align
                else:
                    target = value << align
                if target >= bits:
                    raise self._fail("address outside the body")
            if want >= 0 and sym == ntiles:
                jump = target               # the node's own arcs first, then the jump's
                continue
            out[0] = sym
            out[1] = flags
            out[2] = target
            return pos

    def entry(self, t, u):
        """The two-tile table's entry for tiles t, u (docs/wordlist-format.md, section
        4): (node after them + 1) << 1 | FINAL, 0 if no word starts so; -1 for a tile
        outside the table."""
        ntiles = self._t[11]
        if t >= ntiles or u >= ntiles:
            return -1
        o = self._byte((t * ntiles + u) << 2)
        buf = self._buf
        v = buf[o] << 24 | buf[o + 1] << 16 | buf[o + 2] << 8 | buf[o + 3]
        if (v >> 1) > self._t[10]:
            raise self._fail("two-tile table points outside the body")
        return v

    # --- lookups ----------------------------------------------------------------

    def lookup(self, word, n=-1):
        """VALID, INVALID or TOO_LONG for a word of tile indices (bytes-like or a
        list), of which the first n count (all if n < 0).  Allocates nothing."""
        if n < 0:
            n = len(word)
        if n == 0 or self.root < 0:
            return INVALID
        if n > self.longest:
            return TOO_LONG
        if n < self.shortest:
            return INVALID
        arc = self._arc
        final = 0
        node = self.root
        k = 0
        if self.two_tile and n >= 2:
            # the two-tile table at the start of the body: node after two tiles
            v = self.entry(word[0], word[1])
            if v <= 0:
                return INVALID
            final = v & 1
            node = (v >> 1) - 1
            k = 2
        while k < n:
            t = word[k]
            if node < 0:
                return INVALID          # the sink: nothing follows
            self.arc(node, 0, arc, t)   # the node's arc of tile t, its jumps followed
            if arc[0] != t:
                return INVALID
            final = arc[1] & 1
            node = arc[2]
            k += 1
        return VALID if final else INVALID

    def parse(self, text):
        """Tile indices (bytearray) of a word written with the tiles' display
        strings ("CHICO" -> CH I C O; lower case too, "żółw"), or None if
        something is not a tile."""
        text = text.upper()
        tiles = self.tiles
        alt = self._alt.split("\n")
        out = bytearray()
        pos = 0
        while pos < len(text):
            best = -1
            size = 0
            for i in range(len(tiles)):
                for form in (tiles[i], alt[i]):
                    n = len(form)
                    if n > size and n and text[pos:pos + n] == form:
                        best = i
                        size = n
            if best < 0:
                return None
            out.append(best)
            pos += size
        return out

    def check(self, text):
        """lookup() of a written word; INVALID if it holds something not a tile."""
        word = self.parse(text)
        if word is None:
            return INVALID
        return self.lookup(word)

    def header(self):
        return {"format": "%d.%d" % self.format, "language": self.language,
                "name": self.name, "version": self.version, "words": self.word_count,
                "arcs": self._counts[0], "nodes": self._counts[1], "jumps": self._counts[2],
                "build_date": self._counts[3],
                "shortest": self.shortest, "longest": self.longest,
                "tiles": list(self.tiles),
                "blank_only": [self.tiles[i] for i in range(len(self.tiles)) if self.blank_only[i]],
                "body_crc32": "%08x" % self.body_crc, "digest": self.digest,
                "resident_pages": len(self.resident_pages), "resident": len(self._resident)}


def read_record(path):
    """The digest recorded in the file at path (see open_file), or None."""
    try:
        with open(path) as f:
            return f.read().strip() or None
    except OSError:
        return None


def write_record(path, digest):
    """Record that the image with this digest passed the full check.  Written aside
    and renamed, so that a power cut leaves no half a record."""
    with open(path + ".tmp", "w") as f:
        f.write(digest)
    os.rename(path + ".tmp", path)


def forget_record(path):
    try:
        os.remove(path)
    except OSError:
        pass


def open_file(path, cache_bytes=4096, verify=True, verified=None, record=None,
              resident_bytes=-1):
    """The image in a file; LexiconError("missing") if there is none.  verified: the
    digest recorded when this image was installed and fully checked (skips the full
    check when it is still this image's).  record: the path of the file that keeps
    that digest (the device's lexicon.ok): read for `verified`, written after a full
    check, removed when a lookup finds damage.  resident_bytes: RAM for the pages the
    header names resident (-1: all of them)."""
    try:
        source = FileSource(path)
    except OSError:
        raise LexiconError("missing", path)
    return open_source(source, cache_bytes, verify, verified, record, resident_bytes)


def open_source(source, cache_bytes=4096, verify=True, verified=None, record=None,
                resident_bytes=-1):
    """The image a source reads (lexicon.sources.FileSource, lexicon.partsource's
    PartitionSource or anything with read_at(), size and exact); the arguments as for
    open_file.  The source is closed if the image is refused."""
    if record is not None:
        verified = read_record(record)
    try:
        lex = Lexicon(source, cache_bytes, verify, verified, resident_bytes)
    except Exception as e:
        source.close()
        if record is not None and isinstance(e, LexiconError) and e.kind == "damaged":
            forget_record(record)   # a resident page, say: the next start checks it all
        raise e
    if record is not None:
        if lex.verified_now:
            try:
                write_record(record, lex.digest)
            except OSError:
                pass        # a full filesystem: the check runs again next time
        lex.record = record
    return lex


def open_partition(partition, cache_bytes=4096, verify=True, verified=None, record=None,
                   resident_bytes=-1):
    """The image at the start of a raw flash partition (esp32.Partition); record and
    resident_bytes as for open_file."""
    from lexicon.partsource import PartitionSource

    return open_source(PartitionSource(partition), cache_bytes, verify, verified, record,
                       resident_bytes)
