# A simulated device for the runtime tests: the firmware's own hardware
# layers on the fakes' pins (machine, esp32 with sim_ back doors), a
# ManualClock, and a fresh device folder as the current directory.
# Runs under CPython and MicroPython.

import os

import esp32
import hwconfig
import machine
import sim_device
from mpytest import tmpdir
from timebase import ManualClock

import app
from app import board as board_mod

PINS = {
    "left": hwconfig.PIN_BUTTON_LEFT,
    "right": hwconfig.PIN_BUTTON_RIGHT,
    "pause": hwconfig.PIN_BUTTON_PAUSE,
    "challenge": hwconfig.PIN_BUTTON_CHALLENGE,
}

_home = [None]


def fresh_dir():
    """A new, empty device folder as the current directory."""
    if _home[0] is None:
        _home[0] = os.getcwd()
    path = tmpdir()
    os.chdir(path)
    sim_device.set_device_dir(path)
    return path


def leave():
    if _home[0] is not None:
        os.chdir(_home[0])


class Rig:
    """Board + device on the fakes.  power_cut() + boot() simulate a power loss."""

    def __init__(self, clock=None, terminal=False, config=None, folder=None, lexicon=None,
                 panels=False):
        """lexicon: a fixture list ("de", "pl", ...) copied to the device's lexicon.dawg;
        panels: the three SSD1306 panels on their buses (models of the controller, read
        back with self.panel(name); MicroPython only: the driver needs framebuf)."""
        self.folder = folder or fresh_dir()
        self.terminal = terminal
        self.panels = panels
        self.models = {}
        self.clock = clock or ManualClock()
        if config is not None:
            import json

            with open("config.json", "w") as f:
                f.write(json.dumps(config))
        if lexicon is not None:
            from lexicon_data import image_path, read_bytes, write_bytes

            write_bytes("lexicon.dawg", read_bytes(image_path(lexicon)))
        self.boot()

    def boot(self, reset_cause=None, held=()):
        """Power on (or a reset: reset_cause, a machine.*_RESET), with the buttons
        named in `held` down."""
        machine.sim_reset_all()
        if reset_cause is not None:
            machine.sim_set_reset_cause(reset_cause)
        esp32.sim_nvs_forget()
        machine.sim_set_clock(self.clock)
        for pin in PINS.values():
            machine.sim_external_pull(pin, None)
        if self.panels:
            from sim_ssd1306 import SSD1306Panel

            h = hwconfig
            self.models = {
                "left": machine.sim_attach_i2c(SSD1306Panel(), h.ADDR_DISPLAY_LEFT,
                                               scl=h.I2C_PLAYERS_SCL, sda=h.I2C_PLAYERS_SDA),
                "right": machine.sim_attach_i2c(SSD1306Panel(), h.ADDR_DISPLAY_RIGHT,
                                                scl=h.I2C_PLAYERS_SCL, sda=h.I2C_PLAYERS_SDA),
                "terminal": machine.sim_attach_i2c(SSD1306Panel(), h.ADDR_DISPLAY_TERMINAL,
                                                   scl=h.I2C_TERMINAL_SCL, sda=h.I2C_TERMINAL_SDA)}
        self.board = board_mod.create(self.clock, panels=self.panels)
        for name in held:
            self.down(name)
        self.matrix = machine.SimKeyMatrix(hwconfig.KEYPAD_ROWS, hwconfig.KEYPAD_COLS,
                                           hwconfig.KEYPAD_LAYOUT)
        machine.sim_set_voltage(hwconfig.PIN_BATTERY_ADC, 1950)   # 3.9 V cell
        self.dev = app.build(self.clock, self.board, terminal=self.terminal)
        return self.dev

    def power_cut(self):
        """Everything in RAM is gone; NVS and files keep what was committed."""
        self.dev = None
        self.board = None

    # time and inputs

    def now(self):
        return self.clock.ticks_ms()

    def run(self, ms, step=10):
        """Let the main loop run for ms of simulated time."""
        end = ms
        while end > 0:
            d = step if end >= step else end
            self.clock.advance(d)
            end -= d
            self.dev.tick(self.clock.ticks_ms())

    def down(self, name):
        machine.sim_press(PINS[name])

    def up(self, name):
        machine.sim_release(PINS[name])

    def press(self, name, hold_ms=60):
        """A clean press of hold_ms, the loop running; returns the press time."""
        t = self.clock.ticks_ms()
        self.down(name)
        self.run(hold_ms)
        self.up(name)
        self.run(40)
        return t

    def key(self, ch, hold_ms=40):
        t = self.clock.ticks_ms()
        self.matrix.press_key(ch)
        for _ in range(hold_ms // 10):
            self.clock.advance(10)
            self.dev.scan_keys(self.clock.ticks_ms())
            self.dev.tick(self.clock.ticks_ms())
        self.matrix.release_key(ch)
        for _ in range(3):
            self.clock.advance(10)
            self.dev.scan_keys(self.clock.ticks_ms())
            self.dev.tick(self.clock.ticks_ms())
        return t

    def keys(self, text, hold_ms=40):
        for ch in text:
            self.key(ch, hold_ms)

    def key_presses(self, word):
        """The keys that type a written word: digits, with B between two tiles of one key."""
        flow = self.dev.flow
        out = ""
        last = None
        for tile in flow.lexicon.parse(word):
            key, pos = flow.keymap.where(tile)
            if key == last:
                out += "B"
            out += key * (pos + 1)
            last = key
        return out

    def type_word(self, word):
        self.keys(self.key_presses(word))

    def screen(self):
        return self.dev.flow.screen().text()

    def refresh(self):
        """The display task's round: the panels show what changed."""
        return self.dev.refresh(self.clock.ticks_ms())

    def panel(self, name):
        """pixel(x, y) of a panel as it shows now (its controller's RAM, after a refresh)."""
        self.refresh()
        buf = self.models[name].pixels()
        return lambda x, y: buf[y * 128 + x] if 0 <= x < 128 and 0 <= y < 64 else 0

    def contrast(self, name):
        return self.models[name].contrast

    def left_ms(self, side):
        d = self.dev.engine.display(side)
        return d.remaining_ms - d.overtime_ms
