# mpytest-heapsize: 200K
# Hot paths allocate nothing, across the tick wrap and over a 24-hour game.  These
# run on the 32-bit build too ([micropython-32], tests/mpy_plugin.py): only there is a
# value past 2**30 - 1 a big int on the heap, as on the chip.  The heap: what the
# unix port needs to compile app.device from source in the middle of the module (on
# the chip it is compiled ahead, and loaded from the start).

from clock_helpers import MIN, SEC, game
from timebase import TICKS_MAX, ManualClock, ticks_add, ticks_diff

HOUR = 60 * MIN


def _no_gc(func, *args):
    """Heap bytes allocated by func(*args), the collector off."""
    import gc

    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        func(*args)
        return gc.mem_alloc() - before
    finally:
        gc.enable()


def _tick_sweep(start, steps, delta):
    t = start
    total = 0
    n = 0
    while n < steps:
        u = ticks_add(t, delta)
        total = (total + ticks_diff(u, t)) & 0xFFFF
        t = u
        n += 1
    return total


def test_tick_arithmetic_across_the_wrap_allocates_nothing():
    from mpytest import only_micropython

    only_micropython("gc.mem_alloc measures the MicroPython heap")
    _tick_sweep(TICKS_MAX - 10, 4, 7)        # warm up (first calls may intern names)
    for start, delta in ((TICKS_MAX - 5000, 997), (TICKS_MAX - 3, 1), (TICKS_MAX >> 1, 13),
                         (0, (1 << 29) - 1), (TICKS_MAX, TICKS_MAX)):
        assert _no_gc(_tick_sweep, start, 200, delta) == 0, (start, delta)
    assert ticks_diff(ticks_add(TICKS_MAX - 5, 10), TICKS_MAX - 5) == 10


def _play(table, steps, step_ms):
    engine, clock = table.engine, table.clock
    n = 0
    while n < steps:
        t = clock.advance(step_ms)
        engine.update(t)
        engine.display(0)
        engine.display(1)
        n += 1


def test_24_hours_of_game_and_end_screen_across_the_wrap_allocate_nothing():
    from mpytest import only_micropython

    only_micropython("gc.mem_alloc measures the MicroPython heap")
    table = game("tso30", {"initial_ms": 5999000})   # the longest time a preset takes
    engine = table.engine
    start = table.now()
    table.press(0)
    _play(table, 30, 1000)
    # 24 hours, one update per second as the display task sees the clock; a turn ends
    # every 20 minutes (the press and its challenge window are outside the measured
    # stretches: they are events, not the hot path).  Both clocks run out after about
    # 3.3 hours; the game ends on time in overtime and the end screen stays up for the
    # rest of the day.  Only the stretch in which the game ends may allocate (its result).
    stretch = 0
    ended = []
    while stretch < 72:
        phase = engine.phase
        used = _no_gc(_play, table, 1170, 1000)
        if engine.phase != phase:
            ended.append(stretch)
        else:
            assert used == 0, (stretch, used)
        table.press(1 - stretch % 2)
        _play(table, 30, 1000)
        stretch += 1
    assert len(ended) == 1 and ended[0] < 20, ended
    assert ticks_diff(table.now(), start) >= 24 * HOUR
    assert table.now() < start      # the ticks wrapped on the way


def _label(key):
    from app.device import CLOCK_KEYS
    from i18n import tr

    return tr("clock" if key in CLOCK_KEYS else "app", key, "de")


def test_drawing_the_player_panels_allocates_nothing_while_their_state_stays():
    # What the display task does each second (app.device): both player panels drawn on
    # the framebuf the ssd1306 driver is, from the engine's display models, through the
    # window, turns, pauses, overtime and the game's end.  A panel may allocate only when
    # its state line changes (the new state's text becomes glyph indices once).
    from mpytest import only_micropython

    only_micropython("gc.mem_alloc measures the MicroPython heap; framebuf is MicroPython's")
    import framebuf
    import app.device      # (for _label: imported here, not while the collector is off)
    from render.player import PlayerView, state_key

    fb = framebuf.FrameBuffer(bytearray(128 * 64 // 8), 128, 64, framebuf.MONO_VLSB)
    views = (PlayerView(), PlayerView())
    keys = [0, 0]
    table = game("tso30", {"initial_ms": 600000})       # ten minutes: overtime soon
    engine, clock = table.engine, table.clock
    table.press(0)
    changes = draws = 0
    step = 0
    while step < 700:                                    # 700 x 3 s: into the end screen
        t = clock.advance(3 * SEC)
        engine.update(t)
        if step % 40 == 39:
            table.press(engine.on_turn)                  # a turn ends every 2 minutes
        if step % 97 == 50:
            engine.pause(table.now())                    # the central switch, 5 s
            engine.update(clock.advance(5 * SEC))
            engine.resume(table.now())
        engine.update(table.now())
        for side in (0, 1):
            d = engine.display(side)
            other = engine.display(1 - side)
            key = state_key(d, 0)
            used = _no_gc(views[side].draw, fb, d, other, 0, _label)
            draws += 1
            if key != keys[side]:
                keys[side] = key
                changes += 1
                continue
            assert used == 0, (step, side, key, used)
        step += 1
    assert engine.phase == 3 and draws == 1400           # the game ended on time
    assert 4 <= changes < 100, changes
