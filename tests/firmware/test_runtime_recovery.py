# No game is ever lost: power cuts at every step of a challenge, keys saved before
# the next one, the referee's way out of any state, presets changed during a game,
# the game log across resets and recoveries, settings that change nothing, the
# empty battery.  The device on the fakes with the German fixture list; what is
# checked is what the players see (the terminal's lines, the clocks) and what the
# files hold.

import json

import esp32
import hwconfig
import machine
import runtime_rig
from clock.engine import PHASE_OVER, PHASE_PLAY
from clock.gamelog import GameLog
from terminal import flow as F


# The tests that take more than a few seconds: left out of `python3 -m tests --fast`
# (tests/conftest.py reads this; a firmware test module cannot import pytest).
SLOW = ("test_a_cut_at_every_step_of_a_challenge_comes_back_to_that_step",)


def _rig(**kw):
    return runtime_rig.Rig(terminal=True, lexicon="de", config={"lang": "en"}, **kw)


def _a_play_by_left(rig):
    """The right player starts the left clock, left plays: right may challenge."""
    rig.press("right")
    rig.run(3000)
    rig.press("left")
    rig.run(1000)


def _cut(rig, off_ms=5000):
    rig.power_cut()
    rig.clock.advance(off_ms)             # the device is off for a while
    return rig.boot()


def _pin(rig):
    rig.keys("0000#")


def test_a_cut_at_every_step_of_a_challenge_comes_back_to_that_step():
    rig = _rig()
    try:
        _a_play_by_left(rig)
        rig.press("challenge")
        times = (rig.left_ms(0), rig.left_ms(1))
        dev = _cut(rig)
        assert dev.recovered and dev.engine.challenging and dev.flow.state == F.COUNT
        assert "Words? 1-8" in rig.screen()
        assert (rig.left_ms(0), rig.left_ms(1)) == times       # nobody's clock ran
        rig.keys("2")
        rig.type_word("HAUS")
        rig.keys("#")
        rig.type_word("ZÜ")                   # the Ü still cycling on its key
        dev = _cut(rig)
        assert dev.flow.state == F.ENTRY and "Word 2/2" in rig.screen()
        assert "1 HAUS" in rig.screen() and "2 ZÜ_" in rig.screen()
        rig.type_word("GE")
        rig.keys("#")
        dev = _cut(rig)
        assert dev.flow.state == F.CONFIRM and "Opponent checks" in rig.screen()
        assert "1 HAUS" in rig.screen() and "2 ZÜGE" in rig.screen()
        rig.keys("C")
        dev = _cut(rig)
        assert dev.flow.state == F.READY and "# = check" in rig.screen()
        assert (rig.left_ms(0), rig.left_ms(1)) == times
        rig.keys("#")
        assert rig.screen().startswith("ACCEPTABLE")
        dev = _cut(rig)
        # the verdict is applied and on screen again: 10 per word for the challenger
        shown = rig.screen()
        assert dev.flow.state == F.VERDICT and shown.startswith("ACCEPTABLE")
        assert "20 penalty pts" in shown and "Clock: right" in shown
        assert dev.engine.display(1).challenge_penalty == 20 and not dev.engine.challenging
        rig.run(11000)                         # the verdict goes; the game is paused
        assert dev.flow.state == F.NEUTRAL and "HAUS" not in rig.screen()
        rig.press("pause")
        assert dev.engine.display(1).running and dev.engine.on_turn == 1
        assert rig.left_ms(0) == times[0]
        challenges = list(dev.flow.log.records())
        assert len(challenges) == 1 and challenges[0]["words"] == ["HAUS", "ZÜGE"]
    finally:
        runtime_rig.leave()


def test_a_cut_on_the_referee_decides_screen_and_the_referees_verdict_after():
    rig = _rig()
    try:
        _a_play_by_left(rig)
        rig.press("challenge")
        rig.keys("2")
        for word in ("HAUS", "HAUSES"):        # HAUSES: 6 tiles, the list covers 5
            rig.type_word(word)
            rig.keys("#")
        rig.keys("C#")
        assert rig.dev.flow.state == F.REFEREE_WAIT
        dev = _cut(rig)
        shown = rig.screen()
        assert dev.flow.state == F.REFEREE_WAIT and "decides" in shown
        assert "1 HAUS" in shown and "2 HAUSES" in shown
        rig.keys("D")
        _pin(rig)
        assert "1 acceptable" in rig.screen()
        dev = _cut(rig)                        # the PIN entry is not kept: the step under it is
        assert dev.flow.state == F.REFEREE_WAIT
        rig.keys("D")
        _pin(rig)
        rig.keys("1")
        assert rig.screen().startswith("ACCEPTABLE") and "20 penalty pts" in rig.screen()
    finally:
        runtime_rig.leave()


