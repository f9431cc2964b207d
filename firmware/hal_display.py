# The three OLED panels (SSD1306/SSD1309, 128x64, I2C) through the published
# `ssd1306` driver (PyPI: micropython-ssd1306 0.3, a third-party repackaging of
# MicroPython's own 2020 driver, not micropython-lib's; host_tools/drivers.py),
# which the host tools put onto the device next to the firmware.
#
# A panel that does not answer on its bus is reported as None: the clock keeps
# running with the panels it has (and the self-test shows which one is missing).


class Panels:
    def __init__(self, left, right, terminal):
        self.left = left
        self.right = right
        self.terminal = terminal
        self.missing = tuple(name for name, p in (("left", left), ("right", right),
                                                  ("terminal", terminal)) if p is None)

    def side(self, side):
        return self.left if side == 0 else self.right

    def all(self):
        return tuple(p for p in (self.left, self.right, self.terminal) if p is not None)


def _panel(i2c, addr, width, height):
    import ssd1306

    try:
        return ssd1306.SSD1306_I2C(width, height, i2c, addr)
    except OSError:
        return None


def create():
    import hwconfig
    from machine import I2C, Pin

    w, h = hwconfig.DISPLAY_WIDTH, hwconfig.DISPLAY_HEIGHT
    players = I2C(hwconfig.I2C_PLAYERS_ID, scl=Pin(hwconfig.I2C_PLAYERS_SCL),
                  sda=Pin(hwconfig.I2C_PLAYERS_SDA), freq=hwconfig.I2C_PLAYERS_FREQ)
    terminal = I2C(hwconfig.I2C_TERMINAL_ID, scl=Pin(hwconfig.I2C_TERMINAL_SCL),
                   sda=Pin(hwconfig.I2C_TERMINAL_SDA), freq=hwconfig.I2C_TERMINAL_FREQ)
    return Panels(_panel(players, hwconfig.ADDR_DISPLAY_LEFT, w, h),
                  _panel(players, hwconfig.ADDR_DISPLAY_RIGHT, w, h),
                  _panel(terminal, hwconfig.ADDR_DISPLAY_TERMINAL, w, h))
