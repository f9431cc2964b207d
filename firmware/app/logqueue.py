# The game log's way from the engine to logs/games.jsonl (docs/runtime.md, Persistence
# and recovery; Storage faults).
#
# The engine keeps its newest records in RAM (clock/gamelog.py).  After every event the
# device takes the new ones into this queue as JSON lines, saves them in the NVS record
# with the game's state, then appends them to the file: a power cut between the two
# leaves them in the record, and start-up puts them back here (app/restore.py).  The
# queue is bounded by the bytes the record has left for it (GameState.room): past that
# the oldest lines go and one "lost" line in their place counts them (app/lost.py).
# Nothing here raises on a failing flash: the caller is told, the clock goes on.

from clock import gamelog as gl
from store.gamelog import seq_of


class LogQueue:
    def __init__(self, logfile, stamp):
        """logfile: store.gamelog.LogFile; stamp() -> what ends every line (the
        wall-clock time and the table, app.device)."""
        self.file = logfile
        self._stamp = stamp
        self.lines = []          # JSON lines not yet in the file, in order
        self.lost = 0            # lines dropped for want of room, since start-up
        self.failed = False      # the last append to the file raised
        self._source = None      # the engine log the lines were last taken from
        self._seq = -1           # seq of the last record taken

    def follow(self, log, left_over=()):
        """Take records from the engine log `log` after those it holds now; `left_over`:
        lines a cut kept from reaching the file (start-up), appended first."""
        self._source = log
        self._seq = log.next_seq() - 1
        self.lines[:] = left_over

    def take(self, log):
        """The engine's new records into the queue, in order: after a reset (a new
        engine log) first the rest of the old log, then the new one's."""
        old = self._source
        self._source = log
        stamp = None
        for source in (old, log):
            if source is None:
                continue
            last = source.last()
            if last is None or last[0] <= self._seq:
                continue
            if stamp is None:
                stamp = self._stamp()
            for line in source.lines_since(self._seq):
                self.lines.append(line[:-1] + stamp)
            self._seq = last[0]

    def encoded(self):
        """The waiting lines as the NVS record holds them."""
        lines = self.lines
        return "\n".join(lines).encode() if lines else b""

    def fit(self, room):
        """Drop the oldest lines until the rest take at most `room` bytes; returns the
        record's bytes."""
        from app.lost import fit

        self.lost += fit(self.lines, room, self._stamp())
        return self.encoded()

    def flush(self):
        """Append the waiting lines to the file; True once they are there (or there were
        none), False if the file took them not (they wait, and are tried again)."""
        try:
            if not self.lines:
                return True
            if self.failed:
                self._drop_written()
            self.file.append(self.lines)
        except Exception:        # a full or failing flash must not stop the clock
            self.failed = True
            return False
        self.failed = False
        del self.lines[:]
        return True

    def _drop_written(self):
        # After a failed append part of the lines may be in the file: not twice.
        last = self.file.last_seq()
        lines = self.lines
        while lines and seq_of(lines[0]) <= last:
            lines.pop(0)


def left_over(lines, file_seq):
    """The lines of an NVS record (bytes, newline-separated) whose seq is past the
    file's last one `file_seq`, and the highest seq then known."""
    todo = []
    if lines:
        for line in str(lines, "utf-8").split("\n"):
            seq = seq_of(line)
            if seq > file_seq:
                todo.append(line)
                file_seq = seq
    return todo, file_seq


def continued(log, capacity, file_seq):
    """The engine log `log`, or a new one numbered after `file_seq` if the file is
    ahead of it (the numbering never repeats)."""
    if log.next_seq() <= file_seq:
        return gl.GameLog(capacity, file_seq + 1)
    return log
