# Start-up: the game back from the NVS record (store/state.py) after a power cut,
# a restart or a deep sleep, or a new game.  Loaded by Device.start and dropped
# after it (nothing of it is needed while the game runs).
#
# The engine comes back with its own game's preset (clock/snapshot.py), paused;
# game log lines a cut kept from reaching logs/games.jsonl (saved in the record
# just before) go to the file with the first save; the log's numbering goes on
# after the highest seq in the file or in the record, so it never repeats.

from clock import gamelog as gl
from clock.engine import PHASE_SETUP, Engine, new_engine
from store.gamelog import seq_of

# what the recovery note says about the restart
CAUSE_NOTES = {"watchdog": "recovered_wdt", "sleep": "recovered_sleep"}


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
        file_seq = dev.gamelog.last_seq()
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

