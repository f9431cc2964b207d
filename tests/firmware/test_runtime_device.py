# The device core with the fakes and a ManualClock: persistence, recovery,
# cues, battery, keypad, watchdog bookkeeping.

import hwconfig
import machine
import runtime_rig
from app.watchdog import Watchdog
from clock.engine import PHASE_PLAY
from timebase import ManualClock


# The tests that take more than a few seconds: left out of `python3 -m tests --fast`
# (tests/conftest.py reads this; a firmware test module cannot import pytest).
SLOW = ("test_power_cut_comes_back_paused_recovered_and_loses_at_most_a_second",)


def test_state_saved_at_every_press_and_at_least_once_a_second_while_running():
    rig = runtime_rig.Rig()
    try:
        state = rig.dev.state
        w0 = state.writes
        rig.press("right")
        assert state.writes == w0 + 1            # the press
        last = rig.dev.engine.snapshot(rig.now())
        gaps = []
        since = 0
        count = state.writes
        for _ in range(1000):                    # 10 s running
            rig.run(10)
            since += 10
            if state.writes != count:
                count = state.writes
                gaps.append(since)
                since = 0
        assert max(gaps) <= 1000 and len(gaps) >= 10
        rig.press("pause")
        paused_writes = state.writes
        rig.run(60000)                           # a paused minute costs no flash
        assert state.writes == paused_writes
        assert last is not None
    finally:
        runtime_rig.leave()


def test_power_cut_comes_back_paused_recovered_and_loses_at_most_a_second():
    clock = ManualClock()
    rig = runtime_rig.Rig(clock)
    try:
        rig.press("right")                       # left runs
        rig.run(12345)
        rig.press("left")                        # right runs
        for cut_after in (10, 450, 890, 999, 1500, 2730):
            rig.run(cut_after)
            actual = (rig.left_ms(0), rig.left_ms(1))
            rig.power_cut()
            clock.advance(3000)                  # the device is off for a while
            dev = rig.boot()
            assert dev.recovered and dev.engine.paused
            assert dev.engine.phase == PHASE_PLAY
            assert "RECOVERED" in dev.status or dev.label("recovered") in dev.status \
                or dev.status == dev.label("recovered_note")
            restored = (rig.left_ms(0), rig.left_ms(1))
            for side in (0, 1):
                assert abs(restored[side] - actual[side]) <= 1000, (cut_after, side, actual, restored)
            rig.run(2000)                         # paused: nobody's time moves
            assert (rig.left_ms(0), rig.left_ms(1)) == restored
            rig.press("pause")                    # resume: the right clock runs again
            assert not dev.recovered
            assert dev.engine.display(1).running
    finally:
        runtime_rig.leave()


def test_fresh_device_is_not_recovered_and_a_corrupt_state_is_reported():
    rig = runtime_rig.Rig()
    try:
        assert not rig.dev.recovered
        import esp32

        nvs = esp32.NVS("tileclock")
        nvs.set_blob("game", b"TC\x01\x05hello")
        nvs.commit()
        rig.power_cut()
        dev = rig.boot()
        assert not dev.recovered and dev.recovery_note == "not_recovered"
        assert dev.status == dev.label("not_recovered")
    finally:
        runtime_rig.leave()


def test_overtime_cues_sound_only_when_configured():
    rig = runtime_rig.Rig(config={"preset": "custom",
                                  "preset_edits": {"initial_ms": 3000},
                                  "sound_overtime_minute": False})
    try:
        rig.press("right")
        rig.run(3500)
        pwm = machine.sim_pwm(hwconfig.PIN_BUZZER)
        assert rig.dev.board.buzzer.last_cue == "overtime"
        rig.run(61000)
        assert rig.dev.board.buzzer.last_cue == "overtime"   # minute cue switched off
        assert pwm is not None
    finally:
        runtime_rig.leave()


def test_tournament_preset_is_silent_by_default():
    rig = runtime_rig.Rig(config={"preset_edits": {"initial_ms": 2000}})
    try:
        rig.press("right")
        rig.run(5000)
        assert rig.dev.engine.display(0).overtime
        assert rig.dev.board.buzzer.last_cue is None
        history = machine.sim_pwm_history(hwconfig.PIN_BUZZER)
        assert all(entry[-1] == 0 for entry in history) if history else True
    finally:
        runtime_rig.leave()


def test_buzzer_plays_the_forfeit_cue_and_goes_quiet():
    rig = runtime_rig.Rig(config={"preset": "custom", "sound_mute": False,
                                  "preset_edits": {"initial_ms": 1000, "overtime_cap_ms": 2000}})
    try:
        rig.press("right")
        rig.run(3100)
        assert rig.dev.engine.display(0).forfeit
        assert rig.dev.board.buzzer.last_cue == "forfeit"
        rig.run(5000)
        assert not rig.dev.board.buzzer.busy()
        assert machine.sim_pwm(hwconfig.PIN_BUZZER)[1] == 0 if isinstance(
            machine.sim_pwm(hwconfig.PIN_BUZZER), tuple) else True
    finally:
        runtime_rig.leave()


