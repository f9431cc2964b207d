# Start-up: the game back from the NVS record (store/state.py) after a power cut,
# a restart or a deep sleep, or a new game (called once, by Device.start).
#
# The engine comes back with its own game's preset (clock/snapshot.py), paused;
# game log lines a cut kept from reaching logs/games.jsonl (saved in the record
# just before) go to the file with the first save; the log's numbering goes on
# after the highest seq in the file or in the record, so it never repeats.

from app.logqueue import continued, left_over
from clock.engine import PHASE_SETUP, Engine, new_engine

# what the recovery note says about the restart
CAUSE_NOTES = {"watchdog": "recovered_wdt", "sleep": "recovered_sleep"}


def restore(dev, now, capacity):
    """(engine, the terminal's saved part, the log lines a cut kept from the file)."""
    terminal = b""
    engine = None
    waiting = []
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
        # lines a cut kept from the file: the first save takes them along
        waiting, file_seq = left_over(lines, file_seq)
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
    else:
        engine.log = continued(engine.log, capacity, file_seq)
    return engine, terminal, waiting


def _any_time_used(engine):
    # a duplicate game's panels show its move time
    initial = engine.preset["move_ms"] or engine.preset["initial_ms"]
    for side in (0, 1):
        d = engine.display(side)
        if d.overtime or d.remaining_ms != initial:
            return True
    return False

