# Helpers for the lexicon and terminal tests: the fixture images in data/
# (built by the packer: tests/host/lexicon_fixtures.py) and their answers.

# MicroPython names a module found on a relative path by that path alone
# ("lexicon_data.py"): the harness runs it with tests/firmware as the cwd.  The
# path is made absolute here, since some tests change the directory.
import os

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else ""
if not _HERE.startswith("/"):
    _HERE = os.getcwd() + ("/" + _HERE if _HERE else "")
DATA = _HERE + "/data"


def image_path(name):
    return DATA + "/lexicon_" + name + ".dawg"


def answers(name):
    """[(word, expected)] with expected 0 invalid, 1 valid, 2 beyond the list."""
    out = []
    with open(DATA + "/lexicon_" + name + ".answers", encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                word, expected = line.rsplit(" ", 1)
                out.append((word, int(expected)))
    return out


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def worked_example():
    """The worked example of docs/wordlist-format.md, byte for byte as listed."""
    h = bytes.fromhex
    return (h("54434c580300a600a600000004010000")      # prefix
            + h("339ce081030000000400000003000000")    # body CRC, words, arcs, nodes
            + h("00000000000000000103030803020000")    # jumps, root, lengths, sizes
            + h("0000000000000000")                    # date
            + h("68cccc076e909dd94c46161fdbee12f6"
                "034e0961223aa4d81e9927fdbffb0d97")    # SHA-256
            + h("00010000")                            # context map
            + h("020102020001") + h("0102" "0102")     # tile codes, 2 contexts
            + h("020100" "0200" "0300" "0700" "0802")  # flag codes
            + h("ffffffff" * 4)                        # groups: none
            + h("027878") + h("076578616d706c65") + h("0131")
            + h("0001410161" "0001420162" "0001430163")   # tiles A B C, lower case
            + h("0100000000")                          # resident: page 0
            + h("17df9cd7")                            # header CRC
            + h("b9c0") + bytes(254) + h("49f1b53e"))  # the page and its check (seed)


class MemoryPartition:
    """An esp32.Partition look-alike over bytes (readblocks' extended form)."""

    def __init__(self, data, size=65536, block=4096):
        self.data = bytes(data) + b"\xff" * (size - len(data))
        self.block = block
        self.reads = 0

    def info(self):
        return (1, 0x40, 0x300000, len(self.data), "lexicon", False)

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.block
        if op == 5:
            return self.block
        return None

    def readblocks(self, block, buf, offset=0):
        start = block * self.block + offset
        if start + len(buf) > len(self.data):
            raise OSError(22)
        self.reads += 1
        for i in range(len(buf)):
            buf[i] = self.data[start + i]
