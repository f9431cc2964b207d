# The word graph image (docs/wordlist-format.md, major version 1) read straight
# from flash: only the header's opcode and tile tables live in RAM; the body is
# read through a small cache of fixed blocks.  Each cache slot holds its block
# plus the next 8 bytes, so an arc (at most 7 bytes) that starts in a block is
# always whole in its slot: the lookup never stitches bytes across slots.

import binascii
import struct

from lexicon.sources import FileSource, PartitionSource

INVALID = 0
VALID = 1
TOO_LONG = 2        # longer than the list covers: the referee decides (TSO 1.2b)

MAGIC = b"TCLX"
MAJOR = 1
PREFIX_LEN = 16
TABLE_OFF = 80
TABLE_LEN = 768
STRINGS_OFF = TABLE_OFF + TABLE_LEN
MAX_HEADER = 4096
NO_ROOT = 0xFFFFFFFF
ESCAPE = 0xFF
UNUSED = 0xFE
OVERHANG = 8        # longest arc is 7 bytes (escape 4 + 3 address bytes)


class LexiconError(Exception):
    """kind: "missing" (no image), "damaged" (fails a check), "unsupported" (other major version)."""

    def __init__(self, kind, detail=""):
        super().__init__(kind + (": " + detail if detail else ""))
        self.kind = kind


def _damaged(detail):
    return LexiconError("damaged", detail)