def test_a_key_is_saved_before_the_next_one_is_taken():
    rig = _rig()
    try:
        _a_play_by_left(rig)
        rig.press("challenge")
        rig.keys("1")
        rig.type_word("SEE")
        rig.keys("#")
        assert rig.dev.flow.state == F.CONFIRM
        # C pressed and seen by two scans; the power goes before the next tick
        rig.matrix.press_key("C")
        for _ in range(2):
            rig.clock.advance(10)
            rig.dev.scan_keys(rig.now())
        assert rig.dev.flow.state == F.READY
        dev = _cut(rig, 10)
        assert dev.flow.state == F.READY
        rig.matrix.release_key("C")
        rig.keys("#")                          # the check: SEE is a word
        assert rig.screen().startswith("ACCEPTABLE") and "10 penalty pts" in rig.screen()
    finally:
        runtime_rig.leave()


def test_a_challenge_saved_without_its_step_goes_on_from_the_word_count():
    rig = _rig()
    try:
        _a_play_by_left(rig)
        rig.press("challenge")
        rig.keys("1")
        # what a cut in an older firmware left: the engine's part alone
        dev = rig.dev
        dev.state.save(dev.engine.snapshot(rig.now()), rig.now())
        dev = _cut(rig)
        assert dev.engine.challenging and dev.flow.state == F.COUNT
        rig.press("pause")                     # ignored during a challenge, as always
        assert dev.engine.challenging
        rig.keys("1")
        rig.type_word("HXAUS")
        rig.keys("#C#")
        assert rig.screen().startswith("NOT ACCEPTABLE") and "Play withdrawn" in rig.screen()
        assert not dev.engine.display(1).running
        rig.press("left")                      # the player restarts the challenger's clock
        assert dev.engine.display(1).running
    finally:
        runtime_rig.leave()


def test_the_referee_reaches_the_menu_from_any_step_and_cancels_or_retakes_the_challenge():
    rig = _rig()
    try:
        _a_play_by_left(rig)
        before = (rig.left_ms(0), rig.left_ms(1))
        rig.press("challenge")
        rig.keys("2")
        rig.type_word("HAUS")
        rig.keys("DD")                         # cancel? D: the referee
        _pin(rig)
        assert "5 Challenge" in rig.screen()
        rig.keys("5")
        assert "1 Words again" in rig.screen() and "2 Cancel it" in rig.screen()
        rig.keys("1")                          # take it up again: the word count
        assert rig.dev.flow.state == F.COUNT and rig.dev.engine.challenging
        rig.keys("1")
        rig.type_word("ABER")
        rig.keys("#")
        assert rig.dev.flow.state == F.CONFIRM
        rig.keys("DD")
        _pin(rig)
        rig.keys("52")                         # cancel: the clocks as before the challenge
        assert rig.dev.flow.state == F.NEUTRAL and not rig.dev.engine.challenging
        assert rig.dev.engine.display(1).running
        assert rig.left_ms(0) == before[0]
        assert list(rig.dev.flow.log.records())[-1]["verdict"] == "cancelled"
        # after a cut the clocks are stopped: the referee restarts the side on turn
        dev = _cut(rig)
        assert dev.engine.paused
        rig.keys("D")
        _pin(rig)
        assert "5 Resume right" in rig.screen()
        rig.keys("5")
        assert dev.flow.state == F.NEUTRAL and dev.engine.display(1).running
        rig.run(200)
        assert not dev.recovered
    finally:
        runtime_rig.leave()


def test_the_verdict_screen_of_the_referee_offers_the_way_out_too():
    rig = _rig()
    try:
        _a_play_by_left(rig)
        rig.press("challenge")
        rig.keys("1")
        rig.type_word("HAUSES")
        rig.keys("#C#")
        rig.keys("D")
        _pin(rig)
        shown = rig.screen()
        assert "3 Words again" in shown and "4 Cancel chall." in shown
        rig.keys("4")
        assert rig.dev.flow.state == F.NEUTRAL and rig.dev.engine.display(1).running
    finally:
        runtime_rig.leave()


