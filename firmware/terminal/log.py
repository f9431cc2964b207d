# The challenge log on flash: one JSON object per line in
# <dir>/challenges.jsonl, rotated to challenges.1.jsonl when it would pass
# max_bytes, so at most about 2 x max_bytes stay on flash.  Each record is
# written with one open/write/close, so a power cut loses at most the record
# being written; a torn last line is skipped on reading and never glued to the
# next record.
#
# A challenge's record has its seq from the challenge's start (ChallengeFlow keeps it
# in the game state record): a verdict the state did not keep because a cut came
# between the record and the save, given again, is not written twice (append skips a
# seq the file has) and start-up reads the verdict back from the file (find).

from micropython import const
import io
import json
import os

NAME = "challenges.jsonl"
OLD_NAME = "challenges.1.jsonl"
# Room for the file object an append opens (VfsLfs2's file with its cache: 252 bytes on
# the chip's 32 bits), held from start-up and let go just before the open.  A verdict
# is the heap's fullest moment, and in pieces by then: an allocation that finds no hole
# collects first (py/gc.c, gc_alloc), and this block is then free for the file.  The
# record itself is written piece by piece (json.dump): no line of it in RAM.
_ROOM = const(256)


class _Length(io.IOBase):
    """A stream that only counts what is written to it: a record's length, without the
    record."""

    def __init__(self):
        self.n = 0

    def write(self, data):
        self.n += len(data)
        return len(data)


def _size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return -1


class ChallengeLog:
    def __init__(self, directory="/logs", max_bytes=16384):
        self.directory = directory
        self.max_bytes = max_bytes
        self.path = directory + "/" + NAME
        self.old_path = directory + "/" + OLD_NAME
        try:
            os.mkdir(directory)
        except OSError:
            pass            # exists already
        self.seq = 0
        # whether the file ends with a whole line: learnt here, at start-up, then kept up
        # to date, so that an append (at a verdict, the heap at its fullest) opens the
        # file once, not twice
        size = _size(self.path)
        self._whole = size <= 0 or self._ends_with_newline(size)
        for record in self.records():
            seq = record.get("seq", 0)
            if isinstance(seq, int) and seq > self.seq:
                self.seq = seq
        self._room = None
        self._reserve()

    def _reserve(self):
        try:
            self._room = bytearray(_ROOM)
        except MemoryError:
            self._room = None       # none this time: the next append goes without

    def next_seq(self):
        """The seq the next record gets (a challenge reserves it at its start)."""
        return self.seq + 1

    def has(self, seq):
        """True if the file has the record `seq` (or a later one: seqs only grow)."""
        return seq <= self.seq

    def append(self, record, seq=0):
        """Write one record (a dict); adds "seq": `seq` if given, else the next one.
        A seq the file has already is not written again.  Returns the seq."""
        if seq and self.has(seq):
            return seq
        seq = seq if seq > self.seq else self.seq + 1
        record["seq"] = seq
        length = _Length()
        json.dump(record, length)
        size = _size(self.path)
        if size > 0 and size + length.n + 1 > self.max_bytes:
            self._rotate()
            size = -1
        torn = size > 0 and not self._whole
        self._whole = False
        self._room = None
        try:
            with open(self.path, "a") as f:
                if torn:
                    f.write("\n")    # a torn line from a power cut stays on its own line
                json.dump(record, f)
                f.write("\n")
        finally:
            self._reserve()
        self._whole = True
        self.seq = seq          # only once it is in the file: a failed one is tried again
        return seq

    def _ends_with_newline(self, size):
        with open(self.path, "rb") as f:
            f.seek(size - 1)
            return f.read(1) == b"\n"

    def _rotate(self):
        try:
            os.remove(self.old_path)
        except OSError:
            pass
        os.rename(self.path, self.old_path)

    def find(self, seq):
        """The record `seq`, or None (start-up only: reads the files)."""
        for record in self.records():
            if record.get("seq") == seq:
                return record
        return None

    def records(self):
        """Every readable record, oldest first (torn lines are skipped)."""
        for path in (self.old_path, self.path):
            if _size(path) < 0:
                continue
            with open(path, "rb") as f:
                for raw in f:
                    raw = raw.strip()
                    if not raw:
                        continue
                    try:
                        record = json.loads(raw.decode("utf-8"))
                    except ValueError:      # torn line (UnicodeError is a ValueError)
                        continue
                    if isinstance(record, dict):
                        yield record
