# Self-test, entered by holding the pause button at power-on: walks through
# every display, LED, the buzzer, every button and every keypad key.
#
# Displays, LEDs and buzzer are shown in turn (a person watches); buttons and
# keys are asked for one by one and ticked off when pressed.  Holding pause
# for 2 s skips the current step (a broken button must not lock the test);
# the skipped items are listed at the end, with why the chip started (power on, woken by
# the pause switch or by something else, watchdog, reset: hal_power.wake_cause), which
# shows a wake line that floats in deep sleep.  SelfTest.step(now) is a plain
# method (tests drive it with a ManualClock); run() loops it in real time.

from micropython import const
from i18n import tr
from render import glyphs
from timebase import ticks_diff


_SHOW_MS = const(1200)
_LED_MS = const(500)
_SKIP_HOLD_MS = const(2000)
BUTTONS = ("left", "right", "pause", "challenge")


class SelfTest:
    def __init__(self, board, lang="en", cause=None):
        self.board = board
        self.lang = lang
        self.cause = cause
        panels = board.panels
        self.panels = () if panels is None else (("left", panels.left), ("right", panels.right),
                                                 ("terminal", panels.terminal))
        self.leds = () if board.leds is None else board.leds
        keys = board.keypad.keys if board.keypad is not None else ()
        self.plan = ([("panel", i) for i in range(len(self.panels))]
                     + [("led", i) for i in range(len(self.leds))]
                     + [("buzzer", 0)]
                     + [("button", i) for i in range(len(BUTTONS))]
                     + [("key", k) for k in keys])
        self.index = 0
        self.since = None
        self.passed = []
        self.skipped = []
        self.missing = list(panels.missing) if panels is not None else []
        self._pressed = []
        self._keys = []
        self._on_button = self._button_sink
        self._on_key = self._key_sink
        self._wait_release = board.buttons.is_down("pause")   # held to enter the test

    def _button_sink(self, index, t):
        self._pressed.append(index)

    def _key_sink(self, ch, t):
        self._keys.append(ch)

    def text(self, key):
        return tr("app", key, self.lang)

    def done(self):
        return self.index >= len(self.plan)

    def step(self, now):
        """Advance; returns False once every step is through."""
        board = self.board
        del self._pressed[:]
        del self._keys[:]
        board.buttons.poll(now, self._on_button)
        if board.keypad is not None:
            board.keypad.scan(now, self._on_key)
        board.buzzer.update(now)
        if self.done():
            return False
        kind, item = self.plan[self.index]
        if self.since is None:
            self.since = now
            self._enter(kind, item, now)
        elapsed = ticks_diff(now, self.since)
        pause = board.buttons.buttons[BUTTONS.index("pause")]
        if self._wait_release:
            if not pause.is_down():
                self._wait_release = False
        elif kind in ("button", "key") and pause.held_ms(now) >= _SKIP_HOLD_MS \
                and not (kind == "button" and BUTTONS[item] == "pause"):
            self._wait_release = True
            return self._next(False)
        if kind == "panel":
            if elapsed >= _SHOW_MS:
                return self._next(True)
        elif kind == "led":
            if elapsed >= _LED_MS:
                self.leds[item].value(0)
                return self._next(True)
        elif kind == "buzzer":
            if not board.buzzer.busy():
                return self._next(True)
        elif kind == "button":
            if item in self._pressed:
                return self._next(True)
        elif kind == "key":
            if item in self._keys:
                return self._next(True)
        return True

    def _next(self, ok):
        kind, item = self.plan[self.index]
        name = BUTTONS[item] if kind == "button" else str(item)
        (self.passed if ok else self.skipped).append(kind + ":" + name)
        self.index += 1
        self.since = None
        if self.done():
            self._show_result()
            return False
        return True

    def _enter(self, kind, item, now):
        if kind == "panel":
            name, panel = self.panels[item]
            if panel is None:
                return
            panel.fill(1)
            panel.fill_rect(4, 24, 120, 16, 0)
            panel.text(name, 8, 28, 1)
            _show(panel)
            return
        if kind == "led":
            self.leds[item].value(1)
            self._say(["LED %d" % (item + 1)])
        elif kind == "buzzer":
            self.board.buzzer.play("test", now)
            self._say(["BUZZER"])
        elif kind == "button":
            self._say([self.text("press"), BUTTONS[item].upper(), "", self.text("skip")])
        else:
            self._say([self.text("key"), "   " + item, "", self.text("skip")])

    def _say(self, lines):
        panels = self.board.panels
        if panels is None:
            return
        for _, panel in self.panels:
            if panel is None:
                continue
            panel.fill(0)
            glyphs.text(panel, self.text("selftest"), 0, 0)   # (the texts' umlauts too)
            y = 16
            for line in lines:
                glyphs.text(panel, line, 0, y)
                y += 10
            _show(panel)

    def _show_result(self):
        lines = [self.text("done"), "ok %d" % len(self.passed)]
        if self.cause is not None:
            lines.append(self.text("wake_" + self.cause))
        for item in self.skipped[:2 if self.cause is not None else 3]:
            lines.append("- " + item)
        for name in self.missing:
            lines.append(name + " " + self.text("missing"))
        self._say(lines)


def _show(panel):
    try:
        panel.show()
    except OSError:
        pass


def run(board, clock, lang="en", cause=None):
    """The self-test in real time; returns the SelfTest with its results."""
    import time

    test = SelfTest(board, lang, cause)
    while test.step(clock.ticks_ms()):
        time.sleep_ms(10)
    end = clock.ticks_ms()
    while ticks_diff(clock.ticks_ms(), end) < 3000:
        time.sleep_ms(50)
    return test
