# mpytest-heapsize: 150K
# The display model: formats, and no allocation in the hot path
# (update + display) under the MicroPython heap.

from clock_helpers import MIN, SEC, Table, game
from clock.display import write_time


def text(ms, negative=False):
    buf = bytearray(6)
    write_time(buf, ms, negative)
    return bytes(buf).decode()


def test_time_text_rounds_seconds_up_and_clamps():
    assert text(0) == " 00:00"
    assert text(1) == " 00:01"
    assert text(1000) == " 00:01"
    assert text(1001) == " 00:02"
    assert text(30 * MIN) == " 30:00"
    assert text(1, True) == "-00:01"
    assert text(5 * MIN + 1, True) == "-05:01"
    assert text(1000 * MIN) == " 99:59"


def test_display_objects_are_the_same_objects_every_time():
    table = game()
    first, text_buffer = table.engine.display(0), table.engine.display(0).text
    table.wait(3 * SEC)
    table.press(0)
    assert table.engine.display(0) is first and first.text is text_buffer
    assert table.engine.display(1) is not first and table.engine.display(1).side == 1


def _allocated_by_hot_path(table, steps, step_ms):
    import gc

    engine, clock = table.engine, table.clock
    engine.update(clock.ticks_ms())
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        n = 0
        while n < steps:
            t = clock.advance(step_ms)
            engine.update(t)
            left = engine.display(0)
            right = engine.display(1)
            n += 1
        after = gc.mem_alloc()
    finally:
        gc.enable()
    assert left.side == 0 and right.side == 1
    return after - before


def test_update_and_display_allocate_nothing():
    from mpytest import only_micropython

    only_micropython("gc.mem_alloc measures the MicroPython heap")
    table = game()
    table.wait(29 * MIN + 50 * SEC)
    table.press(0)  # window open, clock running
    assert _allocated_by_hot_path(table, 300, 7) == 0
    table.wait(40 * SEC)
    table.engine.hold(table.now(), 1)
    table.press(1)
    table.wait(29 * MIN)  # 0 runs into overtime: cues and penalty minutes on the way
    assert _allocated_by_hot_path(table, 400, 997) == 0
    assert table.show(0).overtime and table.show(0).overtime_penalty > 0
    table.engine.pause(table.now())
    assert _allocated_by_hot_path(table, 200, 13) == 0
    table.engine.resume(table.now())
    table.press(0)
    table.engine.start_challenge(table.now(), 1)
    assert _allocated_by_hot_path(table, 200, 13) == 0


def test_hot_path_allocates_nothing_before_the_game_with_late_clocks():
    from mpytest import only_micropython

    only_micropython("gc.mem_alloc measures the MicroPython heap")
    table = Table()
    table.engine.late_start(table.now(), 0)
    table.engine.late_start(table.now(), 1)
    assert _allocated_by_hot_path(table, 300, 11) == 0
