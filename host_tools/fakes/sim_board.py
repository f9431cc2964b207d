# The tileclock reference board, wired up with the fakes: three SSD1306
# panels on their buses, the 4x4 keypad, button and LED pins, the battery
# divider.  Used by the simulator (run()) and by tests (wire()).

import hwconfig
import machine
import sim_device
from sim_ssd1306 import SSD1306Panel

PANELS = ("left", "right", "terminal")


class Board:
    def __init__(self, battery_mv=3900):
        h = hwconfig
        self.panels = {
            "left": machine.sim_attach_i2c(SSD1306Panel(), h.ADDR_DISPLAY_LEFT,
                                           scl=h.I2C_PLAYERS_SCL, sda=h.I2C_PLAYERS_SDA),
            "right": machine.sim_attach_i2c(SSD1306Panel(), h.ADDR_DISPLAY_RIGHT,
                                            scl=h.I2C_PLAYERS_SCL, sda=h.I2C_PLAYERS_SDA),
            "terminal": machine.sim_attach_i2c(SSD1306Panel(), h.ADDR_DISPLAY_TERMINAL,
                                               scl=h.I2C_TERMINAL_SCL, sda=h.I2C_TERMINAL_SDA),
        }
        # Columns: pull-ups on the board (GPIO34-39 have no internal ones).
        self.keypad = machine.SimKeyMatrix(h.KEYPAD_ROWS, h.KEYPAD_COLS, h.KEYPAD_LAYOUT,
                                           col_pull=1)
        self.buttons = {"left": h.PIN_BUTTON_LEFT, "right": h.PIN_BUTTON_RIGHT,
                        "pause": h.PIN_BUTTON_PAUSE, "challenge": h.PIN_BUTTON_CHALLENGE}
        self.leds = {"left": h.PIN_LED_LEFT, "right": h.PIN_LED_RIGHT,
                     "status": h.PIN_LED_STATUS}
        for pin in self.leds.values():
            machine.sim_watch(pin)
        self.set_battery(battery_mv)

    def set_battery(self, mv):
        machine.sim_set_voltage(hwconfig.PIN_BATTERY_ADC, int(mv / hwconfig.BATTERY_DIVIDER))

    def press(self, name):
        machine.sim_press(self.buttons[name])

    def release(self, name):
        machine.sim_release(self.buttons[name])


def wire(battery_mv=3900):
    return Board(battery_mv)


def _pyexec(path):
    """Run a script as the ESP32 port runs boot.py and main.py
    (shared/runtime/pyexec.c, parse_compile_execute, at v1.26.0): compiled first, then
    run with Ctrl-C on (a 0x03 on the port raises KeyboardInterrupt), Ctrl-C off after."""
    import micropython

    with open(path) as f:
        code = compile(f.read(), path, "exec")
    micropython.kbd_intr(3)
    try:
        exec(code, {"__name__": "__main__", "__file__": path})
    finally:
        micropython.kbd_intr(-1)


def run():
    """The simulator's entry: wire the board, open the channel, then run the
    firmware's boot.py and main.py (TILECLOCK_SIM_MAIN) as the chip does after reset."""
    import os

    board = Board(int(os.getenv("TILECLOCK_SIM_BATTERY_MV") or "3900"))
    port = os.getenv("TILECLOCK_SIM_PORT")
    if port:
        import sim_link

        sim_link.start(int(port), board)
        for name, panel in board.panels.items():
            panel.on_frame = _frame_sender(sim_link, name)
    _pyexec(hwconfig.__file__.rsplit("/", 1)[0] + "/boot.py")
    _pyexec(os.getenv("TILECLOCK_SIM_MAIN") or "main.py")


def _frame_sender(link, name):
    def on_frame(panel):
        link.send_frame(name, panel)
    return on_frame
