# The numbers of the word graph image (docs/wordlist-format.md, major version 3) that its
# readers share (lexicon/opening.py reads the header, lexicon/reader.py the arcs,
# lexicon/check.py checks the graph), and the error they raise.

try:
    from micropython import const
except ImportError:                 # CPython
    const = int

MAGIC = b"TCLX"
MAJOR = 3
MAX_HEADER = 4096   # the packer and the link refuse longer headers (one limit)
CHECK = const(4)            # the check bytes after each page (section 5)
OVERHANG = const(12)        # the next page's first bytes a page's check covers
NO_GROUP = const(0xFFFFFFFF)
LOOSE = const(0x80)         # a pointer written with its width: LOOSE_BITS, then the value
LOOSE_BITS = const(6)
LOOSE_MAX = const(32)
MAX_JUMPS = const(64)       # jumps one node may continue through
# kinds of arcs (flags >> 2); flags & 1: FINAL, flags & 2: LAST
K_SINK = const(0)
K_NEXT = const(1)
K_REL = const(2)
K_GROUP = const(3)
K_ABS = const(4)


class LexiconError(Exception):
    """kind: "missing" (no image), "damaged" (fails a check), "unsupported" (other major version)."""

    def __init__(self, kind, detail=""):
        super().__init__(kind + (": " + detail if detail else ""))
        self.kind = kind


def damaged(detail):
    return LexiconError("damaged", detail)
