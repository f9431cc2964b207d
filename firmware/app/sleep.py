# The cell at its lowest safe voltage ("empty"): the game is saved (a challenge
# stays at its step), the panels say so, and _SLEEP_AFTER_MS later the device
# goes to deep sleep until the pause switch wakes it (hal_power); the game then
# comes back from NVS.  Loaded only when the battery runs empty.

from micropython import const
from terminal.screen import Screen
from timebase import ticks_add

_SLEEP_AFTER_MS = const(10000)


def announce(dev, now):
    engine = dev.engine
    if not engine.challenging:
        engine.pause(now)
    dev.commit(now)
    screen = Screen()
    screen.show([dev.label("battery_empty"), "", dev.label("game_saved"), ""]
                + dev.label("charge_hint").split("\n"))
    dev.sleep_screen = screen
    dev.sleep_at = ticks_add(now, _SLEEP_AFTER_MS)


def sleep(dev, now):
    """Deep sleep; does not return on the chip."""
    dev.sleep_at = None
    dev.commit(now)
    panels = dev.board.panels
    if panels is not None:
        for panel in panels.all():
            try:
                panel.poweroff()
            except OSError:
                pass
    power = dev.board.power
    if power is None:
        import hal_power

        power = hal_power.create()
    power.sleep()