class Lexicon:
    def __init__(self, source, cache_bytes=4096, block_size=256, verify=True):
        if block_size & (block_size - 1) or block_size < 32:
            raise ValueError("block_size: a power of two, at least 32")
        self.source = source
        self.block_size = block_size
        self._shift = 0
        while (1 << self._shift) < block_size:
            self._shift += 1
        slots = max(1, cache_bytes // (block_size + OVERHANG))
        self._bufs = [bytearray(block_size + OVERHANG) for _ in range(slots)]
        self._tags = [-1] * slots
        self._stamps = [0] * slots
        self._tick = 0
        self.reads = 0          # block reads from flash since opening (benchmarks)
        self.frequencies = None  # tile frequencies, when a later format carries them
        self._read_header()
        if verify:
            self.verify()

    # --- loading ------------------------------------------------------------

    def _read_header(self):
        src = self.source
        prefix = bytearray(PREFIX_LEN)
        if src.read_at(0, prefix) < PREFIX_LEN:
            raise _damaged("shorter than the fixed prefix")
        if prefix[0:4] != MAGIC:
            raise _damaged("not a word graph image")
        major, minor, hlen, boff, blen = struct.unpack_from("<BBHII", prefix, 4)
        if major != MAJOR:
            raise LexiconError("unsupported", "format %d.%d" % (major, minor))
        if hlen < STRINGS_OFF + 4 or hlen > MAX_HEADER or boff < hlen:
            raise _damaged("header lengths")
        if boff + blen != src.size and not isinstance(src, PartitionSource):
            raise _damaged("image is %d bytes, header says %d" % (src.size, boff + blen))
        if boff + blen > src.size:
            raise _damaged("image runs past the partition")
        head = bytearray(hlen)
        if src.read_at(0, head) < hlen:
            raise _damaged("truncated header")
        (crc,) = struct.unpack_from("<I", head, hlen - 4)
        if binascii.crc32(memoryview(head)[:hlen - 4]) & 0xFFFFFFFF != crc:
            raise _damaged("header CRC")
        (self.body_crc, self.word_count, self.arc_count, self.node_count, root,
         self.shortest, self.longest, ntiles) = struct.unpack_from("<IIIIIBBB", head, 16)
        (self.build_date,) = struct.unpack_from("<Q", head, 40)
        self.format = (major, minor)
        self.body_offset = boff
        self.body_len = blen
        self.root = -1 if root == NO_ROOT else root
        if self.root >= blen:
            raise _damaged("root outside the body")
        self._ops = bytes(head[TABLE_OFF:TABLE_OFF + TABLE_LEN])
        pos = STRINGS_OFF
        strings = []
        try:
            for _ in range(3):
                n = head[pos]
                strings.append(str(bytes(head[pos + 1:pos + 1 + n]), "utf-8"))
                pos += 1 + n
            tiles = []
            blank = bytearray(ntiles)
            for i in range(ntiles):
                flags, n = head[pos], head[pos + 1]
                tiles.append(str(bytes(head[pos + 2:pos + 2 + n]), "utf-8"))
                blank[i] = flags & 1
                pos += 2 + n
        except (IndexError, ValueError):
            raise _damaged("header strings")
        if pos > hlen - 4 or not ntiles:
            raise _damaged("tile table")
        self.language, self.name, self.version = strings
        self.tiles = tiles
        self.blank_only = blank
        # Tiles longest first, for splitting typed text (CH before C).
        order = list(range(ntiles))
        order.sort(key=lambda i: -len(tiles[i]))
        self._parse_order = order

    def verify(self):
        """Check the body CRC, reading it in cache-block chunks."""
        buf = self._bufs[0]
        self._tags[0] = -1
        bs = self.block_size
        view = memoryview(buf)[:bs]
        crc = 0
        done = 0
        end = self.body_len
        while done < end:
            want = end - done
            chunk = view if want >= bs else memoryview(buf)[:want]
            got = self.source.read_at(self.body_offset + done, chunk)
            if got < len(chunk):
                raise _damaged("truncated body")
            crc = binascii.crc32(chunk, crc)
            done += len(chunk)
        if crc & 0xFFFFFFFF != self.body_crc:
            raise _damaged("body CRC")

    def close(self):
        self.source.close()

    # --- the cache ------------------------------------------------------------

    def _fetch(self, block):
        tags = self._tags
        stamps = self._stamps
        if block in tags:
            slot = tags.index(block)
        else:
            slot = stamps.index(min(stamps))    # least recently used
            buf = self._bufs[slot]
            tags[slot] = -1
            start = block << self._shift
            self.source.read_at(self.body_offset + start, buf)
            tags[slot] = block
            self.reads += 1
        tick = self._tick + 1
        if tick > 0x3FFFFFF:        # stay a small int on the chip
            for i in range(len(stamps)):
                stamps[i] = 0
            tick = 1
        self._tick = tick
        stamps[slot] = tick
        return self._bufs[slot]

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
        ops = self._ops
        shift = self._shift
        bs = self.block_size
        blen = self.body_len
        node = self.root
        buf = self._bufs[0]
        base = -bs - 1          # no block in hand yet
        final = 0
        for k in range(n):
            t = word[k]
            if node < 0:
                return INVALID          # the sink: nothing follows
            pos = node
            while True:
                if pos >= blen:
                    raise _damaged("arc outside the body")
                off = pos - base
                if off < 0 or off >= bs:
                    buf = self._fetch(pos >> shift)
                    base = (pos >> shift) << shift
                    off = pos - base
                op = buf[off]
                j = op * 3
                at = ops[j]
                if at == ESCAPE:
                    at = buf[off + 1]
                    flags = buf[off + 2]
                    hi = buf[off + 3]
                    size = 4
                elif at == UNUSED:
                    raise _damaged("unused opcode")
                else:
                    flags = ops[j + 1]
                    hi = ops[j + 2]
                    size = 1
                kind = (flags >> 2) & 3
                if at == t:
                    final = flags & 1
                    if kind == 0:       # NEXT: the target follows this arc
                        node = pos + size
                    elif kind == 1:     # SINK
                        node = -1
                    elif kind == 2:     # ADDR
                        q = off + size
                        target = hi
                        for _ in range((flags >> 4) & 3):
                            target = (target << 8) | buf[q]
                            q += 1
                        if target >= blen:
                            raise _damaged("address outside the body")
                        node = target
                    else:
                        raise _damaged("reserved arc kind")
                    break
                if flags & 2:           # LAST: the tile is not here
                    return INVALID
                if kind == 2:
                    size += (flags >> 4) & 3
                elif kind == 3:
                    raise _damaged("reserved arc kind")
                pos += size
        return VALID if final else INVALID

    def parse(self, text):
        """Tile indices (bytearray) of a word written with the tiles' display
        strings ("CHICO" -> CH I C O), or None if something is not a tile.
        ASCII letters may be lower case; other letters must be as in the table."""
        text = text.upper()
        tiles = self.tiles
        out = bytearray()
        pos = 0
        while pos < len(text):
            for i in self._parse_order:
                tile = tiles[i]
                if text[pos:pos + len(tile)] == tile:
                    out.append(i)
                    pos += len(tile)
                    break
            else:
                return None
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
                "arcs": self.arc_count, "nodes": self.node_count,
                "shortest": self.shortest, "longest": self.longest,
                "tiles": list(self.tiles),
                "blank_only": [self.tiles[i] for i in range(len(self.tiles)) if self.blank_only[i]],
                "body_crc32": "%08x" % self.body_crc}


def open_file(path, cache_bytes=4096, block_size=256, verify=True):
    """The image in a file; LexiconError("missing") if there is none."""
    try:
        source = FileSource(path)
    except OSError:
        raise LexiconError("missing", path)
    try:
        return Lexicon(source, cache_bytes, block_size, verify)
    except Exception as e:
        source.close()
        raise e


def open_partition(partition, cache_bytes=4096, block_size=256, verify=True):
    """The image at the start of a raw flash partition (esp32.Partition)."""
    return Lexicon(PartitionSource(partition), cache_bytes, block_size, verify)
