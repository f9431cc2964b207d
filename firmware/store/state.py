# The game state for power-loss recovery in esp32.NVS("tileclock"), key "game".
#
# One record holds everything a cut must not lose, written by one set_blob and
# commit (so it is all old or all new):
#
#   "TC", version, then three lengths (u16) and the three parts:
#   - the clock engine's snapshot (clock/snapshot.py);
#   - the challenge terminal's state (terminal/persist.py; empty on the neutral screen);
#   - game log lines not yet known to be in logs/games.jsonl (empty almost always:
#     the device saves the state first and appends the lines at once after, so a
#     cut between the two leaves them here, and start-up appends them).
#
# Wear-aware: a record identical to the last one written is not written again
# (a paused or idle clock costs no flash); while a clock runs the state is
# written at least once a second (period_ms), and at every press, pause, key
# and challenge step the caller asks for a save at once.

from micropython import const
import struct

from timebase import ticks_clamp, ticks_diff

NAMESPACE = "tileclock"
KEY = "game"
MAGIC = b"TC"
VERSION = 2
_HEAD = "<2sBHHH"
HEAD_SIZE = 9
_MAX_BLOB = const(1536)  # the buffer for reading the record back (at start-up only)
_PERIOD_MS = const(900)  # under 1 s, so that loop jitter never stretches a gap past it


# Room for a record made once, twice (the one being built and the one last stored): a
# save in mid-game then allocates nothing, and a record-sized block is never asked of a
# fragmented heap during a challenge.  A record outgrowing it (a long list of challenged
# words, log lines held back) gets a larger buffer.
_ROOM = const(512)
class GameState:
    def __init__(self, nvs, period_ms=_PERIOD_MS):
        self._nvs = nvs
        self.period_ms = period_ms
        self._rec = bytearray(_ROOM)      # the record being built
        self._last = bytearray(_ROOM)     # the record last written (or read back)...
        self._last_n = -1                 # ...and its length (-1: none known)
        self._last_at = 0
        self._have_time = False
        self.writes = 0            # number of NVS commits (wear figure)

    def load(self):
        """(snapshot, terminal, log_lines) as bytes; None if there is no record or it
        is not ours; ValueError if it is ours but cannot be used (damaged, or written
        by a firmware with another layout)."""
        buf = bytearray(_MAX_BLOB)
        try:
            n = self._nvs.get_blob(KEY, buf)
        except OSError:
            return None
        if n < 3 or buf[0:2] != MAGIC:
            return None
        if n < HEAD_SIZE:
            raise ValueError("game state: too short")
        magic, version, a, b, c = struct.unpack_from(_HEAD, buf)
        if version != VERSION:
            raise ValueError("game state: version %d" % version)
        if HEAD_SIZE + a + b + c != n:
            raise ValueError("game state: wrong length")
        if len(self._last) < n:
            self._last = bytearray(n)
        self._last[:n] = memoryview(buf)[:n]
        self._last_n = n
        return (bytes(buf[HEAD_SIZE:HEAD_SIZE + a]), bytes(buf[HEAD_SIZE + a:HEAD_SIZE + a + b]),
                bytes(buf[HEAD_SIZE + a + b:n]))

    def room(self, snapshot_size, terminal_size):
        """Bytes left in a record for the log lines, next to a snapshot and a terminal
        part of these sizes (the caller bounds what waits by this: save refuses more)."""
        return _MAX_BLOB - HEAD_SIZE - snapshot_size - terminal_size

    def due(self, now):
        """True when a running clock's state is at least one period old."""
        if not self._have_time:
            return True
        # (the device asks at every round, running or not: an age past the period is
        # kept at the period, so that days of a paused clock never look recent to
        # ticks_diff, which turns at 2**29 ms)
        self._last_at = ticks_clamp(now, self._last_at, self.period_ms)
        return ticks_diff(now, self._last_at) >= self.period_ms

    def save(self, snapshot, now, terminal=b"", lines=b"", t=None):
        """Store the parts unless they are what is stored already; True if written.
        snapshot: the engine's snapshot as bytes, or the engine itself, whose snapshot
        at tick t is then written straight into the record (clock.engine.snapshot):
        a save in mid-game then allocates nothing of the record's size."""
        b, c = len(terminal), len(lines)
        whole = isinstance(snapshot, (bytes, bytearray, memoryview))
        a = len(snapshot) if whole else snapshot.snapshot_size()
        if HEAD_SIZE + a + b + c > _MAX_BLOB:
            raise ValueError("game state too long")
        self._last_at = now
        self._have_time = True
        rec = self._rec
        if len(rec) < HEAD_SIZE + a + b + c:
            rec = self._rec = bytearray(HEAD_SIZE + a + b + c + 64)   # room to grow
        if whole:
            rec[HEAD_SIZE:HEAD_SIZE + a] = snapshot
        else:
            snapshot.snapshot(t, rec, HEAD_SIZE)
        n = HEAD_SIZE + a + b + c
        struct.pack_into(_HEAD, rec, 0, MAGIC, VERSION, a, b, c)
        rec[HEAD_SIZE + a:HEAD_SIZE + a + b] = terminal
        rec[HEAD_SIZE + a + b:n] = lines
        last = self._last
        if self._last_n == n and _same(rec, last, n):
            return False
        self._nvs.set_blob(KEY, memoryview(rec)[:n])
        self._nvs.commit()
        # the buffers change places: the one just stored is the one to compare with
        self._rec = last
        self._last = rec
        self._last_n = n
        self.writes += 1
        return True

    def clear(self):
        """Forget the stored game (after a reset: nothing to recover)."""
        try:
            self._nvs.erase_key(KEY)
            self._nvs.commit()
        except OSError:
            pass
        self._last_n = -1


def create():
    import esp32

    return GameState(esp32.NVS(NAMESPACE))


def _same(x, y, n):
    for i in range(n):
        if x[i] != y[i]:
            return False
    return True
