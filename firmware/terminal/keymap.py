# The multi-tap key map, generated from a word list's tile table, so that a new
# language needs no firmware change.
#
# Tiles stay in the table's (alphabetical) order across the keys, as on a phone
# keypad, so that a player finds a letter where the alphabet puts it; where the
# groups are cut is chosen to spend the fewest presses for the language's letter
# frequencies.  On each key the letters come most frequent first.

LETTER_KEYS = "1234567890"


def _group_cost(freq_sorted):
    # Presses to type each letter of one key once, weighted by frequency: the
    # most frequent letter costs 1 press, the next 2, ...
    cost = 0
    for pos in range(len(freq_sorted)):
        cost += freq_sorted[pos] * (pos + 1)
    return cost


def partition(freq, keys):
    """Cut tiles 0..n-1 into at most `keys` contiguous groups of least cost.

    Returns the list of (start, end) ranges, one per used key.
    """
    n = len(freq)
    if n <= keys:
        return [(i, i + 1) for i in range(n)]
    inf = 0x3FFFFFFF    # the largest small int on the chip (1 << 62 is a big int there)
    # best[g][j]: least cost of the first j tiles in g groups; no table of all
    # group costs (one n*n dict was a 4.7 KB block): for each end j, the
    # costs of the groups i..j-1 come from growing one sorted group leftwards.
    # cut[g][j] < n + 1 <= 256: a bytearray a row, a quarter of a list's heap.
    best = [[inf] * (n + 1) for _ in range(keys + 1)]
    cut = [bytearray(n + 1) for _ in range(keys + 1)]
    best[0][0] = 0
    group = []          # freq of tiles i..j-1, most frequent first
    cost_to = [0] * (n + 1)
    for j in range(1, n + 1):
        del group[:]
        for i in range(j - 1, -1, -1):
            f = freq[i]
            pos = 0
            while pos < len(group) and group[pos] >= f:
                pos += 1
            group.insert(pos, f)
            cost_to[i] = _group_cost(group)
        for g in range(1, min(keys, j) + 1):
            row = best[g - 1]
            b = inf
            c_at = 0
            for i in range(g - 1, j):
                if row[i] == inf:
                    continue
                c = row[i] + cost_to[i]
                if c < b:
                    b = c
                    c_at = i
            best[g][j] = b
            cut[g][j] = c_at
    groups = []
    j = n
    for g in range(keys, 0, -1):
        i = cut[g][j]
        groups.append((i, j))
        j = i
    groups.reverse()
    return groups


class KeyMap:
    """Which tiles each digit key cycles through, in press order."""

    def __init__(self, tiles, freq=None, keys=LETTER_KEYS):
        self.tiles = list(tiles)
        if freq is None or len(freq) != len(self.tiles):
            freq = [1] * len(self.tiles)    # no frequencies: balanced groups, table order
        self.keys = keys
        self._cycle = {}
        self._where = [("", 0)] * len(self.tiles)
        ranges = partition(list(freq), len(keys))
        for k in range(len(ranges)):
            start, end = ranges[k]
            idx = list(range(start, end))
            # most frequent first; ties keep the table order (MicroPython's sort
            # is not stable, hence the index in the key)
            idx.sort(key=lambda i: (-freq[i], i))
            cycle = bytes(idx)
            self._cycle[keys[k]] = cycle
            for pos in range(len(cycle)):
                self._where[cycle[pos]] = (keys[k], pos)

    def cycle(self, key):
        """Tile indices on `key` in press order (empty bytes if the key has none)."""
        return self._cycle.get(key, b"")

    def where(self, tile):
        """(key, presses - 1) that types `tile`."""
        return self._where[tile]

    def legend(self, key):
        """The key's letters as shown on the screen, e.g. 'ACB'."""
        return "".join(self.tiles[i] for i in self.cycle(key))

    def presses(self, word):
        """Presses to type a word of tile indices, counting one separating press
        (the `B` key or waiting for the timeout) between two tiles on the same key."""
        total = 0
        last_key = None
        for tile in word:
            key, pos = self._where[tile]
            if key == last_key:
                total += 1
            total += pos + 1
            last_key = key
        return total


def tile_frequencies(tiles, language, from_image=None):
    """Frequencies for the tile table: the image's own if it has them, else the
    firmware's table for the language (a tile it does not know counts 0), else
    None (the key map then keeps the table order)."""
    if from_image is not None and len(from_image) == len(tiles):
        return list(from_image)
    from terminal.letterfreq import FREQUENCY

    pairs = FREQUENCY.get(language)
    if pairs is None:
        return None
    # Read in place, pair by pair: no list of every piece and no table (this runs as a
    # challenge opens, when the heap holds the most).
    freq = [0] * len(tiles)
    at = 0
    end = len(pairs)
    while at < end:
        gap = pairs.find(" ", at)
        stop = pairs.find(" ", gap + 1)
        if stop < 0:
            stop = end
        tile = pairs[at:gap]
        if tile in tiles:
            freq[tiles.index(tile)] = int(pairs[gap + 1:stop])
        at = stop + 1
    return freq
