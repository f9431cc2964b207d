# Opening a word graph image: its header read and checked, the code tables and the
# tile table decoded into what lexicon.reader's lookups use (read_header).

import binascii
import struct
from array import array

try:
    from micropython import const
except ImportError:                 # CPython
    const = int

from lexicon.format import (CHECK, K_ABS, K_REL, LOOSE, MAGIC, MAJOR, MAX_HEADER, LexiconError,
                            damaged)

_PREFIX_LEN = const(16)
_TABLES_OFF = const(88)
_NO_ROOT = const(0xFFFFFFFF)
_MAX_WIDTH = const(25)
_MAX_CODE = const(15)
_PREFIX_MAX_TILES = const(64)


def _code_table(head, pos, counts_size, lim, off, limit):
    """Append a canonical code table (docs/wordlist-format.md, section 3) to the
    decoding arrays: for each length L, the first left-justified 15-bit window
    whose code is longer than L, and the offset from a code to its symbol index.
    Returns (position after the counts, number of symbols)."""
    m = head[pos]
    pos += 1
    if m < 1 or m > _MAX_CODE:
        raise damaged("code table")
    first = 0
    index = 0
    room = 1
    for length in range(1, m + 1):
        if counts_size == 1:
            c = head[pos]
        else:
            c = head[pos] | head[pos + 1] << 8
        pos += counts_size
        room = 2 * room - c
        if room < 0:
            raise damaged("code table")
        if lim is not None:
            lim.append((first + c) << (15 - length))
            off.append(limit + index - first)
        first = (first + c) << 1
        index += c
    if room:                # every window must decode: a complete code
        raise damaged("code table")
    return pos, index


def _case(a):
    """1 for an upper-case, 2 for a lower-case letter of ASCII, Latin-1 or Latin
    Extended-A (code point a), 0 otherwise (MicroPython's str.upper() knows ASCII
    only: the letters of the lists are judged here)."""
    if 0x41 <= a <= 0x5A or (0xC0 <= a <= 0xDE and a != 0xD7):
        return 1
    if 0x61 <= a <= 0x7A or (0xE0 <= a <= 0xFF and a != 0xF7):
        return 2
    if 0x100 <= a <= 0x17E and a not in (0x130, 0x131, 0x138, 0x149):
        odd = 0x139 <= a <= 0x148 or 0x179 <= a <= 0x17E    # upper case at odd points
        return 1 if (a & 1) == odd else 2
    return 0


def _letters(up, low):
    """True if `low` is the lower-case form of `up`, a character of a tile as shown:
    an upper-case letter and its lower-case form, or the same character that has no
    case.  Beyond Latin, what this interpreter's upper() says, or taken as written."""
    a = ord(up)
    b = ord(low)
    ca = _case(a)
    cb = _case(b)
    if up == low:
        return ca == 0
    if ca or cb:
        if ca != 1 or cb != 2:
            return False
        if a < 0x100:
            return b == a + 32
        return b == (0xFF if a == 0x178 else a + 1)
    return low.upper() == up or (a > 0x24F and b > 0x24F)


def _case_pair(tile, lower):
    """A tile's display string and its lower-case form (docs/wordlist-format.md,
    section 2): both given, letter for letter the same letters."""
    if not tile or len(tile) != len(lower):
        return False
    for i in range(len(tile)):
        if not _letters(tile[i], lower[i]):
            return False
    return True


def read_header(lex):
    """Read and check the header of lex.source (a lexicon.reader.Lexicon being opened);
    sets the header's public fields on lex and returns what only the reader's lookups
    use: (the decoding tables, the figures arcs, nodes, jumps and build date, the typed
    forms of the tiles)."""
    src = lex.source
    prefix = bytearray(_PREFIX_LEN)
    lex.reads += 1
    if src.read_at(0, prefix) < _PREFIX_LEN:
        raise damaged("shorter than the fixed prefix")
    if prefix[0:4] != MAGIC:
        raise damaged("not a word graph image")
    major, minor, hlen, boff, blen = struct.unpack_from("<BBHII", prefix, 4)
    if major != MAJOR:
        raise LexiconError("unsupported", "format %d.%d" % (major, minor))
    if hlen < _TABLES_OFF + 4 or hlen > MAX_HEADER or boff < hlen:
        raise damaged("header lengths")
    if boff + blen != src.size and src.exact:
        raise damaged("image is %d bytes, header says %d" % (src.size, boff + blen))
    if boff + blen > src.size:
        raise damaged("image runs past the partition")
    head = bytearray(hlen)
    lex.reads += 1
    if src.read_at(0, head) < hlen:
        raise damaged("truncated header")
    (crc,) = struct.unpack_from("<I", head, hlen - 4)
    if binascii.crc32(memoryview(head)[:hlen - 4]) & 0xFFFFFFFF != crc:
        raise damaged("header CRC")
    (body_crc, lex.word_count, arcs, nodes, jumps, root, lex.shortest, lex.longest,
     ntiles, pshift, ashift, ncontexts,
     prefix) = struct.unpack_from("<IIIIIIBBBBBBB", head, 16)
    lex.body_crc = body_crc
    lex.format = (major, minor)
    # figures for header(), in one tuple (fewer attributes: less RAM)
    counts = (arcs, nodes, jumps, struct.unpack_from("<Q", head, 48)[0])
    lex.digest = "%08x %d" % (crc, boff + blen)
    lex.body_offset = boff
    lex.body_len = blen
    if ntiles < 1 or pshift not in (7, 8, 10, 11, 12) or ashift > 8 or ncontexts < 1 or \
            prefix not in (0, 2) or (prefix and ntiles > _PREFIX_MAX_TILES):
        raise damaged("header sizes")
    page = 1 << pshift
    if blen % (page + CHECK):
        raise damaged("body is not whole pages")
    lex.page_size = page
    lex.pages = blen // (page + CHECK)
    lex.two_tile = prefix != 0
    bits = lex.pages * page * 8
    if bits >= 1 << 30:
        raise damaged("body too large")
    if lex.word_count == 0:
        raise damaged("the list holds no words")
    lex.root = -1 if root == _NO_ROOT else root
    if lex.root >= bits or lex.root < 0:
        raise damaged("root")
    try:
        tables, alt = _read_tables(lex, head, ntiles, ncontexts, hlen)
    except IndexError:
        raise damaged("header tables")
    if prefix and 32 * ntiles * ntiles > bits:
        raise damaged("two-tile table")
    # what the arcs' decoding needs, in one tuple (fewer attributes: less RAM)
    return tables + (page, pshift, bits, ntiles, ashift), counts, alt


