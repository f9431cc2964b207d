# The asyncio tasks: thin loops around the Device's plain methods.
#
#   task        period   what
#   tick        10 ms    buttons -> engine, flow timeouts, cues, saves (Device.tick)
#   keypad      10 ms    one matrix scan (Device.scan_keys)
#   display     50 ms    redraw the panels that changed (Device.refresh); after a press
#                        or key was handled, collect garbage once no panel is about to
#                        change (display_step)
#   battery     2 s      one ADC sample (Device.sample_battery)
#   watchdog    500 ms   feed the WDT if every task above beat recently
#   link        -        host link (link.server.serve), when a link stream is given

from micropython import const
import asyncio

from app.watchdog import Watchdog
from timebase import ticks_add, ticks_clamp, ticks_diff

_TICK_MS = const(10)
_KEYPAD_MS = const(10)
_DISPLAY_MS = const(50)
# The display task's collection needs this long with no panel changing by itself: the
# longest collection measured for the reference board (bench/bench_gc.py: 131 ms on
# its heap in PSRAM, up to 184 ms when the host was busy) with room to spare.  At most one every _GC_GAP_MS (keys typed in
# a row), and at the latest _GC_WAIT_MS after the event that made it due, even if the
# panels change more often.
_GC_ROOM_MS = const(250)
_GC_GAP_MS = const(500)
_GC_WAIT_MS = const(1000)
# Also owed when the heap's free part falls below this without a press or a key (the
# state saved every second while a clock runs leaves garbage): a collection that
# allocation would force comes at a random moment instead.
_GC_LOW_BYTES = const(8192)
_BATTERY_MS = const(2000)
_FEED_MS = const(500)
# A task that has not completed a round for this long counts as hung.
_LIMITS_MS = const((2000, 2000, 4000, 6000))
_TASK_TICK = const(0)       # the watchdog's index of each task
_TASK_KEYPAD = const(1)
_TASK_DISPLAY = const(2)
_TASK_BATTERY = const(3)


def display_step(dev):
    """The display task's round: redraw, then, once a press or a key was handled,
    collect garbage at the first round from which no panel changes with time alone
    for _GC_ROOM_MS (Device.quiet_ms) and the last collection is _GC_GAP_MS past; at
    the latest _GC_WAIT_MS after the event.  Returns True when it collected.

    Why then: a collection takes long on a big heap in PSRAM (docs/runtime.md, Garbage
    collection) and nothing runs meanwhile.  Right after the frame that shows a turn
    change the player now on turn has yet to move: a press then, timestamped only after
    the collection (a pin interrupt's handler is scheduled, ports/esp32/machine_pin.c),
    is unlikely.  Waiting for a quiet stretch keeps the collection from holding back a
    clock's next second, the window's countdown or a timed screen; that is usually this
    round or the one just after the next second boundary.  Keys typed in a row share one
    collection every _GC_GAP_MS instead of each holding back the next.  Garbage never
    piles up until an allocation forces a collection at a random moment."""
    import gc

    from app.heap import large_heap

    # events seen, a collection owed, since when, the last collection, the terminal's
    # step (its return to the neutral screen leaves a mode's modules to collect)
    state = [dev.events, False, 0, ticks_add(dev.clock.ticks_ms(), -_GC_GAP_MS), -1]
    mem_free = getattr(gc, "mem_free", None)      # (CPython, in the tests, has none)
    # On a board with internal RAM only (the lean target) the heap is small: a collection
    # is short there, and what matters is that the heap stays in one piece (a challenge
    # fills it: docs/runtime.md, Memory).  It collects at the round after the event, as
    # garbage left between the live objects fragments the heap; the wait for a quiet
    # stretch is for the reference board's long collections in PSRAM, and so is the
    # collection owed when the free part runs low (a small heap is mostly full: there an
    # allocation that finds no room collects, in a short collection).
    at_once = not large_heap()
    if at_once:
        mem_free = None

    def step(now):
        dev.refresh(now)
        events = dev.events
        flow = dev.flow
        mode = flow.state if flow is not None else -1
        if not state[1] and (events != state[0] or mode != state[4]
                             or mem_free is not None and mem_free() < _GC_LOW_BYTES):
            state[1] = True
            state[2] = now
        state[0] = events
        state[4] = mode
        state[3] = ticks_clamp(now, state[3], _GC_GAP_MS)     # (the last collection ages no further)
        if state[1] and (at_once or ticks_diff(now, state[2]) >= _GC_WAIT_MS
                         or ticks_diff(now, state[3]) >= _GC_GAP_MS
                         and dev.quiet_ms(now, _GC_ROOM_MS) >= _GC_ROOM_MS):
            state[1] = False
            state[3] = now
            gc.collect()
            return True
        return False
    return step


async def _periodic(clock, step, period_ms, task_id, wd):
    while True:
        now = clock.ticks_ms()
        step(now)
        wd.beat(task_id, now)
        # the next round a period after this one began: after a long round (the display
        # task's collection) the next comes at once, not a whole period later
        wait = period_ms - ticks_diff(clock.ticks_ms(), now)
        await asyncio.sleep_ms(wait if wait > 0 else 0)


async def _feeder(dev, wd, on_hang):
    clock = dev.clock
    while True:
        now = clock.ticks_ms()
        if not wd.check(now) and on_hang is not None:
            # One task is stuck while the scheduler still runs: keep the game
            # up to this moment and restart now rather than when the WDT bites.
            on_hang(now)
        await asyncio.sleep_ms(_FEED_MS)


def start(dev, wdt=None, link=None, extra=(), on_hang=None):
    """Create the tasks (inside a running loop); returns the Watchdog."""
    wd = Watchdog(wdt, dev.clock, _LIMITS_MS)
    dev.watchdog = wd
    for step, period_ms, task_id in ((dev.tick, _TICK_MS, _TASK_TICK),
                                     (dev.scan_keys, _KEYPAD_MS, _TASK_KEYPAD),
                                     (display_step(dev), _DISPLAY_MS, _TASK_DISPLAY),
                                     (dev.sample_battery, _BATTERY_MS, _TASK_BATTERY)):
        asyncio.create_task(_periodic(dev.clock, step, period_ms, task_id, wd))
    asyncio.create_task(_feeder(dev, wd, on_hang))
    if link is not None:
        asyncio.create_task(link)
    for coro in extra:
        asyncio.create_task(coro)
    return wd


async def main(dev, wdt=None, link=None, extra=(), on_hang=None):
    start(dev, wdt, link, extra, on_hang)
    while True:
        await asyncio.sleep_ms(1000)
