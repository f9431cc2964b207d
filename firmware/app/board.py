# The device's hardware layers in one bundle.  create() builds them on the
# board's pins (hwconfig); tests build a Board from their own parts.


class Board:
    def __init__(self, buttons, keypad, panels, buzzer, battery=None, leds=None, wdt=None,
                 power=None):
        self.buttons = buttons      # hal_buttons.Buttons: left, right, pause, challenge
        self.keypad = keypad        # hal_keypad.Keypad or None
        self.panels = panels        # hal_display.Panels or None
        self.buzzer = buzzer        # hal_buzzer.Buzzer
        self.battery = battery      # hal_battery.Battery or None
        self.leds = leds            # (left, right, status) output pins or None
        self.wdt = wdt              # machine.WDT once started, or None
        self.power = power          # hal_power.Power, or None: created when the cell is empty


def create(clock, panels=True):
    import hwconfig
    import hal_battery
    import hal_buttons
    import hal_buzzer
    import hal_display
    import hal_keypad
    from machine import Pin

    leds = (Pin(hwconfig.PIN_LED_LEFT, Pin.OUT, value=0),
            Pin(hwconfig.PIN_LED_RIGHT, Pin.OUT, value=0),
            Pin(hwconfig.PIN_LED_STATUS, Pin.OUT, value=0))
    return Board(hal_buttons.create(clock), hal_keypad.create(),
                 hal_display.create() if panels else None, hal_buzzer.create(),
                 hal_battery.create(), leds)
