# The referee's PIN lock: 3 wrong PINs in a row lock the PIN entry, for 30 s the first
# time, then twice as long at each further lockout (1 min, 2 min, ...), 15 min at most,
# until the right PIN is typed.  The wrong PINs, the lockouts and a lockout in progress
# are kept in NVS (the esp32.NVS("tileclock") the device passes in, key "pin": three
# bytes, written only when one of them changes: a few writes a tournament): a power cut
# neither clears a lockout nor resets the count.  The chip's ticks start again at a
# power-on and the time it was off is unknown, so a lockout on at the cut starts again in
# full.  A failing NVS leaves the lock in RAM (until the next power cut).
#
# A lockout's start is a stored tick: age(t), called at every round of the main loop
# (terminal.flow.update), ends it once over, so it is never older than the lockout's
# length and ticks_diff compares it right at any uptime (timebase: it turns at 2**29 ms).

from micropython import const
from timebase import ticks_diff

_TRIES = const(3)           # wrong PINs before a lockout
_FIRST_MS = const(30000)    # the first lockout
_MAX_MS = const(900000)     # the longest


def lock_ms(lockouts):
    """The length of the lockout after `lockouts` of them (1: the first)."""
    ms = _FIRST_MS
    for _ in range(1, lockouts):
        ms *= 2
        if ms >= _MAX_MS:
            return _MAX_MS
    return ms


_KEY = const("pin")


class PinLock:
    def __init__(self, nvs=None):
        self._nvs = nvs
        kept = bytearray(3)
        try:
            n = nvs.get_blob(_KEY, kept) if nvs is not None else 0
        except OSError:
            n = 0                   # nothing stored (or not ours): no wrong PIN yet
        tries, lockouts, locked = kept if n == 3 else b"\0\0\0"
        self.tries = tries if tries < _TRIES else _TRIES - 1
        self.lockouts = lockouts
        self.locked_t = None        # tick the lockout began, None: not locked
        self._restart = bool(locked) and lockouts > 0   # begins at the first tick seen

    def age(self, t):
        """Start a lockout restored from NVS, end one that is over; True if it changed."""
        if self._restart:
            self._restart = False
            self.locked_t = t
            return True
        if self.locked_t is not None and ticks_diff(t, self.locked_t) >= lock_ms(self.lockouts):
            self.locked_t = None
            self._save()
            return True
        return False

    def left_ms(self, t):
        """ms the PIN entry stays locked from tick t; 0: open."""
        self.age(t)
        if self.locked_t is None:
            return 0
        n = lock_ms(self.lockouts) - ticks_diff(t, self.locked_t)
        return n if n > 0 else 0

    def wrong(self, t):
        """A wrong PIN at tick t; True if it locks the entry."""
        self.tries += 1
        locks = self.tries >= _TRIES
        if locks:
            self.tries = 0
            self.lockouts += 1 if self.lockouts < 255 else 0
            self.locked_t = t
        self._save()
        return locks

    def right(self):
        """The right PIN: the count starts again."""
        if self.tries or self.lockouts:
            self.tries = 0
            self.lockouts = 0
            self._save()

    def _save(self):
        nvs = self._nvs
        if nvs is None:
            return
        try:
            nvs.set_blob(_KEY, bytes((self.tries, self.lockouts,
                                      0 if self.locked_t is None else 1)))
            nvs.commit()
        except OSError:
            pass                    # a failing NVS must not stop the terminal
