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


def run():
    """The simulator's entry: wire the board, open the channel, then run the
    firmware's main.py (TILECLOCK_SIM_MAIN) as the chip would after boot."""
    import os

    board = Board(int(os.getenv("TILECLOCK_SIM_BATTERY_MV") or "3900"))
    port = os.getenv("TILECLOCK_SIM_PORT")
    if port:
        import sim_link

        sim_link.start(int(port), board)
        for name, panel in board.panels.items():
            panel.on_frame = _frame_sender(sim_link, name)
    main = os.getenv("TILECLOCK_SIM_MAIN") or "main.py"
    source = open(main).read()
    exec(compile(source, main, "exec"), {"__name__": "__main__", "__file__": main})


def _frame_sender(link, name):
    def on_frame(panel):
        link.send_frame(name, panel)
    return on_frame
