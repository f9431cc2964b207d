# HMAC-SHA256 test vectors for the hall's signing (firmware/hall/sign.py): inputs drawn
# from a fixed generator, so that CPython and MicroPython make the same ones, and their
# tags as CPython's hmac module computes them, kept in data/hmac_vectors.txt (one tag in
# hex a line, in the order of inputs(); tests/firmware/test_hall_sign.py checks the file
# against hmac under CPython, and sign.py against the file under both interpreters).

import binascii

COUNT = 300
FILE = "hmac_vectors.txt"
# Lengths around SHA-256's 64-byte block, where a key is padded, or hashed first.
KEY_LENGTHS = (0, 1, 16, 31, 32, 33, 63, 64, 65, 100, 128, 200)
DATA_LENGTHS = (0, 1, 55, 56, 63, 64, 65, 119, 120, 200, 1000)


def _stream(seed):
    # xorshift32: the same bytes on every interpreter
    x = seed & 0xFFFFFFFF or 1
    while True:
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        yield x & 0xFF


def inputs():
    """[(key, data)] for every vector, in file order."""
    out = []
    gen = _stream(2463534242)
    for i in range(COUNT):
        klen = KEY_LENGTHS[i % len(KEY_LENGTHS)]
        dlen = DATA_LENGTHS[(i // len(KEY_LENGTHS)) % len(DATA_LENGTHS)]
        if i >= len(KEY_LENGTHS) * len(DATA_LENGTHS):
            klen = next(gen) % 150
            dlen = (next(gen) << 3) % 1500
        key = bytes([next(gen) for _ in range(klen)])
        data = bytes([next(gen) for _ in range(dlen)])
        out.append((key, data))
    return out


def read_tags(path):
    out = []
    with open(path) as f:
        for text in f:
            text = text.strip()
            if text:
                out.append(binascii.unhexlify(text))
    return out
