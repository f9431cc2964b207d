# Storage faults never stop the clock, and someone always knows (docs/runtime.md,
# Storage faults): a full filesystem, a failing NVS, a power cut between a challenge's
# record and the save of its verdict.  The case is the longest state record: a table
# name of the maximum length, the wall clock set (every game log line carries both),
# and the referee's undo slot filled.  What is checked is what the players, the
# referee and the organiser see: the game going on, the terminal, the link's INFO, the
# cue, the files.

import json

import esp32
import hal_rtc
import runtime_rig
from app.services import Services
from clock.engine import PHASE_PLAY
from clock.snapshot import MAX_SIZE
from store import gamelog as store_gamelog
from terminal import flow as F
from terminal import log as challenge_log

TABLE = "Saal-B-12345"          # 12 characters: store.config_check's longest
MAX_BLOB = 1536                 # store.state: the record's limit
ENOSPC = 28

_real_open = open
_real_set_blob = esp32.NVS.set_blob


# The tests that take more than a few seconds: left out of `python3 -m tests --fast`
# (tests/conftest.py reads this; a firmware test module cannot import pytest).
SLOW = ("test_a_full_flash_keeps_the_game_going_warns_and_counts_the_lost_lines", "test_lines_that_wait_survive_a_cut_and_so_does_the_count_of_the_lost_ones")


def _rig():
    rig = runtime_rig.Rig(terminal=True, lexicon="de", config={"lang": "en", "table": TABLE})
    hal_rtc.set_time((2026, 11, 27, 9, 30, 0))
    return rig


def _full_open(path, mode="r", *args):
    # a full filesystem: reading works, anything that writes fails
    if "w" in mode or "a" in mode or "+" in mode:
        raise OSError(ENOSPC)
    return _real_open(path, mode, *args)


def _fill_flash(full):
    for module in (store_gamelog, challenge_log):
        if full:
            module.open = _full_open
        elif "open" in module.__dict__:
            del module.open


class _Nvs:
    """esp32.NVS.set_blob watched: the longest record written, and failing on demand
    (raise: an exception class, or None)."""

    def __init__(self):
        self.longest = 0
        self.raise_ = None
        self.failed_at = None
        self.clock = None

    def __call__(self, nvs, key, value):
        if self.raise_ is not None:
            if self.failed_at is None:
                self.failed_at = self.clock.ticks_ms()
            raise self.raise_()
        if key == "game" and len(value) > self.longest:
            self.longest = len(value)
        return _real_set_blob(nvs, key, value)


def _watch_nvs(clock):
    watch = _Nvs()
    watch.clock = clock

    def set_blob(nvs, key, value):
        return watch(nvs, key, value)

    esp32.NVS.set_blob = set_blob
    return watch


def _restore():
    esp32.NVS.set_blob = _real_set_blob
    _fill_flash(False)


def _side(dev):
    return ("left", "right")[dev.engine.on_turn]


def _first_play_accepted(rig):
    # The right player starts the left clock, left plays, right accepts the play on the
    # terminal: the referee's undo slot holds the state before the accept.
    rig.press("right")
    rig.run(2000)
    rig.press("left")
    rig.run(500)
    rig.keys("C")
    assert len(rig.dev.engine.snapshot(rig.now())) == MAX_SIZE      # the longest slot


def _turns(rig, n):
    for _ in range(n):
        rig.run(1500)
        rig.press(_side(rig.dev))


def _challenge(rig):
    # The player off turn challenges the last play; HAUS is in the list: acceptable,
    # and the challenger's clock runs.
    rig.press("challenge")
    assert rig.dev.flow.state == F.COUNT
    rig.keys("1")
    rig.type_word("HAUS")
    rig.keys("#C#")
    assert rig.screen().startswith("ACCEPTABLE")
    rig.run(11000)                              # the verdict goes
    assert rig.dev.flow.state == F.NEUTRAL


def _game(rig, turns=50, challenges=5):
    per = turns // challenges
    for _ in range(challenges):
        _turns(rig, per)
        _challenge(rig)


def _file_lines(path="logs/games.jsonl"):
    try:
        with _real_open(path) as f:
            return [json.loads(line) for line in f.read().split("\n") if line]
    except OSError:
        return []


def _idle_screen(rig):
    rig.dev.flow.render()
    return rig.screen()


def test_a_full_flash_keeps_the_game_going_warns_and_counts_the_lost_lines():
    rig = _rig()
    watch = _watch_nvs(rig.clock)
    try:
        dev = rig.dev
        _first_play_accepted(rig)
        written = _file_lines()
        assert written and written[-1]["table"] == TABLE and written[-1]["time"]
        _fill_flash(True)
        full_at = rig.now()
        rig.press(_side(dev))
        # at the first line that does not reach the file: the warning and its cue
        assert dev.storage == "log_full"
        assert rig.now() - full_at <= 10000
        assert dev.board.buzzer.last_cue == "storage"
        shown = _idle_screen(rig)
        assert "LOG!" in shown.split("\n")[0]           # the title's mark
        info = Services(dev, None).device_info()
        assert info["storage"] == "log_full"
        _game(rig)
        assert dev.engine.phase == PHASE_PLAY
        assert not list(dev.flow.log.records())         # no room for them either
        assert MAX_BLOB - 160 < watch.longest <= MAX_BLOB      # full, never past it
        assert dev.lines_lost > 0 and dev.storage == "log_full"
        rig.run(60000)                                  # the game goes on, paused or not
        assert "Log full" in _idle_screen(rig) or "LOG!" in _idle_screen(rig)
        # room again: the next attempt (at most 10 s later) writes the lost line first
        _fill_flash(False)
        rig.press("pause")
        rig.run(10000)
        assert dev.storage == ""
        assert "LOG!" not in _idle_screen(rig)
        records = _file_lines()
        lost = [r for r in records if r["kind"] == "lost"]
        assert len(lost) == 1 and lost[0]["lines"] == dev.lines_lost
        assert lost[0]["table"] == TABLE and lost[0]["time"]
        seqs = [r["seq"] for r in records]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
        # the lost line stands for the lines missing from the numbering (it has the
        # seq of the newest of them)
        missing = (seqs[-1] - seqs[0] + 1) - len(seqs)
        assert missing + 1 == lost[0]["lines"]
        assert Services(dev, None).device_info()["lines_lost"] == dev.lines_lost
    finally:
        _restore()
        runtime_rig.leave()


