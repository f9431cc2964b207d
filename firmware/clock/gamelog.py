# The game log: a ring of the last `capacity` records, each a small tuple,
# so a long game cannot run the device out of memory.  Times are game
# milliseconds since the game's first event: ticks mean nothing after a
# reboot.  JSON lines are built here with a fixed key order (MicroPython's
# dicts do not keep insertion order).

import json
from micropython import const

START = 0
LATE = 1
ARRIVE = 2
TURN = 3
PAUSE = 4
RESUME = 5
HOLD = 6
CHALLENGE = 7
ADJUST = 8
FORFEIT = 9
END = 10
RESET = 11       # the referee reset the clock during a game
RECOVERED = 12   # the device came back after a power cut or a restart
ENDED = 13       # the game was ended from outside (a forced preset change)
SWITCH = 14      # clocks switched without a play (3.1.1, 4.2c lent; 7.3.2.2 turn lost)
UNDO = 15        # the referee took back the last end, accept or forfeit
CONTINUE = 16    # the game goes on after a presumed end (4.4b iii, 3.4b)
MOVE = 17        # duplicate: a move's countdown ended (its time, or the game's end)
SCORE = 18       # the players' scores from their sheets, confirmed at the keypad after the end

# Each kind's name and the names of its fields after "seq" and "kind", one line per kind
# in the order of the numbers above: a string rather than a table of tuples, so that on
# the chip it stays in flash (docs/runtime.md, Memory); layout() reads a line.
_LAYOUT = const(
    "start at side preset\n"
    "late at side\n"
    "arrive at side late_ms\n"
    "turn side start end ms left\n"
    "pause at\n"
    "resume at side\n"
    "hold at side\n"
    "challenge at side words verdict penalty\n"
    "adjust at side ms\n"
    "forfeit at side reason\n"
    "end at left penalty notes\n"
    "reset at phase\n"
    "recovered at phase cause\n"
    "ended at reason\n"
    "switch at side lent\n"
    "undo at what\n"
    "continue at side\n"
    "move n start end ms\n"
    "score at score final")


def layout(kind):
    """(name, [field names]) of a record kind."""
    at = 0
    for _ in range(kind):
        at = _LAYOUT.index("\n", at) + 1
    end = _LAYOUT.find("\n", at)
    names = _LAYOUT[at:end if end >= 0 else len(_LAYOUT)].split()
    return names[0], names[1:]


def _value(value):
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return json.dumps(value)


class GameLog:
    def __init__(self, capacity=256, start=0):
        """start: seq of the first record.  The device numbers records across games
        and boots (docs/runtime.md, Game log), so a new game's log goes on from the
        last one's."""
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self._ring = [None] * capacity
        self._first = start  # seq of the first record this log held
        self._next = start   # seq of the next record; record seq lives at index seq % capacity
        self.dropped = 0
        self.turns = 0       # turns finished in this game (the challenge log names the turn)

    def add(self, kind, *fields):
        if kind == TURN:
            self.turns += 1
        elif kind == START:
            self.turns = 0
        if self._next - self._first >= self.capacity:
            self.dropped += 1
        self._ring[self._next % self.capacity] = (self._next, kind) + fields
        self._next += 1

    def next_seq(self):
        return self._next

    def __len__(self):
        n = self._next - self._first
        return n if n < self.capacity else self.capacity

    def records(self):
        """The kept records, oldest first, as tuples (seq, kind, fields...)."""
        first = self._next - len(self)
        for seq in range(first, self._next):
            yield self._ring[seq % self.capacity]

    def last(self):
        return self._ring[(self._next - 1) % self.capacity] if self._next > self._first else None

    @staticmethod
    def to_json(record):
        name, names = layout(record[1])
        parts = ['"seq": %d' % record[0], '"kind": ' + json.dumps(name)]
        for index in range(len(names)):
            parts.append(json.dumps(names[index]) + ": " + _value(record[2 + index]))
        return "{" + ", ".join(parts) + "}"

    def export_jsonl(self):
        """One JSON text per record (no newline), oldest first."""
        for record in self.records():
            yield self.to_json(record)

    def lines_since(self, seq):
        """JSON texts of the kept records whose seq is greater than `seq`."""
        for record in self.records():
            if record[0] > seq:
                yield self.to_json(record)