def _read_tables(lex, head, ntiles, ncontexts, hlen):
    pos = _TABLES_OFF
    ctxmap = head[pos:pos + ntiles + 1]
    pos += ntiles + 1
    # S1, one code per context: its counts per length, then its symbols, all in
    # one bytes object (decoded length by length: little RAM)
    s1 = bytearray()
    counts_at = []
    syms_at = []
    for _ in range(ncontexts):
        start = pos
        m = head[pos]
        pos, n = _code_table(head, pos, 1, None, None, 0)
        for i in range(n):
            if head[pos + i] > ntiles:
                raise damaged("tile code table")
        counts_at.append(len(s1))
        s1 += head[start + 1:start + 1 + m]
        syms_at.append(len(s1))
        s1 += head[pos:pos + n]
        pos += n
    c1 = array("H", bytes(2 * (ntiles + 1)))    # arrays of their exact size: less RAM
    y1 = array("H", bytes(2 * (ntiles + 1)))
    for state in range(ntiles + 1):
        c = ctxmap[state]
        if c >= ncontexts:
            raise damaged("context map")
        c1[state] = counts_at[c]
        y1[state] = syms_at[c]
    s1 = (c1, y1, bytes(s1))
    lim = []
    off = []
    pos, n = _code_table(head, pos, 2, lim, off, 0)
    for i in range(n):
        flags = head[pos + 2 * i]
        width = head[pos + 2 * i + 1]
        kind = flags >> 2
        if kind > K_ABS or (kind >= K_REL) != (1 <= width <= _MAX_WIDTH or width == LOOSE) \
                or (kind < K_REL and width):
            raise damaged("flag code table")
    j = 0
    while not lim[j]:           # the shortest flag code: decoding starts there
        j += 1
    s2 = (array("H", lim), array("h", off), bytes(head[pos:pos + 2 * n]), j)
    pos += 2 * n
    groups = array("I", struct.unpack_from("<%dI" % (ntiles + 1), head, pos))
    pos += 4 * (ntiles + 1)
    strings = []
    try:
        for _ in range(3):
            n = head[pos]
            strings.append(bytes(head[pos + 1:pos + 1 + n]).decode())
            pos += 1 + n
        tiles = [""] * ntiles       # lists of their exact size: less RAM
        alt = [""] * ntiles
        blank = bytearray(ntiles)
        for i in range(ntiles):
            flags, n = head[pos], head[pos + 1]
            # decode() gives the interned string where there is one ("A"): less RAM
            tile = bytes(head[pos + 2:pos + 2 + n]).decode()
            pos += 2 + n
            n = head[pos]
            lower = bytes(head[pos + 1:pos + 1 + n]).decode()
            pos += 1 + n
            if not _case_pair(tile, lower) or tile in tiles:
                raise damaged("tile table")
            lower = lower.upper()
            # a one-letter tile kept as the interpreter's interned string of that letter
            # (indexing a str gives it, and the check above made it): no string object
            # of its own in RAM for each tile
            tiles[i] = tile[0] if len(tile) == 1 else tile
            # The typed form this interpreter's upper() leaves (MicroPython
            # upper-cases ASCII only: 'ż' stays 'ż'); "" if the same.
            alt[i] = "" if lower == tile else lower
            blank[i] = flags & 1
    except (IndexError, ValueError):
        raise damaged("header strings")
    # the resident pages: a count, then the page numbers, most read first
    n = head[pos]
    if pos + 1 + 4 * n != hlen - 4:
        raise damaged("resident pages")
    resident = struct.unpack_from("<%dI" % n, head, pos + 1)
    for i in range(n):
        if resident[i] >= lex.pages or resident[i] in resident[:i]:
            raise damaged("resident pages")
    lex.resident_pages = resident
    lex.language, lex.name, lex.version = strings
    lex.tiles = tiles
    lex.blank_only = blank
    return s1 + s2 + (groups,), "\n".join(alt)    # alt in one string: fewer objects in RAM
