# Helpers for the lexicon and terminal tests: the fixture images in data/
# (built by the packer: tests/host/lexicon_fixtures.py) and their answers.

# MicroPython names a module found on a relative path by that path alone
# ("lexicon_data.py"): the harness runs it with tests/firmware as the cwd.
DATA = (__file__.rsplit("/", 1)[0] if "/" in __file__ else ".") + "/data"


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
    """The first worked example of docs/wordlist-format.md, byte for byte as listed."""
    h = bytes.fromhex
    table = bytearray(h("fe0000") * 256)
    for op, entry in ((0, "000200"), (1, "010300"), (2, "010500"), (3, "020700"),
                      (255, "ff0000")):
        table[3 * op:3 * op + 3] = h(entry)
    return (h("54434c5801006a036a03000004000000")
            + h("6c775f0b030000000400000003000000")
            + h("00000000010303000000000000000000")
            + h("747acba23237745440 0d9d9721bdcf00".replace(" ", ""))
            + h("7367c4249611f6f1067b1cf8fc9a1fb7")
            + bytes(table)
            + h("027878") + h("076578616d706c65") + h("0131") + h("000141000142000143")
            + h("9cee191d")
            + h("02000103"))


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