def test_a_preset_chosen_during_a_game_is_for_the_next_game_and_the_game_restores():
    rig = _rig()
    try:
        rig.press("right")
        rig.run(5000)
        rig.keys("D")
        _pin(rig)
        rig.keys("24")                         # settings, preset: the next one
        assert "From next game" in rig.screen()
        assert rig.dev.config.get("preset") == "tso25"
        rig.keys("DD")
        left = rig.left_ms(0)
        dev = _cut(rig)
        assert dev.recovered and dev.engine.preset["name"] == "tso30"
        assert abs(rig.left_ms(0) - left) <= 1000 and dev.engine.phase == PHASE_PLAY
        rig.press("pause")
        rig.run(1000)
        assert dev.engine.preset["name"] == "tso30"     # still this game's
        rig.keys("D")
        _pin(rig)
        rig.keys("4#D")                        # the referee resets: the next game
        rig.run(20)
        assert dev.engine.preset["name"] == "tso25" and rig.left_ms(0) == 25 * 60000
    finally:
        runtime_rig.leave()


def test_a_setting_that_changes_nothing_does_not_touch_flash():
    rig = _rig()
    try:
        config = rig.dev.config
        assert config.update({"lang": "de"})[0]
        with open("config.json", "w") as f:
            f.write('{"lang": "de"}  ')          # a marker: any write would drop it
        serial = config.serial
        for changes in ({}, {"lang": "de"}, {"preset": "tso30"}, {"preset_edits": {}}):
            assert config.update(changes) == (True, "")
        with open("config.json") as f:
            assert f.read() == '{"lang": "de"}  '
        assert config.serial == serial
    finally:
        runtime_rig.leave()


def _records(collected):
    # GameLog.add also noted here: every record any engine of the device made
    original = GameLog.add

    def add(self, kind, *fields):
        original(self, kind, *fields)
        collected.append(GameLog.to_json(self.last()))
    GameLog.add = add
    return original


def test_two_games_with_a_reset_between_and_a_recovery_in_the_second_log_everything():
    made = []
    original = _records(made)
    rig = _rig()
    try:
        # game 1: a challenge, a hold, a pause, the end phase, accepted
        _a_play_by_left(rig)
        rig.press("challenge")
        rig.keys("1")
        rig.type_word("HAUS")
        rig.keys("#C#")
        rig.run(11000)
        rig.run(2000)
        rig.press("right")
        rig.run(500)
        rig.keys("B")                          # hold
        rig.run(4000)
        rig.press("pause")
        rig.run(1500)
        rig.press("pause")
        rig.run(2000)
        rig.down("pause")                      # the last move: held 2 s, then #
        rig.run(2200)
        rig.up("pause")
        rig.run(100)
        rig.keys("#")
        rig.keys("C#")                         # the opponent accepts: game over
        assert rig.dev.engine.phase == PHASE_OVER
        rig.keys("D")
        _pin(rig)
        rig.keys("4#D")                        # reset: game 2
        # game 2: turns, a challenge cut while typed, recovered, judged, more turns
        _a_play_by_left(rig)
        rig.press("right")
        rig.run(2500)
        rig.press("left")
        rig.press("challenge")
        rig.keys("1")
        rig.type_word("HXA")
        dev = _cut(rig)
        rig.type_word("US")
        rig.keys("#C#")
        rig.run(11000)
        rig.press("pause")
        rig.run(3000)
        rig.press("left")
        rig.run(1000)
        rig.press("right")
        rig.run(1000)
        dev.flush_log(rig.now())
        with open("logs/games.jsonl") as f:
            lines = f.read().split("\n")
        assert lines[-1] == ""
        lines = lines[:-1]
        # each line as the engine made it, with the wall-clock time and the table at its end
        records = [json.loads(line) for line in lines]
        assert all("time" in r and "table" in r for r in records)
        unstamped = [line[:line.rindex(', "time": ')] + "}" for line in lines]
        assert unstamped == made, (unstamped, made)
        assert [r["seq"] for r in records] == list(range(len(records)))
        kinds = [r["kind"] for r in records]
        assert kinds.count("start") == 2 and kinds.count("end") == 1
        assert kinds.count("reset") == 1 and kinds.count("recovered") == 1
        assert kinds.count("hold") == 1 and kinds.count("challenge") == 2
        second = kinds.index("start", kinds.index("reset"))
        assert records[second]["preset"] == "tso30"
        assert kinds.index("recovered") > second
    finally:
        GameLog.add = original
        runtime_rig.leave()


