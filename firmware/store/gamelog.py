# Append-only JSON-lines log files with rotation: logs/games.jsonl, rotated to
# logs/games.1.jsonl once it passes max_bytes (one older generation kept).

from micropython import const
import os

from store.files import exists, makedirs, remove, size

_TAIL = const(512)  # bytes read back from the end of a log file to find its last record

GAMES_PATH = "logs/games.jsonl"
MAX_BYTES = 32 * 1024


class LogFile:
    def __init__(self, path=GAMES_PATH, max_bytes=MAX_BYTES):
        self.path = path
        self.max_bytes = max_bytes
        slash = path.rfind("/")
        self._dir = path[:slash] if slash > 0 else ""
        dot = path.rfind(".")
        self.rotated = path[:dot] + ".1" + path[dot:]

    def append(self, lines):
        """Append each line (str without newline); return how many were written."""
        if self._dir and not exists(self._dir):
            makedirs(self._dir)
        n_bytes = size(self.path)
        if n_bytes >= self.max_bytes:
            self.rotate()
            n_bytes = -1
        n = 0
        torn = n_bytes > 0 and not self._ends_with_newline(n_bytes)
        with open(self.path, "a") as f:
            if torn:
                f.write("\n")     # a line torn by a power cut stays on its own line
            for line in lines:
                f.write(line)
                f.write("\n")
                n += 1
        return n

    def _ends_with_newline(self, n_bytes):
        with open(self.path, "rb") as f:
            f.seek(n_bytes - 1)
            return f.read(1) == b"\n"

    def rotate(self):
        remove(self.rotated)
        if exists(self.path):
            os.rename(self.path, self.rotated)

    def last_seq(self):
        """The highest seq of the complete records at the end of the file (else of the
        rotated one); -1 if there is none."""
        for path in (self.path, self.rotated):
            n = size(path)
            if n <= 0:
                continue
            with open(path, "rb") as f:
                f.seek(max(0, n - _TAIL))
                tail = f.read()
            best = -1
            for raw in tail.split(b"\n"):
                try:
                    seq = seq_of(str(raw, "utf-8"))
                except UnicodeError:
                    continue
                if seq > best and raw.endswith(b"}"):
                    best = seq
            if best >= 0:
                return best
        return -1


def seq_of(line):
    """The seq of a game log line (clock.gamelog.GameLog.to_json starts it with
    '{"seq": N, '); -1 if the line is not one (a line torn by a power cut)."""
    if not line.startswith('{"seq": '):
        return -1
    end = line.find(",", 8)
    try:
        return int(line[8:end]) if end > 8 else -1
    except ValueError:
        return -1
