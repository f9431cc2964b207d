# A small stand-in firmware for the simulator's own tests: it uses only the
# ESP32 API (through the fakes) and shows what it saw as bars of 8 pixels per
# event, so that a test can read the panels back.
#   left/right panel, rows 0-7: presses of that player's button
#   terminal, rows 0-7: keys typed; rows 8-15: reset cause; rows 16-23: boot count (NVS)
# Keys: "#" stops feeding the watchdog (it bites), "*" calls machine.reset().
import time

import esp32
import framebuf
import hwconfig as h
import machine
from machine import I2C, PWM, WDT, Pin

players = I2C(h.I2C_PLAYERS_ID, scl=Pin(h.I2C_PLAYERS_SCL), sda=Pin(h.I2C_PLAYERS_SDA))
terminal = I2C(h.I2C_TERMINAL_ID, scl=Pin(h.I2C_TERMINAL_SCL), sda=Pin(h.I2C_TERMINAL_SDA))
INIT = (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 63, 0xC8, 0xD3, 0x00, 0xDA, 0x12,
        0x81, 0xFF, 0xA4, 0xA6, 0x8D, 0x14, 0xAF)


class Oled(framebuf.FrameBuffer):
    def __init__(self, i2c, addr):
        self.i2c = i2c
        self.addr = addr
        self.buf = bytearray(1024)
        super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)
        for c in INIT:
            i2c.writeto(addr, bytes((0x80, c)))

    def show(self):
        for c in (0x21, 0, 127, 0x22, 0, 7):
            self.i2c.writeto(self.addr, bytes((0x80, c)))
        self.i2c.writevto(self.addr, [b"\x40", self.buf])


left = Oled(players, h.ADDR_DISPLAY_LEFT)
right = Oled(players, h.ADDR_DISPLAY_RIGHT)
term = Oled(terminal, h.ADDR_DISPLAY_TERMINAL)

nvs = esp32.NVS("fixture")
try:
    boots = nvs.get_i32("boots") + 1
except OSError:
    boots = 1
nvs.set_i32("boots", boots)
nvs.commit()

counts = [0, 0]
typed = []
led_left = Pin(h.PIN_LED_LEFT, Pin.OUT, value=0)
led_right = Pin(h.PIN_LED_RIGHT, Pin.OUT, value=0)
Pin(h.PIN_LED_STATUS, Pin.OUT, value=1)
buzzer = PWM(Pin(h.PIN_BUZZER), freq=2700, duty_u16=0)
dirty = [True]


def pressed(side):
    def handler(pin):
        counts[side] += 1
        (led_left if side == 0 else led_right).value(counts[side] & 1)
        dirty[0] = True
    return handler


buttons = [Pin(h.PIN_BUTTON_LEFT, Pin.IN, Pin.PULL_UP), Pin(h.PIN_BUTTON_RIGHT, Pin.IN, Pin.PULL_UP)]
buttons[0].irq(handler=pressed(0), trigger=Pin.IRQ_FALLING)
buttons[1].irq(handler=pressed(1), trigger=Pin.IRQ_FALLING)
challenge = Pin(h.PIN_BUTTON_CHALLENGE, Pin.IN, Pin.PULL_UP)
challenge.irq(handler=lambda p: buzzer.duty_u16(0 if p.value() else 32768))

rows = [Pin(r, Pin.OUT, value=1) for r in h.KEYPAD_ROWS]
cols = [Pin(c, Pin.IN) for c in h.KEYPAD_COLS]
held = set()
battery = machine.ADC(Pin(h.PIN_BATTERY_ADC), atten=machine.ADC.ATTN_11DB)
last_mv = [0]
# The firmware's own timeout (app/watchdog.py): a shorter one bites on a busy host
# whenever this loop is not scheduled for a second, and a test then sees a reboot.
wdt = WDT(timeout=3000)
feeding = True


def draw():
    for oled, n in ((left, counts[0]), (right, counts[1])):
        oled.fill(0)
        oled.fill_rect(0, 0, 8 * n, 8, 1)
        oled.text("presses %d" % n, 0, 30)
        oled.show()
    term.fill(0)
    term.fill_rect(0, 0, 8 * len(typed), 8, 1)
    term.fill_rect(0, 8, 8 * machine.reset_cause(), 8, 1)
    term.fill_rect(0, 16, 8 * boots, 8, 1)
    term.fill_rect(0, 24, 8 * (battery.read_uv() * 2 // 1000 // 250), 8, 1)
    term.text("".join(typed)[-16:], 0, 40)
    term.show()


while True:
    for r, rp in enumerate(rows):
        rp.value(0)
        for c, cp in enumerate(cols):
            key = h.KEYPAD_LAYOUT[r][c]
            if cp.value() == 0:
                if key not in held:
                    held.add(key)
                    typed.append(key)
                    dirty[0] = True
                    if key == "#":
                        feeding = False
                    elif key == "*":
                        machine.reset()
            else:
                held.discard(key)
        rp.value(1)
    mv = battery.read_uv()
    if mv != last_mv[0]:
        last_mv[0] = mv
        dirty[0] = True
    if dirty[0]:
        dirty[0] = False
        draw()
    if feeding:
        wdt.feed()
    time.sleep_ms(10)
