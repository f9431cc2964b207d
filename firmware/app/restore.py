# Start-up: the game back from the NVS record (store/state.py) after a power cut,
# a restart or a deep sleep, or a new game.  Loaded by Device.start and dropped
# after it (nothing of it is needed while the game runs).
#
# The engine comes back with its own game's preset (clock/snapshot.py), paused;
# game log lines a cut kept from reaching logs/games.jsonl (saved in the record
# just before) go to the file with the first save; the log's numbering goes on
# after the highest seq in the file or in the record, so it never repeats.

from micropython import const
from clock import gamelog as gl
from clock.engine import PHASE_SETUP, Engine, new_engine
from store.files import size

# what the recovery note says about the restart
CAUSE_NOTES = {"watchdog": "recovered_wdt", "sleep": "recovered_sleep"}
_TAIL = const(512)  # bytes read back from the end of a log file to find its last record


def restore(dev, now, capacity):
    """Set dev.engine (and its log bookkeeping); returns the terminal's saved part."""
    terminal = b""
    engine = None
    try:
        parts = dev.state.load()
    except ValueError:
        parts = None
        dev.recovery_note = "not_recovered"
    try:
        file_seq = last_seq(dev.gamelog)
    except OSError:
        file_seq = -1
    if parts:
        snapshot, terminal, lines = parts
        file_seq = _left_over(dev, lines, file_seq)
        try:
            engine = Engine.restore(snapshot, None, dev.clock, capacity)
            engine.update(now)
        except ValueError:
            engine = None
            terminal = b""
            dev.recovery_note = "not_recovered"
        else:
            if engine.phase != PHASE_SETUP or _any_time_used(engine):
                dev.recovered = True
                dev.recovery_note = CAUSE_NOTES.get(dev.reset_cause, "recovered_note")
    if engine is None:
        engine = new_engine(dev.config.preset(), dev.clock, capacity, file_seq + 1)
    elif engine.log.next_seq() <= file_seq:
        engine.log = gl.GameLog(capacity, file_seq + 1)
    dev.engine = engine
    dev._log = engine.log                # where the records are taken from
    dev._log_seq = engine.log.next_seq() - 1
    return terminal


def _left_over(dev, lines, file_seq):
    # Lines a cut kept from reaching the file: the first save takes them along.
    if not lines:
        return file_seq
    todo = []
    for line in str(lines, "utf-8").split("\n"):
        seq = seq_of(line)
        if seq > file_seq:
            todo.append(line)
            file_seq = seq
    dev._pending = todo                  # saved and appended with the first save
    return file_seq


def _any_time_used(engine):
    # a duplicate game's panels show its move time
    initial = engine.preset["move_ms"] or engine.preset["initial_ms"]
    for side in (0, 1):
        d = engine.display(side)
        if d.overtime or d.remaining_ms != initial:
            return True
    return False


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


def last_seq(logfile):
    """The highest seq of the complete records at the end of a store.gamelog.LogFile
    (the current file, else the rotated one); -1 if there is none."""
    for path in (logfile.path, logfile.rotated):
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
