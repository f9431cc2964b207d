# The self-test walks through LEDs, buzzer, every button and every key.

import hwconfig
import machine
import runtime_rig
import selftest
from app import board as board_mod
from timebase import ManualClock


def _board():
    runtime_rig.fresh_dir()
    machine.sim_reset_all()
    clock = ManualClock()
    machine.sim_set_clock(clock)
    board = board_mod.create(clock, panels=False)
    matrix = machine.SimKeyMatrix(hwconfig.KEYPAD_ROWS, hwconfig.KEYPAD_COLS,
                                  hwconfig.KEYPAD_LAYOUT)
    return clock, board, matrix


def _run(clock, test, ms):
    for _ in range(ms // 10):
        clock.advance(10)
        if not test.step(clock.ticks_ms()):
            return False
    return True


def test_selftest_asks_for_every_button_and_key():
    clock, board, matrix = _board()
    try:
        machine.sim_press(hwconfig.PIN_BUTTON_PAUSE)        # held at power-on
        test = selftest.SelfTest(board)
        assert _run(clock, test, 300)
        machine.sim_release(hwconfig.PIN_BUTTON_PAUSE)
        assert _run(clock, test, 3 * 500 + 600)            # LEDs, buzzer
        assert test.passed[:4] == ["led:0", "led:1", "led:2", "buzzer:0"]
        assert machine.sim_level(hwconfig.PIN_LED_STATUS) == 0
        for name in ("left", "right", "pause", "challenge"):
            pin = runtime_rig.PINS[name]
            assert _run(clock, test, 100)
            machine.sim_press(pin)
            _run(clock, test, 60)
            machine.sim_release(pin)
            _run(clock, test, 40)
        assert test.passed[-4:] == ["button:left", "button:right", "button:pause",
                                    "button:challenge"]
        finished = False
        for ch in "123A456B789C*0#D":
            matrix.press_key(ch)
            alive = _run(clock, test, 40)
            matrix.release_key(ch)
            alive = alive and _run(clock, test, 40)
            finished = not alive
        assert finished and test.done() and test.skipped == []
        assert len(test.passed) == 3 + 1 + 4 + 16
    finally:
        runtime_rig.leave()


def test_holding_pause_skips_a_broken_button():
    clock, board, matrix = _board()
    try:
        test = selftest.SelfTest(board)
        _run(clock, test, 2500)                             # LEDs, buzzer
        assert test.plan[test.index] == ("button", 0)
        machine.sim_press(hwconfig.PIN_BUTTON_PAUSE)
        _run(clock, test, 2100)
        machine.sim_release(hwconfig.PIN_BUTTON_PAUSE)
        _run(clock, test, 100)
        assert test.skipped == ["button:left"]
        assert test.plan[test.index] == ("button", 1)
    finally:
        runtime_rig.leave()


def test_the_wake_cause_is_reported_on_the_terminal():
    import hal_power

    for reset, wake, key, shown in ((machine.PWRON_RESET, 0, "power", "Start: power on"),
                                    (machine.DEEPSLEEP_RESET, machine.EXT0_WAKE, "pause", "Woken: pause"),
                                    (machine.DEEPSLEEP_RESET, machine.TIMER_WAKE, "other", "Woken: other!"),
                                    (machine.WDT_RESET, 0, "watchdog", "Start: watchdog")):
        clock, board, matrix = _board()
        try:
            machine.sim_set_reset_cause(reset)
            machine.sim_set_wake_reason(wake)
            assert hal_power.wake_cause() == key
            test = selftest.SelfTest(board, cause=hal_power.wake_cause())
            said = []
            test._say = said.append
            test.skipped = ["button:left", "button:right", "key:1"]
            test._show_result()
            lines = said[-1]
            assert lines[2] == shown and len(lines) <= 5, lines
        finally:
            machine.sim_set_reset_cause(machine.PWRON_RESET)
            runtime_rig.leave()
