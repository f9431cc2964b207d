# Debounced buttons: interrupt timestamps, bounce, blips, taps during a busy loop.

import machine
from hal_buttons import Button, Buttons
from timebase import ManualClock, ticks_diff

PIN = 13


def _button(debounce=20):
    machine.sim_reset_all()
    clock = ManualClock()
    machine.sim_set_clock(clock)
    pin = machine.Pin(PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    b = Button(pin, clock, 0, debounce)
    b.attach(machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING)
    return clock, b


def test_bouncing_press_counts_once_at_the_first_edge():
    clock, b = _button()
    t0 = clock.ticks_ms()
    for level in (0, None, 0, None, 0):      # contact bounce
        machine.sim_drive(PIN, level)
        clock.advance(1)
    presses = []
    for _ in range(50):
        clock.advance(1)
        t = b.poll(clock.ticks_ms())
        if t >= 0:
            presses.append(t)
    assert presses == [t0]
    # release with bounce, then a second press counts again
    for level in (None, 0, None):
        machine.sim_drive(PIN, level)
        clock.advance(1)
    for _ in range(30):
        clock.advance(1)
        assert b.poll(clock.ticks_ms()) < 0
    t1 = clock.ticks_ms()
    machine.sim_press(PIN)
    clock.advance(25)
    assert b.poll(clock.ticks_ms()) == t1


def test_blip_shorter_than_debounce_is_noise():
    clock, b = _button()
    machine.sim_press(PIN)
    clock.advance(3)
    machine.sim_release(PIN)
    for _ in range(100):
        clock.advance(1)
        assert b.poll(clock.ticks_ms()) < 0
    assert b.state == 0


def test_tap_over_before_the_loop_looks_still_counts_at_its_time():
    clock, b = _button()
    clock.advance(100)
    t = clock.ticks_ms()
    machine.sim_press(PIN)
    clock.advance(80)            # a 80 ms tap while the loop is busy
    machine.sim_release(PIN)
    clock.advance(500)           # the loop looks only now
    assert b.poll(clock.ticks_ms()) == t
    clock.advance(30)
    assert b.poll(clock.ticks_ms()) < 0
    assert b.state == 0          # re-armed


def test_missed_interrupt_is_caught_by_polling():
    clock, b = _button()
    b.pin.irq(handler=None)      # as if the interrupt were lost
    machine.sim_press(PIN)
    t = clock.ticks_ms()
    assert b.poll(t) < 0
    clock.advance(20)
    assert b.poll(clock.ticks_ms()) == t


def test_held_button_reports_its_hold_time():
    clock, b = _button()
    t = clock.ticks_ms()
    machine.sim_press(PIN)
    clock.advance(20)
    assert b.poll(clock.ticks_ms()) == t
    clock.advance(2980)
    assert b.held_ms(clock.ticks_ms()) == 3000
    machine.sim_release(PIN)
    assert b.held_ms(clock.ticks_ms()) == -1


def test_buttons_report_index_and_time():
    machine.sim_reset_all()
    clock = ManualClock()
    machine.sim_set_clock(clock)
    pins = [("a", machine.Pin(13, machine.Pin.IN, machine.Pin.PULL_UP)),
            ("b", machine.Pin(14, machine.Pin.IN, machine.Pin.PULL_UP))]
    bs = Buttons(pins, clock, 0, 20, machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING)
    got = []
    t = clock.ticks_ms()
    machine.sim_press(14)
    clock.advance(5)
    machine.sim_press(13)
    clock.advance(30)
    bs.poll(clock.ticks_ms(), lambda i, at: got.append((i, ticks_diff(at, t))))
    assert sorted(got) == [(0, 5), (1, 0)]
    assert bs.is_down("a") and bs.index("b") == 1


def test_press_during_a_long_lookup_is_charged_at_the_interrupt_time():
    # The main loop is stuck in a 700 ms lookup when the running player
    # presses; the press must be charged at the interrupt's time (+-2 ms),
    # not when the loop gets round to it.
    import runtime_rig

    rig = runtime_rig.Rig()
    try:
        rig.press("right")                 # starts the left player's clock
        assert rig.dev.engine.display(0).running
        rig.run(5000)
        before = rig.left_ms(0)
        t_irq = [None]

        def long_lookup():
            for step in range(70):         # 700 ms of work, no tick in between
                rig.clock.advance(10)
                if step == 20:
                    t_irq[0] = rig.clock.ticks_ms()
                    rig.down("left")
                if step == 30:
                    rig.up("left")

        start = rig.clock.ticks_ms()
        long_lookup()
        rig.run(50)
        charged = before - rig.left_ms(0)
        expected = ticks_diff(t_irq[0], start)
        assert abs(charged - expected) <= 2, (charged, expected)
        d1 = rig.dev.engine.display(1)
        assert d1.running and not rig.dev.engine.display(0).running
        used_right = rig.dev.engine.preset["initial_ms"] - rig.left_ms(1)
        assert abs(used_right - ticks_diff(rig.clock.ticks_ms(), t_irq[0])) <= 2
    finally:
        runtime_rig.leave()