def test_turn_and_status_leds_follow_the_game():
    rig = runtime_rig.Rig()
    try:
        rig.press("right")
        assert machine.sim_level(hwconfig.PIN_LED_LEFT) == 1
        assert machine.sim_level(hwconfig.PIN_LED_RIGHT) == 0
        rig.press("left")
        assert machine.sim_level(hwconfig.PIN_LED_LEFT) == 0
        assert machine.sim_level(hwconfig.PIN_LED_RIGHT) == 1
        rig.press("pause")
        assert machine.sim_level(hwconfig.PIN_LED_RIGHT) == 0
        assert machine.sim_level(hwconfig.PIN_LED_STATUS) == 1
    finally:
        runtime_rig.leave()


def test_low_battery_warns_and_empty_battery_stops_the_clock():
    rig = runtime_rig.Rig()
    try:
        rig.press("right")
        for _ in range(8):
            rig.dev.sample_battery(rig.now())
        assert rig.dev.battery_level == "ok" and rig.dev.board.battery.mv == 3900
        machine.sim_set_voltage(hwconfig.PIN_BATTERY_ADC, 1700)      # 3.4 V
        for _ in range(8):
            rig.dev.sample_battery(rig.now())
        assert rig.dev.battery_level == "low" and rig.dev._battery_text().endswith("%!")
        from render.player import EXTRA_BATTERY_LOW

        assert rig.dev.extra() & EXTRA_BATTERY_LOW       # the panels say so
        assert rig.dev.engine.display(0).running
        machine.sim_set_voltage(hwconfig.PIN_BATTERY_ADC, 1600)      # 3.2 V
        for _ in range(8):
            rig.dev.sample_battery(rig.now())
        assert rig.dev.battery_level == "empty"
        assert rig.dev.engine.paused
    finally:
        runtime_rig.leave()


def test_keypad_scan_reports_each_key_once():
    import hal_keypad

    runtime_rig.fresh_dir()
    try:
        machine.sim_reset_all()
        kp = hal_keypad.create()
        matrix = machine.SimKeyMatrix(hwconfig.KEYPAD_ROWS, hwconfig.KEYPAD_COLS,
                                      hwconfig.KEYPAD_LAYOUT)
        got = []
        sink = lambda ch, t: got.append((ch, t))
        t = 0
        for ch in "1A*D5#":
            matrix.press_key(ch)
            first = t
            for _ in range(5):
                kp.scan(t, sink)
                t += 10
            matrix.release_key(ch)
            for _ in range(3):
                kp.scan(t, sink)
                t += 10
            assert got[-1] == (ch, first), (ch, got)
        assert [g[0] for g in got] == list("1A*D5#")
        matrix.press_key("7")
        kp.scan(t, sink)                 # seen once only: not yet a press
        matrix.release_key("7")
        kp.scan(t + 10, sink)
        kp.scan(t + 20, sink)
        assert len(got) == 6
    finally:
        runtime_rig.leave()


def test_terminal_gets_keys_and_the_challenge_button():
    rig = runtime_rig.Rig(terminal=True)
    try:
        flow = rig.dev.flow
        assert flow is not None and not flow.active()
        rig.press("right")
        rig.press("left")                # a play by the left player: right may challenge
        rig.press("challenge")
        assert rig.dev.engine.challenging and flow.active()
        events = rig.dev.events
        rig.key("D")
        assert rig.dev.events == events + 1
    finally:
        runtime_rig.leave()


def test_config_change_of_the_preset_waits_for_the_next_game():
    rig = runtime_rig.Rig()
    try:
        rig.press("right")
        assert rig.dev.config.update({"preset": "tso25"})[0]
        rig.run(100)
        assert rig.dev.engine.preset["name"] == "tso30"
        e = rig.dev.engine
        e.confirm_reset(e.request_reset())
        rig.run(20)
        assert rig.dev.engine.preset["name"] == "tso25"
        assert rig.left_ms(0) == 25 * 60000
    finally:
        runtime_rig.leave()


def test_watchdog_is_fed_only_while_every_task_beats():
    machine.sim_reset_all()
    clock = ManualClock()
    machine.sim_set_clock(clock)
    wdt = machine.WDT(timeout=8000)
    wd = Watchdog(wdt, clock, (100, 1000))
    for _ in range(200):                 # 20 s healthy
        clock.advance(100)
        wd.beat(0, clock.ticks_ms())
        wd.beat(1, clock.ticks_ms())
        assert wd.check(clock.ticks_ms())
    assert not machine.sim_wdt_due()
    fed = 0
    for _ in range(100):                 # task 1 hangs: only task 0 beats
        clock.advance(100)
        wd.beat(0, clock.ticks_ms())
        if wd.check(clock.ticks_ms()):
            fed += 1
    assert wd.stale == 1 and fed == 10      # fed while the beat is at most 1000 ms old
    assert machine.sim_wdt_due()
    try:
        machine.sim_wdt_check()
        raise AssertionError("the watchdog did not bite")
    except machine.SimReset:
        pass