def test_the_log_numbering_goes_on_across_restarts_and_cuts_between_save_and_file():
    rig = _rig()
    try:
        _a_play_by_left(rig)
        dev = rig.dev
        # a cut after the state was saved and before the lines reached the file
        real_append = dev.gamelog.append
        dev.gamelog.append = lambda lines: (_ for _ in ()).throw(OSError(28))
        rig.press("right")
        assert dev.log.lines                     # saved with the state, not in the file
        dev.gamelog.append = real_append
        dev = _cut(rig)
        rig.press("pause")
        rig.run(1000)
        dev.flush_log(rig.now())
        with open("logs/games.jsonl") as f:
            records = [json.loads(line) for line in f.read().split("\n") if line]
        seqs = [r["seq"] for r in records]
        assert seqs == list(range(len(seqs))), seqs
        kinds = [r["kind"] for r in records]
        # the turn the right press ended reached the file at start-up, once, before
        # the note of the recovery; the numbering went on after it
        assert kinds == ["start", "turn", "turn", "recovered", "resume"], kinds
        assert records[2]["side"] == 1
    finally:
        runtime_rig.leave()


def test_an_empty_battery_saves_says_so_and_sleeps_until_the_pause_switch():
    rig = _rig()
    try:
        _a_play_by_left(rig)
        rig.press("challenge")
        rig.keys("1")
        rig.type_word("SEE")
        machine.sim_set_voltage(hwconfig.PIN_BATTERY_ADC, 1600)      # 3.2 V
        dev = rig.dev
        for _ in range(8):
            dev.sample_battery(rig.now())
        assert dev.battery_level == "empty"
        assert dev.sleep_screen is not None
        shown = dev.sleep_screen.text()
        assert "BATTERY EMPTY" in shown and "Game saved" in shown and "press pause" in shown
        events = dev.events
        rig.keys("#")                          # ignored from now on
        assert dev.events == events and dev.flow.state == F.ENTRY
        try:
            rig.run(11000)
            raise AssertionError("no deep sleep")
        except machine.SimReset as e:
            assert e.cause == "deepsleep %d 0" % hwconfig.PIN_BUTTON_PAUSE
        assert esp32.sim_wake_ext0() == (hwconfig.PIN_BUTTON_PAUSE, False)
        # the pause switch wakes it: a reset from deep sleep, the challenge where it was
        rig.power_cut()
        machine.sim_set_voltage(hwconfig.PIN_BATTERY_ADC, 1950)      # on the charger
        dev = rig.boot(machine.DEEPSLEEP_RESET, held=("pause",))
        assert dev.recovered and dev.status == "After sleep"
        assert dev.flow.state == F.ENTRY and "1 SEE" in rig.screen()
        rig.run(100)
        rig.up("pause")                        # the press that woke it is no pause
        rig.run(100)
        assert dev.engine.challenging and dev.flow.state == F.ENTRY
        rig.keys("#C#")
        assert rig.screen().startswith("ACCEPTABLE")
        assert dev.engine.display(1).running  # the challenger's clock runs again
        # empty again, outside a challenge: the clock stops; woken, it stays stopped
        machine.sim_set_voltage(hwconfig.PIN_BATTERY_ADC, 1600)
        for _ in range(8):
            dev.sample_battery(rig.now())
        assert dev.engine.paused
        left = rig.left_ms(1)
        try:
            rig.run(11000)
            raise AssertionError("no deep sleep")
        except machine.SimReset:
            pass
        rig.power_cut()
        machine.sim_set_voltage(hwconfig.PIN_BATTERY_ADC, 1950)
        dev = rig.boot(machine.DEEPSLEEP_RESET, held=("pause",))
        rig.run(300)
        rig.up("pause")
        rig.run(100)
        assert dev.engine.paused and rig.left_ms(1) == left
        rig.press("pause")                     # a pause press now: the game goes on
        assert dev.engine.display(1).running
    finally:
        runtime_rig.leave()


def test_the_pause_switch_can_wake_both_boards_from_deep_sleep():
    # ext0 needs an RTC-capable pin (ports/esp32/modesp32.h of v1.26.0): on the ESP32
    # 0, 2, 4, 12-15, 25-27, 32-39; on the ESP32-S3 0-21
    import hwconfig_wroom
    from mpytest import raises

    board = machine.sim_chip()
    try:
        for chip, pins, not_rtc in (("esp32s3", hwconfig, 38), ("esp32", hwconfig_wroom, 5)):
            machine.sim_chip(chip)
            raises(ValueError, esp32.wake_on_ext0, not_rtc, False)
            esp32.wake_on_ext0(machine.Pin(pins.PIN_BUTTON_PAUSE), False)
            assert esp32.sim_wake_ext0() == (pins.PIN_BUTTON_PAUSE, False)
            esp32.wake_on_ext0(None, False)
            assert esp32.sim_wake_ext0() is None
    finally:
        machine.sim_chip(board)


