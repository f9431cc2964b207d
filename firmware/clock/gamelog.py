# The game log: a ring of the last `capacity` records, each a small tuple,
# so a long game cannot run the device out of memory.  Times are game
# milliseconds since the game's first event: ticks mean nothing after a
# reboot.  JSON lines are built here with a fixed key order (MicroPython's
# dicts do not keep insertion order).

import json

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

# kind -> (name, field names after "seq" and "kind")
LAYOUT = (
    ("start", ("at", "side", "preset")),
    ("late", ("at", "side")),
    ("arrive", ("at", "side", "late_ms")),
    ("turn", ("side", "start", "end", "ms", "left")),
    ("pause", ("at",)),
    ("resume", ("at", "side")),
    ("hold", ("at", "side")),
    ("challenge", ("at", "side", "words", "verdict", "penalty")),
    ("adjust", ("at", "side", "ms")),
    ("forfeit", ("at", "side", "reason")),
    ("end", ("at", "left", "penalty", "notes")),
    ("reset", ("at", "phase")),
    ("recovered", ("at", "phase", "cause")),
    ("ended", ("at", "reason")),
)


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
        name, names = LAYOUT[record[1]]
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
