# The chip's deep sleep, woken by the pause switch: what the device does when
# the cell reaches its lowest safe voltage (app.device, "empty").
#
# ext0 wake-up (esp32.wake_on_ext0) exists on the ESP32 and the ESP32-S3 and
# needs an RTC-capable pin (ESP32: 0, 2, 4, 12-15, 25-27, 32-39; ESP32-S3: 0-21).
# ext0 keeps the RTC peripherals powered, so the pad's pull-up holds the switch's
# line high while the chip sleeps.  Waking is a reset (machine.DEEPSLEEP_RESET):
# the game comes back from NVS.


class Power:
    def __init__(self, wake_pin, active_level=0, pull_up=True):
        self.wake_pin = wake_pin
        self.active_level = active_level
        self.pull_up = pull_up

    def sleep(self):
        """Deep sleep until the wake pin reaches its active level; never returns."""
        import esp32
        from machine import Pin, deepsleep

        if self.pull_up and self.active_level == 0:
            pin = Pin(self.wake_pin, Pin.IN, Pin.PULL_UP)
        else:
            pin = Pin(self.wake_pin, Pin.IN)
        esp32.wake_on_ext0(pin, esp32.WAKEUP_ANY_HIGH if self.active_level else esp32.WAKEUP_ALL_LOW)
        deepsleep()


def wake_cause():
    """Why the chip started, for the self-test's report: "power" (switched on), "pause"
    (woken from deep sleep by the pause switch, ext0), "other" (woken from deep sleep by
    anything else: a wake line left floating wakes it again and again), "watchdog" or
    "reset"."""
    try:
        import machine

        cause = machine.reset_cause()
        if cause == machine.DEEPSLEEP_RESET:
            return "pause" if machine.wake_reason() == machine.EXT0_WAKE else "other"
        if cause == machine.WDT_RESET:
            return "watchdog"
        if cause == machine.PWRON_RESET:
            return "power"
        return "reset"
    except (ImportError, AttributeError):
        return "power"


def create():
    import hwconfig

    pin = hwconfig.PIN_BUTTON_PAUSE
    pull_up = getattr(hwconfig, "PULL_UP_PINS", {}).get(pin, hwconfig.BUTTON_PULL_UP)
    return Power(pin, hwconfig.BUTTON_ACTIVE_LEVEL, pull_up)