# The status LED after a recovery (issue 13, point 10): lit while the recovered game
# waits paused, dark once the next game is set up, whichever way it is reset, and dark
# through that game's first presses.  What is read is the LED's pin, as a player sees it.

def _status_led():
    return machine.sim_level(hwconfig.PIN_LED_STATUS)


def _recovered_paused(rig):
    """A game cut while running: it comes back paused, the status LED lit."""
    _a_play_by_left(rig)
    dev = _cut(rig)
    rig.run(100)
    assert dev.recovered and dev.engine.paused and dev.engine.phase == PHASE_PLAY
    assert _status_led() == 1
    assert "After power loss" in rig.screen()
    return dev


def _next_game_keeps_the_status_led_dark(rig):
    assert rig.dev.engine.phase != PHASE_PLAY
    assert _status_led() == 0
    assert "After power loss" not in rig.screen()        # nor the idle screen's note
    rig.run(5000)                        # waiting for the first press
    assert _status_led() == 0
    rig.press("right")                   # the next game's first press: left runs
    assert rig.dev.engine.display(0).running
    assert _status_led() == 0
    for _ in range(3):
        rig.run(2000)
        rig.press("left")
        assert _status_led() == 0
        rig.run(2000)
        rig.press("right")
        assert _status_led() == 0
    rig.press("pause")                   # the LED still means something: a pause lights it
    assert _status_led() == 1
    rig.press("pause")
    assert _status_led() == 0


def test_status_led_is_dark_after_a_recovery_then_a_reset_by_the_referee():
    rig = _rig()
    try:
        _recovered_paused(rig)
        rig.keys("D")
        _pin(rig)
        rig.keys("4#D")                  # the referee resets: the next game
        rig.run(20)
        _next_game_keeps_the_status_led_dark(rig)
    finally:
        runtime_rig.leave()


def test_status_led_is_dark_after_a_recovery_then_a_reset_over_the_link():
    from app.services import Services

    rig = _rig()
    try:
        dev = _recovered_paused(rig)
        services = Services(dev, lambda: (None, ""))
        assert services.reset_game()[0] is False          # the recovered game is in progress
        rig.run(100)
        assert _status_led() == 1
        ok, message = services.reset_game(force=True)     # clockctl reset --force
        assert ok, message
        rig.run(20)
        _next_game_keeps_the_status_led_dark(rig)
    finally:
        runtime_rig.leave()


def test_status_led_goes_dark_when_the_recovered_game_goes_on():
    rig = _rig()
    try:
        dev = _recovered_paused(rig)
        rig.press("pause")               # the players resume the recovered game
        assert dev.engine.display(1).running and not dev.recovered
        assert _status_led() == 0
        rig.run(3000)
        rig.press("right")
        assert _status_led() == 0
    finally:
        runtime_rig.leave()


def _game_log_kinds():
    try:
        with open("logs/games.jsonl") as f:
            return [json.loads(line)["kind"] for line in f.read().split("\n") if line]
    except OSError:
        return []


def test_game_log_lines_wait_out_a_challenge_in_the_state_record_and_survive_a_cut():
    # While the terminal holds a challenge the game log's lines are not appended (the
    # heap is at its fullest then): they are in the saved state, reach the file once the
    # terminal is neutral again, and a power cut in between loses none of them.
    rig = _rig()
    try:
        _a_play_by_left(rig)
        dev = rig.dev
        before = _game_log_kinds()
        assert before and before[-1] == "turn"
        rig.press("challenge")
        assert dev.flow.active()
        rig.keys("1")
        rig.type_word("HAUS")
        rig.keys("#C#")
        assert rig.screen().startswith("ACCEPTABLE")
        assert [json.loads(line)["kind"] for line in dev.log.lines] == ["challenge"]
        assert _game_log_kinds() == before                # waiting, with the state
        dev = _cut(rig)                                   # the line only in the record
        # read back from it at start-up; the verdict is on screen again, so it waits on
        assert dev.flow.state == F.VERDICT
        assert [json.loads(line)["kind"] for line in dev.log.lines] == ["challenge", "recovered"]
        rig.run(11000)                                    # the verdict goes
        assert dev.flow.state == F.NEUTRAL
        assert _game_log_kinds() == before + ["challenge", "recovered"]
        assert not dev.log.lines
        # outside a challenge a press reaches the file at once (the recovered game
        # was paused: the switch resumes it)
        rig.press("pause")
        assert _game_log_kinds() == before + ["challenge", "recovered", "resume"]
    finally:
        runtime_rig.leave()
