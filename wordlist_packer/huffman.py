"""Canonical Huffman codes of limited length (docs/wordlist-format.md, section 3).

A table is written as its code lengths only: the count of codes of each length and the
symbols in canonical order (shorter codes first, then ascending symbol value). The codes
follow from that, the same way in the packer and in the device's reader.
"""

from __future__ import annotations

import heapq

MAX_LEN = 15     # the reader decodes from a 15-bit window


def code_lengths(counts: dict[int, int], max_len: int = MAX_LEN) -> dict[int, int]:
    """{symbol: code length} of a Huffman code for the counts (all > 0), no code longer
    than max_len. One symbol gets a 1-bit code."""
    if not counts:
        return {}
    if len(counts) == 1:
        return {s: 1 for s in counts}
    if len(counts) > 1 << max_len:
        raise ValueError("too many symbols for the code length limit")
    weights = dict(counts)
    while True:
        lengths = _huffman(weights)
        if max(lengths.values()) <= max_len:
            return lengths
        # Flatten the distribution and try again (rare: only very skewed counts).
        weights = {s: (c >> 1) | 1 for s, c in weights.items()}


def _huffman(weights: dict[int, int]) -> dict[int, int]:
    heap = [(c, s, (s,)) for s, c in sorted(weights.items())]
    heapq.heapify(heap)
    depth = {s: 0 for s in weights}
    tie = max(weights) + 1
    while len(heap) > 1:
        c1, _, a = heapq.heappop(heap)
        c2, _, b = heapq.heappop(heap)
        for s in a:
            depth[s] += 1
        for s in b:
            depth[s] += 1
        heapq.heappush(heap, (c1 + c2, tie, a + b))
        tie += 1
    return depth


def canonical(lengths: dict[int, int]) -> tuple[list[int], list[int]]:
    """(counts per length 1..max, symbols in canonical order)."""
    if not lengths:
        return [], []
    m = max(lengths.values())
    counts = [0] * m
    for n in lengths.values():
        counts[n - 1] += 1
    symbols = sorted(lengths, key=lambda s: (lengths[s], s))
    return counts, symbols


def codes(counts: list[int], symbols: list[int]) -> dict[int, tuple[int, int]]:
    """{symbol: (code, length)} from a canonical table."""
    out = {}
    code = 0
    k = 0
    for length in range(1, len(counts) + 1):
        for _ in range(counts[length - 1]):
            out[symbols[k]] = (code, length)
            code += 1
            k += 1
        code <<= 1
    return out


def check_table(counts: list[int]) -> None:
    """Raise ValueError unless the counts describe a complete prefix code (every
    window decodes; the reader relies on it) or no code at all."""
    room = 1
    for c in counts:
        room = 2 * room - c
        if room < 0:
            raise ValueError("over-full code table")
    if counts and room:
        raise ValueError("incomplete code table")


class Decoder:
    """Decoding by the left-justified 15-bit window, as the device does it."""

    def __init__(self, counts: list[int], symbols: list[int]) -> None:
        check_table(counts)
        if sum(counts) != len(symbols):
            raise ValueError("code table: counts and symbols disagree")
        self.limits = []      # (limit, length, index offset) for each length in use
        first = 0
        index = 0
        for length in range(1, len(counts) + 1):
            c = counts[length - 1]
            lim = (first + c) << (15 - length)
            self.limits.append((lim, length, index - first))
            first = (first + c) << 1
            index += c
        self.symbols = symbols

    def decode(self, window: int) -> tuple[int, int]:
        """(symbol, length) of the code at the top of a 15-bit window."""
        for lim, length, off in self.limits:
            if window < lim:
                return self.symbols[(window >> (15 - length)) + off], length
        raise ValueError("no code matches")
