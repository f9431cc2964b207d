# Debounced push buttons: the players' buttons, pause and challenge.
#
# The pin interrupt records the time of the first edge of a press and nothing
# else (no allocation, no logic).  The main loop's poll() confirms the press
# once the level has settled and reports it with the interrupt's timestamp, so
# a press made while the loop is busy (a lookup, a display refresh) is charged
# at the moment the button went down, not at the moment the loop looked.
#
# A tap that was already over when the loop looked still counts, provided it
# lasted at least the debounce time (edges recorded by the interrupt show how
# long it was down); shorter blips are noise.
#
# Long presses (in the manner of Peter Hinch's Pushbutton): the interrupt still
# records only timestamps; the loop asks long_press(now, ms), which is true once
# per press when the button has been held down without a break for ms since
# the first edge.  A bounce shorter than the debounce time is no break.

from micropython import const
from timebase import ticks_add, ticks_clamp, ticks_diff

_IDLE = const(0)      # armed: the next edge starts a press
_EDGE = const(1)      # edge recorded; waiting for the level to settle
_HELD = const(2)      # press reported; waiting for a settled release

_DEBOUNCE_MS = const(20)
_STALE_MS = const(3600000)  # a press held longer counts as held this long


class Button:
    def __init__(self, pin, clock, active_level=0, debounce_ms=_DEBOUNCE_MS):
        self.pin = pin
        self._clock = clock
        self._active = active_level
        self._debounce = debounce_ms
        self.state = _IDLE
        self.edge_at = 0        # ticks of the first edge of the current press
        self.last_edge = 0      # ticks of the most recent edge
        self.down_since = 0     # ticks the reported press began (for long holds)
        self.long_sent = False  # long_press() already reported this press
        self._handler = self._irq   # bound once: the interrupt allocates nothing

    def attach(self, trigger):
        self.pin.irq(trigger=trigger, handler=self._handler)

    def _irq(self, pin):
        now = self._clock.ticks_ms()
        self.last_edge = now
        if self.state == _IDLE:
            self.edge_at = now
            self.state = _EDGE

    def is_down(self):
        return self.pin.value() == self._active

    def poll(self, now):
        """Advance the debouncer; return the press time (ticks) or -1."""
        state = self.state
        if state == _IDLE:
            # Fallback for a missed interrupt: a level seen by polling.
            if self.is_down():
                self.edge_at = now
                self.last_edge = now
                self.state = _EDGE
            return -1
        if state == _EDGE:
            if ticks_diff(now, self.edge_at) < self._debounce:
                return -1
            if self.is_down() or ticks_diff(self.last_edge, self.edge_at) >= self._debounce:
                self.state = _HELD
                self.down_since = self.edge_at
                self.long_sent = False
                return self.edge_at
            if ticks_diff(now, self.last_edge) >= self._debounce:
                self.state = _IDLE      # a blip shorter than the debounce time
            return -1
        # _HELD: re-arm once released and quiet for the debounce time.
        if not self.is_down() and ticks_diff(now, self.last_edge) >= self._debounce:
            self.state = _IDLE
        elif ticks_diff(now, self.down_since) > _STALE_MS:
            # held for an hour (a switch left down): its ticks age no further, so they
            # compare right however long it stays down (timebase.ticks_clamp)
            self.down_since = ticks_add(now, -_STALE_MS)
            self.last_edge = ticks_clamp(now, self.last_edge, _STALE_MS)
        return -1

    def held_ms(self, now):
        """How long the current press has been held, or -1 when not held."""
        if self.state != _HELD or not self.is_down():
            return -1
        return ticks_diff(now, self.down_since)

    def long_press(self, now, ms):
        """True once per press, at the first poll with the button held for >= ms."""
        if self.long_sent or self.state != _HELD or not self.is_down():
            return False
        if ticks_diff(now, self.down_since) < ms:
            return False
        self.long_sent = True
        return True


class Buttons:
    """A fixed set of named buttons polled together."""

    def __init__(self, pins, clock, active_level=0, debounce_ms=_DEBOUNCE_MS, trigger=None):
        # pins: sequence of (name, pin) pairs
        self.names = tuple(name for name, _ in pins)
        self.buttons = tuple(Button(pin, clock, active_level, debounce_ms) for _, pin in pins)
        if trigger is not None:
            for button in self.buttons:
                button.attach(trigger)

    def poll(self, now, sink):
        """Call sink(index, ticks) for every press confirmed now."""
        buttons = self.buttons
        for i in range(len(buttons)):
            t = buttons[i].poll(now)
            if t >= 0:
                sink(i, t)

    def unsettled_since(self, now):
        """The earliest edge still being debounced, else `now`.

        The engine is advanced only up to here, so that a press in the last
        milliseconds of the challenge window is judged at its interrupt time,
        not after the window closed during the debounce.
        """
        earliest = now
        for button in self.buttons:
            if button.state == _EDGE and ticks_diff(button.edge_at, earliest) < 0:
                earliest = button.edge_at
        return earliest

    def held_ms(self, index, now):
        """How long button `index` has been held, or -1."""
        return self.buttons[index].held_ms(now)

    def long_press(self, index, now, ms):
        """True once per press of button `index` held for >= ms (see Button.long_press)."""
        return self.buttons[index].long_press(now, ms)

    def held(self, index):
        """True from the reported press of button `index` until its settled release
        (a bounce while it is held is not a release)."""
        return self.buttons[index].state == _HELD

    def index(self, name):
        return self.names.index(name)

    def is_down(self, name):
        return self.buttons[self.names.index(name)].is_down()


def create(clock):
    """The board's four buttons on their pins, interrupts attached."""
    import hwconfig
    from machine import Pin

    pull_ups = getattr(hwconfig, "PULL_UP_PINS", {})
    pins = []
    for name, number in (("left", hwconfig.PIN_BUTTON_LEFT), ("right", hwconfig.PIN_BUTTON_RIGHT),
                         ("pause", hwconfig.PIN_BUTTON_PAUSE),
                         ("challenge", hwconfig.PIN_BUTTON_CHALLENGE)):
        if pull_ups.get(number, hwconfig.BUTTON_PULL_UP):
            pins.append((name, Pin(number, Pin.IN, Pin.PULL_UP)))
        else:
            pins.append((name, Pin(number, Pin.IN)))
    return Buttons(pins, clock, hwconfig.BUTTON_ACTIVE_LEVEL,
                   trigger=Pin.IRQ_FALLING | Pin.IRQ_RISING)
