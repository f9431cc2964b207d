# Multi-tap word entry: up to 8 words of tile indices in preallocated buffers.
#
# A digit key cycles through its tiles; another digit key, the separator key or
# the multi-tap timeout commits the pending tile.  Nothing is kept outside the
# buffers, so wipe() really forgets a challenge's words.

from micropython import const
from timebase import ticks_diff

_MAX_WORDS = const(8)
MAX_TILES = 16


class WordEntry:
    def __init__(self, keymap, timeout_ms=1000):
        self.keymap = keymap
        self.timeout_ms = timeout_ms
        self.words = [bytearray(MAX_TILES) for _ in range(_MAX_WORDS)]
        self.lengths = bytearray(_MAX_WORDS)
        self.count = 0          # words declared for this challenge
        self.current = 0        # index of the word being typed
        self.pending_key = ""   # digit whose tile is not committed yet ("" = none)
        self.pending_pos = 0
        self.pending_t = 0

    def begin(self, count):
        self.wipe()
        self.count = count

    def wipe(self):
        for buf in self.words:
            for i in range(MAX_TILES):
                buf[i] = 0
        for i in range(_MAX_WORDS):
            self.lengths[i] = 0
        self.count = 0
        self.current = 0
        self.pending_key = ""
        self.pending_pos = 0

    # --- keys -------------------------------------------------------------

    def letter_key(self, key, t):
        """A digit press; returns True if it changed the entry."""
        cycle = self.keymap.cycle(key)
        if not cycle:
            return False
        if self.pending_key == key and ticks_diff(t, self.pending_t) < self.timeout_ms:
            self.pending_pos = (self.pending_pos + 1) % len(cycle)
            self.pending_t = t
            return True
        self.commit()
        if self.lengths[self.current] >= MAX_TILES:
            return False        # the word is full: a further letter is ignored
        self.pending_key = key
        self.pending_pos = 0
        self.pending_t = t
        return True

    def commit(self):
        """Commit the pending tile (separator key, other key, timeout)."""
        if not self.pending_key:
            return False
        i = self.current
        n = self.lengths[i]
        if n < MAX_TILES:
            self.words[i][n] = self.keymap.cycle(self.pending_key)[self.pending_pos]
            self.lengths[i] = n + 1
        self.pending_key = ""
        self.pending_pos = 0
        return True

    def expire(self, t):
        """Commit the pending tile once the multi-tap timeout has passed."""
        if self.pending_key and ticks_diff(t, self.pending_t) >= self.timeout_ms:
            return self.commit()
        return False

    def backspace(self):
        """Delete the pending or the last tile; False if the current word is empty."""
        if self.pending_key:
            self.pending_key = ""
            self.pending_pos = 0
            return True
        i = self.current
        if self.lengths[i]:
            self.lengths[i] -= 1
            self.words[i][self.lengths[i]] = 0
            return True
        return False

    def next_word(self):
        """End the current word; True if it moved to the next one, False if the
        word is empty or it was the last word (see complete())."""
        self.commit()
        if not self.lengths[self.current]:
            return False
        if self.current + 1 < self.count:
            self.current += 1
            return True
        return False

    def previous_word(self):
        if self.current == 0:
            return False
        self.current -= 1
        return True

    def complete(self):
        """All declared words have at least one tile."""
        if self.pending_key or self.count == 0:
            return False
        for i in range(self.count):
            if not self.lengths[i]:
                return False
        return True

    # --- reading ----------------------------------------------------------

    def pending_tile(self):
        if not self.pending_key:
            return -1
        return self.keymap.cycle(self.pending_key)[self.pending_pos]

    def text(self, i):
        """Word i as shown, the pending tile included."""
        tiles = self.keymap.tiles
        buf = self.words[i]
        out = "".join(tiles[buf[j]] for j in range(self.lengths[i]))
        if i == self.current and self.pending_key:
            out += tiles[self.pending_tile()]
        return out

    def tiles_of(self, i):
        return memoryview(self.words[i])[:self.lengths[i]]

    def legend(self):
        """The pending key's tiles with the chosen one in brackets, e.g. "2:A[C]B"."""
        key = self.pending_key
        if not key:
            return ""
        out = key + ":"
        cycle = self.keymap.cycle(key)
        tiles = self.keymap.tiles
        for pos in range(len(cycle)):
            tile = tiles[cycle[pos]]
            out += ("[" + tile + "]") if pos == self.pending_pos else tile
        return out