def test_lines_that_wait_survive_a_cut_and_so_does_the_count_of_the_lost_ones():
    rig = _rig()
    _watch_nvs(rig.clock)
    try:
        _first_play_accepted(rig)
        _fill_flash(True)
        _turns(rig, 30)
        lost = rig.dev.lines_lost
        waiting = list(rig.dev.log.lines)
        assert lost > 0 and '"kind": "lost"' in waiting[0]
        rig.power_cut()
        rig.clock.advance(3000)
        _fill_flash(False)                     # room again while it was off
        dev = rig.boot()
        records = _file_lines()
        counted = [r for r in records if r["kind"] == "lost"]
        # the count went on from the record (the boot's own line may have taken the
        # room of one more: the record was full, and it is saved before the file)
        assert len(counted) == 1 and lost <= counted[0]["lines"] <= lost + 1
        seqs = [r["seq"] for r in records]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
        assert (seqs[-1] - seqs[0] + 1) - len(seqs) + 1 == counted[0]["lines"]
        assert records[-1]["kind"] == "recovered"
        assert dev.storage == ""
    finally:
        _restore()
        runtime_rig.leave()


def test_a_failing_nvs_keeps_the_game_going_and_says_not_saving():
    rig = _rig()
    watch = _watch_nvs(rig.clock)
    try:
        dev = rig.dev
        _first_play_accepted(rig)
        watch.raise_ = lambda: OSError(-0x1101)       # ESP_ERR_NVS_NOT_ENOUGH_SPACE
        rig.press(_side(dev))
        assert dev.storage == "not_saving"
        assert rig.now() - watch.failed_at <= 10000
        assert dev.board.buzzer.last_cue == "storage"
        assert "SAVE" in _idle_screen(rig).split("\n")[0]
        assert Services(dev, None).device_info()["storage"] == "not_saving"
        _game(rig)
        assert dev.save_failures > 50
        # a challenge's words on screen with the NVS failing: still no exception
        _turns(rig, 1)
        rig.press("challenge")
        rig.keys("2")
        rig.type_word("HAUS")
        rig.keys("#")
        rig.type_word("ZÜGE")
        rig.keys("*")
        assert dev.flow.state == F.ENTRY
        rig.keys("D#")
        assert dev.flow.state == F.NEUTRAL
        assert "Not saving" in _idle_screen(rig) or "SAVE" in _idle_screen(rig)
        # the NVS works again: the next save clears the warning
        watch.raise_ = None
        rig.run(2000)
        rig.press("pause")
        assert dev.storage == "" and "SAVE" not in _idle_screen(rig)
    finally:
        _restore()
        runtime_rig.leave()


def test_no_exception_from_a_save_reaches_the_loop():
    # Whatever a save raises (a bug below, no memory), the tick goes on and says so.
    rig = _rig()
    watch = _watch_nvs(rig.clock)
    try:
        dev = rig.dev
        _first_play_accepted(rig)
        for error in (lambda: ValueError("game state too long"), MemoryError, OSError):
            watch.raise_ = error
            _turns(rig, 3)
            assert dev.storage == "not_saving" and dev.engine.display(0).running != \
                dev.engine.display(1).running
        watch.raise_ = None
        _turns(rig, 1)
        assert dev.storage == ""
    finally:
        _restore()
        runtime_rig.leave()


def test_the_lost_line_counts_on_and_the_lines_never_pass_the_room():
    from app.lost import count, fit
    from store.gamelog import seq_of

    stamp = ', "time": "2026-11-27 09:30:00", "table": "%s"}' % TABLE
    pending = ['{"seq": %d, "kind": "pause", "at": 1000%s' % (seq, stamp)
               for seq in range(10, 20)]
    dropped = fit(pending, 400, stamp)
    assert len("\n".join(pending).encode()) <= 400
    assert dropped == 10 - (len(pending) - 1) and count(pending[0]) == dropped
    assert seq_of(pending[0]) == 10 + dropped - 1           # the newest line lost
    assert json.loads(pending[0])["kind"] == "lost" and seq_of(pending[1]) == 10 + dropped
    # more lines, less room: the same lost line counts on, still first
    pending += ['{"seq": %d, "kind": "resume", "at": 2000, "side": 0%s' % (seq, stamp)
                for seq in range(20, 24)]
    more = fit(pending, 300, stamp)
    assert more > 0 and count(pending[0]) == dropped + more
    assert len("\n".join(pending).encode()) <= 300
    seqs = [seq_of(line) for line in pending]
    assert seqs == sorted(seqs) and seqs[-1] == 23
    # lines that fit stay as they are
    kept = list(pending)
    assert fit(pending, 1000, stamp) == 0 and pending == kept
    # no room even for the lost line: nothing waits rather than too much
    fit(pending, 20, stamp)
    assert pending == []
