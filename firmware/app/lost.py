# Game log lines the state record has no room for (docs/runtime.md, Storage faults):
# while the file takes none (a full or failing flash) they wait in the record, which
# has a limit (store.state); past it the oldest go, and one "lost" line in their place
# counts them.  It stands first in line, so it keeps the file's order, with the seq of
# the newest line lost, and reaches the file with the lines once the file takes them
# again; a cut meanwhile keeps it in the record like any line.  Loaded by app.device
# only when lines must go, and dropped after.

from micropython import const

from store.gamelog import seq_of

_KEY = const('"kind": "lost", "lines": ')


def line(seq, count, stamp):
    """The "lost" line: {"seq": .., "kind": "lost", "lines": count, "time": .., "table": ..}
    (stamp: what app.device ends a line with)."""
    return '{"seq": %d, "kind": "lost", "lines": %d%s' % (seq, count, stamp)


def count(text):
    """The count of a "lost" line, else 0."""
    at = text.find(_KEY)
    if at < 0:
        return 0
    at += len(_KEY)
    try:
        return int(text[at:text.find(",", at)])
    except ValueError:
        return 0


def fit(pending, room, stamp):
    """Drop the oldest of the lines `pending` (str, in order) until they take at most
    `room` bytes joined by newlines, a "lost" line first counting them (one already
    there goes on counting).  Returns the number of lines dropped."""
    lost = seq = 0
    if pending and count(pending[0]):
        lost = count(pending[0])
        seq = seq_of(pending.pop(0))
    sizes = [len(text.encode()) + 1 for text in pending]
    total = sum(sizes)
    drop = 0
    marker = ""
    while True:
        marker = line(seq, lost, stamp) if lost else ""
        need = total + (len(marker.encode()) + 1 if marker else 0) - 1
        if need <= room or drop == len(pending):
            break
        total -= sizes[drop]
        seq = max(seq, seq_of(pending[drop]))
        lost += 1
        drop += 1
    del pending[:drop]
    if marker and len(marker.encode()) <= room:
        pending.insert(0, marker)
    return drop
