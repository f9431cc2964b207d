# A bounce storm against the chip's soft-IRQ queue (host_tools/fakes/machine.py):
# on the ESP32 a pin interrupt only queues its handler; the queue holds 8 callbacks
# for all pins together and drops the rest silently.  What the buttons lose, and
# that a press is still reported once, at the time its first callback ran.

import hwconfig
import machine
from hal_buttons import Buttons
from machine import Pin
from timebase import ManualClock

LEFT = hwconfig.PIN_BUTTON_LEFT
RIGHT = hwconfig.PIN_BUTTON_RIGHT


def rig():
    machine.sim_reset_all()
    clock = ManualClock(5000)
    machine.sim_set_clock(clock)
    pins = [("left", Pin(LEFT, Pin.IN, Pin.PULL_UP)), ("right", Pin(RIGHT, Pin.IN, Pin.PULL_UP))]
    buttons = Buttons(pins, clock, 0, trigger=Pin.IRQ_FALLING | Pin.IRQ_RISING)
    return clock, buttons


def run(clock, buttons, ms, presses):
    """The tick task: poll every 10 ms for `ms`."""
    end = clock.ticks_ms() + ms
    while clock.ticks_ms() < end:
        clock.advance(10)
        buttons.poll(clock.ticks_ms(), lambda i, t: presses.append((i, t)))


def storm(pin, edges):
    """A contact bouncing: `edges` level changes, ending closed (pressed)."""
    for i in range(edges):
        if i % 2 == 0:
            machine.sim_press(pin)
        else:
            machine.sim_release(pin)


def test_a_bounce_storm_while_the_loop_is_busy_is_one_press_charged_when_its_callback_ran():
    clock, buttons = rig()
    presses = []
    first_edge = clock.ticks_ms()
    machine.sim_busy_begin()            # a display refresh: the main thread is busy 15 ms
    storm(LEFT, 31)                     # 31 edges within the refresh, ending pressed
    clock.advance(15)
    machine.sim_busy_end()              # the 8 queued callbacks run now, late
    stats = machine.sim_irq_stats()
    assert stats["run"] == 8 and stats["dropped"] == 31 - 8
    run(clock, buttons, 100, presses)
    assert presses == [(0, first_edge + 15)]    # once, at the first callback's time
    # Released cleanly and pressed again: the next press counts as usual.
    machine.sim_release(LEFT)
    run(clock, buttons, 50, presses)
    machine.sim_press(LEFT)
    at = clock.ticks_ms()
    run(clock, buttons, 50, presses)
    assert presses[1:] == [(0, at)]


def test_a_release_lost_to_the_full_queue_is_found_by_the_level():
    clock, buttons = rig()
    presses = []
    machine.sim_press(LEFT)
    run(clock, buttons, 50, presses)
    assert len(presses) == 1
    machine.sim_busy_begin()
    storm(RIGHT, 15)                    # the other player's press bounces: the queue fills
    machine.sim_release(LEFT)           # this edge is dropped: the queue is full
    clock.advance(5)
    machine.sim_busy_end()
    assert machine.sim_irq_stats()["dropped"] >= 1
    run(clock, buttons, 60, presses)
    # The right button's press counts; the left one re-armed from its level, so its
    # next press counts too.
    assert [p[0] for p in presses] == [0, 1]
    machine.sim_press(LEFT)
    run(clock, buttons, 50, presses)
    assert [p[0] for p in presses] == [0, 1, 0]


def test_a_press_whose_every_edge_was_dropped_is_charged_at_the_next_poll():
    clock, buttons = rig()
    presses = []
    machine.sim_busy_begin()
    storm(LEFT, 8)                      # fills the queue (ends released)
    machine.sim_press(RIGHT)            # dropped: no callback for the right button
    clock.advance(4)
    machine.sim_busy_end()
    run(clock, buttons, 100, presses)
    rights = [t for i, t in presses if i == 1]
    # Polled, not interrupted: at most one tick (10 ms) after the loop was free again.
    assert len(rights) == 1 and 0 <= rights[0] - (5000 + 4) <= 10
