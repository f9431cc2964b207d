# The SSD1306 panel model decodes what the ssd1306 driver (host_tools/drivers.py) sends.

import hwconfig
import machine
from machine import I2C
from sim_ssd1306 import SSD1306Panel

# The init sequence of the ssd1306 driver the firmware uses, 128x64, internal VCC.
INIT = (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 63, 0xC8, 0xD3, 0x00, 0xDA, 0x12,
        0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0x8D, 0x14, 0xAF)


class Driver:
    """Writes exactly as ssd1306.SSD1306_I2C does: one 0x80-prefixed
    transaction per command byte, the buffer through writevto."""

    def __init__(self, i2c, addr):
        self.i2c = i2c
        self.addr = addr
        self.temp = bytearray(2)
        self.buffer = bytearray(1024)
        for cmd in INIT:
            self.cmd(cmd)
        self.show()

    def cmd(self, c):
        self.temp[0] = 0x80
        self.temp[1] = c
        self.i2c.writeto(self.addr, self.temp)

    def pixel(self, x, y, on=1):
        if on:
            self.buffer[(y >> 3) * 128 + x] |= 1 << (y & 7)
        else:
            self.buffer[(y >> 3) * 128 + x] &= ~(1 << (y & 7))

    def show(self):
        for c in (0x21, 0, 127, 0x22, 0, 7):
            self.cmd(c)
        self.i2c.writevto(self.addr, [b"\x40", self.buffer])


def setup():
    machine.sim_reset_all()
    panel = machine.sim_attach_i2c(SSD1306Panel(), 0x3C, scl=hwconfig.I2C_PLAYERS_SCL, sda=hwconfig.I2C_PLAYERS_SDA)
    return panel, Driver(I2C(0, scl=hwconfig.I2C_PLAYERS_SCL, sda=hwconfig.I2C_PLAYERS_SDA), 0x3C)


def test_power_on_state_is_dark():
    p = SSD1306Panel()
    assert not p.display_on and p.lit() == 0


def test_driver_init_turns_the_panel_on_in_the_standard_orientation():
    panel, drv = setup()
    assert panel.display_on and panel.contrast == 0xFF and panel.charge_pump
    assert panel.seg_remap and panel.com_remap and panel.mux == 64
    assert panel.frames == 1 and panel.lit() == 0


def test_pixels_land_where_the_driver_put_them():
    panel, drv = setup()
    frames = []
    panel.on_frame = frames.append
    for x, y in ((0, 0), (127, 0), (5, 9), (127, 63)):
        drv.pixel(x, y)
    drv.show()
    assert frames == [panel]
    assert panel.lit() == 4
    for x, y in ((0, 0), (127, 0), (5, 9), (127, 63)):
        assert panel.pixel(x, y) == 1
    assert panel.pixel(1, 0) == 0
    rows = panel.text().split("\n")
    assert rows[9][5] == "#" and rows[9].count("#") == 1


def test_invert_contrast_off_and_flips():
    panel, drv = setup()
    drv.pixel(3, 2)
    drv.show()
    drv.cmd(0xA7)
    assert panel.pixel(3, 2) == 0 and panel.pixel(0, 0) == 1
    drv.cmd(0xA6)
    drv.cmd(0x81)
    drv.cmd(0x10)
    assert panel.contrast == 0x10
    drv.cmd(0xC0)  # COM scan not remapped: upside down
    assert panel.pixel(3, 63 - 2) == 1
    drv.cmd(0xA0)  # and mirrored
    assert panel.pixel(127 - 3, 63 - 2) == 1
    drv.cmd(0xAE)
    assert panel.lit() == 0
    drv.cmd(0xAF)
    drv.cmd(0xA5)  # entire display on
    assert panel.lit() == 128 * 64


def test_page_addressing_mode_and_partial_windows():
    panel, drv = setup()
    i2c = drv.i2c
    # Horizontal mode, a window of columns 10-11 on pages 1-2.
    for c in (0x21, 10, 11, 0x22, 1, 2):
        drv.cmd(c)
    i2c.writeto(0x3C, b"\x40\x01\x02\x04\x08")
    assert panel.pixel(10, 8) and panel.pixel(11, 9) and panel.pixel(10, 18) and panel.pixel(11, 19)
    # Page mode: page 7, column 0x25, one byte.
    for c in (0x20, 0x02, 0xB7, 0x05, 0x12):
        drv.cmd(c)
    i2c.writeto(0x3C, b"\x40\x80")
    assert panel.pixel(0x25, 63) == 1
    # Command stream (Co = 0) with arguments inside one transaction.
    i2c.writeto(0x3C, b"\x00\x81\x33\xa7")
    assert panel.contrast == 0x33 and panel.inverted


def test_state_transfer_renders_the_same_picture():
    panel, drv = setup()
    for i in range(64):
        drv.pixel(i * 2, i)
    drv.show()
    copy = SSD1306Panel()
    copy.load(panel.state(), panel.ram)
    assert copy.pixels() == panel.pixels()
    assert copy.lit() == 64


def test_real_driver_and_framebuf_under_micropython():
    from mpytest import only_micropython, skip

    only_micropython("framebuf is MicroPython's")
    try:
        import ssd1306
    except ImportError:
        skip("the ssd1306 driver (host_tools/drivers.py) is not on the path")
    machine.sim_reset_all()
    panel = machine.sim_attach_i2c(SSD1306Panel(), 0x3D, bus=0)
    oled = ssd1306.SSD1306_I2C(128, 64, I2C(0, scl=hwconfig.I2C_PLAYERS_SCL, sda=hwconfig.I2C_PLAYERS_SDA), 0x3D)
    oled.fill(0)
    oled.text("12:34", 0, 0)
    oled.fill_rect(100, 40, 10, 10, 1)
    oled.show()
    assert panel.pixel(105, 45) == 1 and panel.pixel(99, 45) == 0
    assert panel.lit() > 100
