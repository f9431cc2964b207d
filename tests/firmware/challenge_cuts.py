# Power cuts placed between a challenge's record (logs/challenges.jsonl) and the save of
# the state that follows it (NVS): the device on the fakes plays a game of turns and
# challenges (verdicts from the list both ways, the referee's verdict, a withdrawn
# challenge), and at every challenge the power goes the moment after its record is in
# the file, before the verdict is in the state.  Used by
# tests/firmware/test_runtime_challenge_cuts.py (a quick count, under CPython and
# MicroPython) and bench/fault_challenge_cuts.py (the full count; docs/faults.md).
#
# run(n, cut) returns what the organiser gets: the challenge log's records and the
# game log's challenge lines.  With cut False the same game runs without a cut: each
# challenge must be in the log once, with what the uncut game gives it (its turn, its
# words, its verdict and penalty).

import esp32
import hal_rtc
import runtime_rig
from terminal import flow as F
from terminal import log as challenge_log


class PowerCut(BaseException):
    """The power goes: nothing in the firmware catches it (it is no Exception)."""


_VARIANTS = ("list_acceptable", "list_not_acceptable", "cancelled", "referee")
FIELDS = ("challenger", "turn", "words", "word_count", "verdict", "by", "penalty",
          "lost_turn", "withdrawn", "table")


class _Cutter:
    def __init__(self):
        self.armed = False
        self.cuts = 0
        self.append = challenge_log.ChallengeLog.append
        self.set_blob = esp32.NVS.set_blob

    def install(self):
        cutter = self

        def append(log, record, seq=0):
            before = log.seq
            done = cutter.append(log, record, seq)
            if log.seq != before:
                cutter.armed = True     # the record is in the file: the next save is cut
            return done

        def set_blob(nvs, key, value):
            if cutter.armed and key == "game":
                cutter.armed = False
                cutter.cuts += 1
                raise PowerCut()
            return cutter.set_blob(nvs, key, value)

        challenge_log.ChallengeLog.append = append
        esp32.NVS.set_blob = set_blob

    def remove(self):
        challenge_log.ChallengeLog.append = self.append
        esp32.NVS.set_blob = self.set_blob
        self.armed = False


def _side(dev):
    return ("left", "right")[dev.engine.on_turn]


def _running(dev):
    return dev.engine.display(0).running or dev.engine.display(1).running


def _turns(rig, n):
    for _ in range(n):
        rig.run(1200, 50)
        rig.press(_side(rig.dev))


def _keys(rig, text, cutter):
    """Keys until the power goes (True) or all are taken (False)."""
    for ch in text:
        try:
            rig.key(ch)
        except PowerCut:
            return True
    return False


def _challenge(rig, variant, cutter):
    dev = rig.dev
    challenger = dev.engine.on_turn          # the clock runs for the one who challenges
    rig.press("challenge")
    if dev.flow.state != F.COUNT:
        raise AssertionError("no challenge: " + rig.screen())
    if variant == "referee":
        rig.keys("1")
        rig.type_word("HAUSES")                  # 6 tiles: beyond the list
        rig.keys("#C#")
        if dev.flow.state != F.REFEREE_WAIT:
            raise AssertionError("not for the referee: " + rig.screen())
        rig.keys("D0000#")
        keys = "1"                               # 1: acceptable
    else:
        rig.keys("1")
        rig.type_word("HXAUS" if variant == "list_not_acceptable" else "HAUS")
        keys = "D#" if variant == "cancelled" else "#C#"
    cut = _keys(rig, keys, cutter)
    if cut:
        rig.power_cut()
        rig.clock.advance(2000)
        rig.boot()
    dev = rig.dev
    if variant != "cancelled" and dev.flow.state != F.VERDICT:
        raise AssertionError("no verdict after the challenge: " + rig.screen())
    rig.run(1600, 100)
    rig.keys("*")                                # the verdict goes (any key after 1.5 s)
    if dev.engine.paused:
        rig.press("pause")                       # a recovered game goes on
    if not _running(dev):
        rig.press(("left", "right")[1 - challenger])   # the tiles are back: the clock
    if not _running(dev):
        raise AssertionError("the game does not go on: " + rig.screen())
    return cut


def _game_log(games):
    # the game log's challenge lines not collected yet (games: the lines so far)
    import json

    last = games[-1]["seq"] if games else -1
    for path in ("logs/games.1.jsonl", "logs/games.jsonl"):
        try:
            with open(path) as f:
                text = f.read()
        except OSError:
            continue
        for line in text.split("\n"):
            if line:
                record = json.loads(line)
                if record["kind"] == "challenge" and record["seq"] > last:
                    games.append(record)
                    last = record["seq"]


def run(challenges, cut=True, turns_between=(1, 2, 3)):
    """Play `challenges` challenges (turns between them), each cut between its record
    and its save when `cut`; (challenge log records, game log challenge lines, cuts)."""
    cutter = _Cutter()
    rig = runtime_rig.Rig(terminal=True, lexicon="de",
                          config={"lang": "en", "table": "Saal-B-12345"})
    hal_rtc.set_time((2026, 11, 27, 9, 30, 0))
    try:
        if cut:
            cutter.install()
        rig.press("right")
        records = []                             # collected as they come: the files rotate
        games = []
        for i in range(challenges):
            _turns(rig, turns_between[i % len(turns_between)])
            rig.run(500)
            _challenge(rig, _VARIANTS[i % len(_VARIANTS)], cutter)
            last = records[-1]["seq"] if records else 0
            records += [r for r in rig.dev.flow.log.records() if r["seq"] > last]
            _game_log(games)
        _turns(rig, 1)
        cutter.remove()
        rig.press("pause")                       # the last lines reach the file
        _game_log(games)
        return records, games, cutter.cuts
    finally:
        cutter.remove()
        runtime_rig.leave()


def check(challenges, records, games, reference):
    """Each challenge once, in order, as the uncut game has it; raises AssertionError."""
    seqs = [r["seq"] for r in records]
    if len(records) != challenges or len(set(seqs)) != len(seqs) or seqs != sorted(seqs):
        raise AssertionError("challenge log seqs %r, %d challenges" % (seqs, challenges))
    for got, want in zip(records, reference):
        for key in FIELDS:
            if got.get(key) != want.get(key):
                raise AssertionError("seq %d: %s %r, uncut %r"
                                     % (got["seq"], key, got.get(key), want.get(key)))
    if len(games) != challenges:
        raise AssertionError("game log: %d challenge lines for %d challenges"
                             % (len(games), challenges))
