# Battery voltage through the divider on an ADC1 pin.
#
# The reading is averaged over a few samples (the divider and its capacitor
# are slow; the ADC is noisy).  level() classifies it: "ok", "low" (warn),
# "empty" (save the game and stop), "usb" (no cell in circuit: running from USB).

from micropython import const

_SAMPLES = const(8)


class Battery:
    def __init__(self, adc, divider, low_mv, empty_mv, absent_mv=0):
        self._adc = adc
        self._divider = divider
        self.low_mv = low_mv
        self.empty_mv = empty_mv
        self.absent_mv = absent_mv
        self._samples = [0] * _SAMPLES
        self._count = 0
        self._next = 0
        self.mv = -1

    def sample(self):
        """Take one reading; return the averaged cell voltage in mV."""
        pin_mv = self._adc.read_uv() // 1000
        self._samples[self._next] = int(pin_mv * self._divider)
        self._next = (self._next + 1) % _SAMPLES
        if self._count < _SAMPLES:
            self._count += 1
        total = 0
        for i in range(self._count):
            total += self._samples[i]
        self.mv = total // self._count
        return self.mv

    def level(self):
        mv = self.mv
        if mv < 0:
            return "ok"
        if mv < self.absent_mv:
            return "usb"
        if mv < self.empty_mv:
            return "empty"
        if mv < self.low_mv:
            return "low"
        return "ok"

    def percent(self):
        """Rough charge left for the status line (linear between empty and 4.1 V)."""
        if self.mv < 0 or self.level() == "usb":
            return -1
        full = 4100
        span = full - self.empty_mv
        p = (self.mv - self.empty_mv) * 100 // span
        return 0 if p < 0 else (100 if p > 100 else p)


def create():
    import hwconfig
    from machine import ADC, Pin

    adc = ADC(Pin(hwconfig.PIN_BATTERY_ADC), atten=ADC.ATTN_11DB)
    return Battery(adc, hwconfig.BATTERY_DIVIDER, hwconfig.BATTERY_LOW_MV,
                   hwconfig.BATTERY_EMPTY_MV, getattr(hwconfig, "BATTERY_ABSENT_MV", 0))
