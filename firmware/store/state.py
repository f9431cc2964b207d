# The game state for power-loss recovery in esp32.NVS("tileclock"), key "game".
#
# Wear-aware: a blob identical to the last one written is not written again
# (a paused or idle clock costs no flash); while a clock runs the state is
# written at least once a second (period_ms), and at every press, pause and
# challenge the caller asks for a save at once.  The stored record is a small
# header (magic, version, length) followed by the clock engine's snapshot.

from timebase import ticks_diff

NAMESPACE = "tileclock"
KEY = "game"
MAGIC = b"TC"
VERSION = 1
MAX_BLOB = 300
PERIOD_MS = 900      # under 1 s, so that loop jitter never stretches a gap past it


class GameState:
    def __init__(self, nvs, period_ms=PERIOD_MS):
        self._nvs = nvs
        self.period_ms = period_ms
        self._last = None          # bytes last written (or read back)
        self._last_at = 0
        self._have_time = False
        self._buf = bytearray(MAX_BLOB)
        self.writes = 0            # number of NVS commits (wear figure)

    def load(self):
        """The stored snapshot (bytes) or None if there is none or it is not ours."""
        try:
            n = self._nvs.get_blob(KEY, self._buf)
        except OSError:
            return None
        if n < 4 or self._buf[0:2] != MAGIC or self._buf[2] != VERSION:
            return None
        length = self._buf[3]
        if 4 + length > n:
            return None
        record = bytes(self._buf[:4 + length])
        self._last = record
        return record[4:]

    def due(self, now):
        """True when a running clock's state is at least one period old."""
        return not self._have_time or ticks_diff(now, self._last_at) >= self.period_ms

    def save(self, snapshot, now):
        """Store the snapshot unless it is what is stored already; True if written."""
        if len(snapshot) > 255:
            raise ValueError("snapshot too long")
        record = MAGIC + bytes((VERSION, len(snapshot))) + snapshot
        self._last_at = now
        self._have_time = True
        if record == self._last:
            return False
        self._nvs.set_blob(KEY, record)
        self._nvs.commit()
        self._last = record
        self.writes += 1
        return True

    def clear(self):
        """Forget the stored game (after a reset: nothing to recover)."""
        try:
            self._nvs.erase_key(KEY)
            self._nvs.commit()
        except OSError:
            pass
        self._last = None


def create():
    import esp32

    return GameState(esp32.NVS(NAMESPACE))
