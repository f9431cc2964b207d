# The asyncio tasks: thin loops around the Device's plain methods.
#
#   task        period   what
#   tick        10 ms    buttons -> engine, flow timeouts, cues, saves (Device.tick)
#   keypad      10 ms    one matrix scan (Device.scan_keys)
#   display     50 ms    redraw the panels that changed (Device.refresh); after a press
#                        or key was handled, collect garbage (display_step)
#   battery     2 s      one ADC sample (Device.sample_battery)
#   watchdog    500 ms   feed the WDT if every task above beat recently
#   link        -        host link (link.server.serve), when a link stream is given

from micropython import const
import asyncio

from app.watchdog import Watchdog

_TICK_MS = const(10)
_KEYPAD_MS = const(10)
_DISPLAY_MS = const(50)
_BATTERY_MS = const(2000)
_FEED_MS = const(500)
# A task that has not completed a round for this long counts as hung.
_LIMITS_MS = const((2000, 2000, 4000, 6000))
_TASK_TICK = const(0)       # the watchdog's index of each task
_TASK_KEYPAD = const(1)
_TASK_DISPLAY = const(2)
_TASK_BATTERY = const(3)


def display_step(dev):
    """The display task's round: redraw, then, if a press or a key was handled since
    the last round, collect garbage.  Collections thus come right after the frame that
    shows a turn change, when the player now on turn has yet to move, and garbage never
    piles up until an allocation forces a collection at a random moment, in the middle
    of a press: a pin interrupt's handler only runs after a collection (it is scheduled,
    ports/esp32/machine_pin.c), so that press would be timestamped late.  A collection
    takes long on a big heap in PSRAM (docs/runtime.md, Garbage collection)."""
    import gc

    seen = [dev.events]

    def step(now):
        dev.refresh(now)
        if dev.events != seen[0]:
            seen[0] = dev.events
            gc.collect()
    return step


async def _periodic(clock, step, period_ms, task_id, wd):
    while True:
        now = clock.ticks_ms()
        step(now)
        wd.beat(task_id, now)
        await asyncio.sleep_ms(period_ms)


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
