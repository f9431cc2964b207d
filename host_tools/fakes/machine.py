# A fake of the ESP32 port's `machine` module for the unix port of MicroPython
# (and CPython), with the signatures and behaviour of ports/esp32.
#
# What the chip cannot do - drive an input from outside, read output levels,
# attach I2C devices, let the watchdog bite on demand - is reached only through
# names starting with `sim_`.  See docs/fakes.md.
#
# The part a run of the firmware does not need sits in sim_machine.py and is
# imported on first use through the module's __getattr__ (the fakes stand for
# the chip's C modules, which take no heap; so should as little of them as we can).

import sim_device

import sys

# MicroPython's own module, None under CPython (where micropython.py, the stand-in
# for const(), can be importable too).
if sys.implementation.name == "micropython":
    import micropython as _micropython
else:
    _micropython = None

_ENODEV = 19
_ETIMEDOUT = 116

# Reset causes (machine.reset_cause()) and wake reasons, as on the ESP32.
PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5
SLEEP = 2
DEEPSLEEP = 4
PIN_WAKE = 2
EXT0_WAKE = 2
EXT1_WAKE = 3
TIMER_WAKE = 4
TOUCHPAD_WAKE = 5
ULP_WAKE = 6

# GPIOs the port lets Pin() and ADC() take, per chip (ports/esp32/machine_pin.h and
# machine_adc.c at v1.26.0).  ESP32 (WROOM): 6-11 belong to the SPI flash, 20, 24
# and 28-31 do not exist, 34-39 are input only without internal pulls.  ESP32-S3
# with PSRAM: 22-25 do not exist, 26-32 belong to flash and PSRAM, 33-37 to octal
# PSRAM (the SPIRAM_OCT image for N16R8 refuses them; the quad image takes them),
# no input-only pins; ADC1 on 1-10, ADC2 on 11-20.
_CHIP_GPIO = {
    "esp32": ((0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23,
               25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39), 34,
              (32, 33, 34, 35, 36, 37, 38, 39, 0, 2, 4, 12, 13, 14, 15, 25, 26, 27)),
    "esp32s3": (tuple(range(0, 22)) + tuple(range(38, 49)), 49, tuple(range(1, 21))),
}
_chip = [None]


def sim_chip(name=None):
    """The chip whose pins the fake takes: the board's (hwconfig.CHIP) unless set."""
    global _VALID_GPIO, _INPUT_ONLY_FIRST, _ADC_GPIO
    if name is None:
        return _chip[0]
    _VALID_GPIO, _INPUT_ONLY_FIRST, _ADC_GPIO = _CHIP_GPIO[name]
    _chip[0] = name


def sim_board_chip():
    try:
        import hwconfig
    except ImportError:
        return "esp32"
    return getattr(hwconfig, "CHIP", "esp32")


sim_chip(sim_board_chip())


_UNSET = object()


class SimReset(BaseException):
    """Raised by machine.reset() outside the simulator: the chip would restart
    here.  Not an Exception, so that firmware `except Exception` lets it pass."""

    def __init__(self, cause):
        super().__init__(cause)
        self.cause = cause


def _oserror(code, name):
    # The port raises OSError(code); CPython needs the message to set .errno.
    if _micropython is not None:
        return OSError(code)
    return OSError(code, name)


def sim_pin_id(pin):
    if isinstance(pin, Pin):
        return pin._id
    if isinstance(pin, int):
        return pin
    raise TypeError("expecting a pin")


def _check_gpio(gpio):
    if gpio not in _VALID_GPIO:
        raise ValueError("invalid pin")


# ---------------------------------------------------------------------------
# GPIO

class _PinState:
    def __init__(self, gpio):
        self.id = gpio
        self.mode = None      # None: not configured (reads like an input)
        self.pull = None      # Pin.PULL_UP / Pin.PULL_DOWN / None
        self.out = 0          # output register
        self.ext = None       # level forced from outside (sim_drive), or None
        self.ext_pull = None  # board resistor: 1 pull-up, 0 pull-down, None
        self.drive = 2
        self.level = 0
        self.handler = None
        self.trigger = 0
        self.irq_pin = None
        self.latched = False  # an edge arrived while interrupts were disabled
        self.watched = False


sim_pins = {}
sim_pin_list = []
sim_links = []   # [pin_a, pin_b] pairs connected through a closed switch (keypad keys)
sim_irq_disabled = [0]
sim_irq_pending = []

# The soft-IRQ queue.  On the chip a pin's ISR does nothing but
# mp_sched_schedule(handler, pin) (ports/esp32/machine_pin.c:91-96); the handler runs
# later in the main thread, and a full queue drops the callback silently
# (py/scheduler.c mp_sched_schedule returns false).  The queue holds
# MICROPY_SCHEDULER_DEPTH = 8 callbacks on the ESP32 (ports/esp32/mpconfigport.h:72),
# shared by every pin.  Here the main thread is idle unless a test says it is busy
# (sim_busy_begin/end): edges then queue up and run when it is free again, late.
_SCHED_DEPTH = 8
sim_sched = []
sim_sched_state = {"busy": 0, "running": False, "dropped": 0, "run": 0}


def sim_pin_state(gpio):
    s = sim_pins.get(gpio)
    if s is None:
        _check_gpio(gpio)
        s = _PinState(gpio)
        sim_pins[gpio] = s
        sim_pin_list.append(s)
        s.level = _compute(s)
    return s


def _drives(s):
    """The level a pin forces onto its net, or None."""
    if s.mode == Pin.OUT:
        return s.out
    if s.mode == Pin.OPEN_DRAIN and not s.out:
        return 0
    return s.ext


def _compute(s):
    level = _drives(s)
    if level is not None:
        return level
    for a, b in sim_links:
        other = b if a is s else (a if b is s else None)
        if other is not None:
            level = _drives(other)
            if level is not None:
                return level
    if s.pull == Pin.PULL_UP:
        return 1
    if s.pull == Pin.PULL_DOWN:
        return 0
    if s.ext_pull is not None:
        return s.ext_pull
    return 0  # floating: reads low


def _refresh():
    for s in sim_pin_list:
        level = _compute(s)
        if level == s.level:
            continue
        s.level = level
        if s.watched:
            sim_device.notify("pin", s.id, level)
        edge = Pin.IRQ_RISING if level else Pin.IRQ_FALLING
        if s.handler is not None and s.trigger & edge:
            if sim_irq_disabled[0]:
                # The GPIO's interrupt status latches one edge; the ISR runs on enable.
                if not s.latched:
                    s.latched = True
                    sim_irq_pending.append(s)
            else:
                _isr(s)


def _isr(s):
    """The port's ISR: queue the handler, or drop it when the queue is full."""
    if len(sim_sched) >= _SCHED_DEPTH:
        sim_sched_state["dropped"] += 1
        return
    sim_sched.append(s)
    if not sim_sched_state["busy"]:
        sim_run_scheduled()


def sim_run_scheduled():
    # Callbacks run one after the other, never nested (the scheduler is locked
    # while one runs); an edge a handler causes is queued behind it.
    if sim_sched_state["running"]:
        return
    sim_sched_state["running"] = True
    try:
        while sim_sched:
            s = sim_sched.pop(0)
            sim_sched_state["run"] += 1
            if s.handler is not None:
                s.handler(s.irq_pin)
    finally:
        sim_sched_state["running"] = False


class _PinIRQ:
    # ports/esp32/machine_pin.c:441-474: calling it runs the ISR; trigger([new]).
    def __init__(self, state):
        self._s = state

    def __call__(self):
        _isr(self._s)

    def trigger(self, new=None):
        old = self._s.trigger
        if new is not None:
            self._s.trigger = new
        return old


class Pin:
    # ports/esp32/machine_pin.c:378-404: these methods and constants, no others.
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_DOWN = 1
    PULL_UP = 2
    IRQ_RISING = 1
    IRQ_FALLING = 2
    WAKE_LOW = 4
    WAKE_HIGH = 5
    DRIVE_0 = 0
    DRIVE_1 = 1
    DRIVE_2 = 2
    DRIVE_3 = 3

    def __init__(self, id, mode=-1, pull=-1, *, value=None, drive=None, hold=None):
        if not isinstance(id, int):
            raise ValueError("invalid pin")
        _check_gpio(id)
        self._id = id
        self._s = sim_pin_state(id)
        if mode != -1 or pull != -1 or value is not None or drive is not None:
            self.init(mode, pull, value=value, drive=drive, hold=hold)

    def init(self, mode=-1, pull=-1, *, value=None, drive=None, hold=None):
        s = self._s
        if mode is not None and mode != -1:
            if mode not in (Pin.IN, Pin.OUT, Pin.OPEN_DRAIN):
                raise ValueError("invalid pin mode")
            if self._id >= _INPUT_ONLY_FIRST and mode != Pin.IN:
                raise ValueError("pin can only be input")
        if value is not None:
            s.out = 1 if value else 0
        if drive is not None and self._id < _INPUT_ONLY_FIRST:
            s.drive = drive
        if mode is not None and mode != -1:
            s.mode = mode
        if pull != -1:
            # GPIO34-39 have no internal pulls: the chip logs and ignores it.
            if self._id < _INPUT_ONLY_FIRST:
                s.pull = pull if pull in (Pin.PULL_UP, Pin.PULL_DOWN) else None
        _refresh()

    def value(self, x=None):
        s = self._s
        if x is None:
            return s.level
        s.out = 1 if x else 0
        _refresh()

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def toggle(self):
        self.value(0 if self._s.out else 1)

    def irq(self, handler=_UNSET, trigger=_UNSET, wake=None):
        # ports/esp32/machine_pin.c:299-368: handler, trigger and wake only (no hard=,
        # no priority=).  irq() alone returns the IRQ object; any argument configures
        # it (handler None disables; trigger defaults to both edges).
        s = self._s
        if handler is not _UNSET or trigger is not _UNSET or wake is not None:
            if handler is _UNSET:
                handler = None
            if trigger is _UNSET:
                trigger = Pin.IRQ_FALLING | Pin.IRQ_RISING
            s.handler = handler
            s.trigger = trigger if handler is not None else 0
            s.irq_pin = self
        return _PinIRQ(s)

    def __repr__(self):
        return "Pin(%d)" % self._id


def disable_irq():
    sim_irq_disabled[0] += 1
    return sim_irq_disabled[0] - 1


def enable_irq(state=0):
    sim_irq_disabled[0] = state
    if not state:
        while sim_irq_pending:
            s = sim_irq_pending.pop(0)
            s.latched = False
            _isr(s)


# ---------------------------------------------------------------------------
# Back doors for GPIO

def sim_drive(pin, level):
    """Force a level onto a pin from outside (a button to GND: sim_drive(p, 0)
    while pressed, sim_drive(p, None) when released).  An edge calls the pin's
    IRQ handler at once, filtered by its trigger, as the chip's ISR would."""
    s = sim_pin_state(sim_pin_id(pin))
    s.ext = None if level is None else (1 if level else 0)
    _refresh()


def sim_press(pin):
    sim_drive(pin, 0)


def sim_release(pin):
    sim_drive(pin, None)


def sim_external_pull(pin, level):
    """A resistor on the board: 1 pull-up, 0 pull-down, None none."""
    s = sim_pin_state(sim_pin_id(pin))
    s.ext_pull = level
    _refresh()


def sim_connect(pin_a, pin_b, closed=True):
    """Close (or open) a switch between two pins (a keypad key)."""
    a = sim_pin_state(sim_pin_id(pin_a))
    b = sim_pin_state(sim_pin_id(pin_b))
    for pair in sim_links:
        if (pair[0] is a and pair[1] is b) or (pair[0] is b and pair[1] is a):
            if not closed:
                sim_links.remove(pair)
                _refresh()
            return
    if closed:
        sim_links.append([a, b])
        _refresh()


class SimKeyMatrix:
    """A key matrix: key (r, c) connects row pin r to column pin c while held.
    With the rows driven low one at a time and pulled-up columns, the column
    of a held key in the driven row reads low."""

    def __init__(self, rows, cols, layout=None, col_pull=1):
        self.rows = tuple(sim_pin_id(p) for p in rows)
        self.cols = tuple(sim_pin_id(p) for p in cols)
        self.layout = layout
        for c in self.cols:
            if col_pull is not None:
                sim_external_pull(c, col_pull)

    def press(self, row, col):
        sim_connect(self.rows[row], self.cols[col], True)

    def release(self, row, col):
        sim_connect(self.rows[row], self.cols[col], False)

    def where(self, key):
        for r, line in enumerate(self.layout):
            c = line.find(key)
            if c >= 0:
                return r, c
        raise ValueError("no key " + key)

    def press_key(self, key):
        r, c = self.where(key)
        self.press(r, c)

    def release_key(self, key):
        r, c = self.where(key)
        self.release(r, c)

    def release_all(self):
        for r in range(len(self.rows)):
            for c in range(len(self.cols)):
                self.release(r, c)


# ---------------------------------------------------------------------------
# I2C

_I2C_DEFAULT_PINS = {0: (18, 19), 1: (25, 26)}
sim_bus_by_pins = {}   # (scl, sda) -> {addr: device}
sim_bus_by_id = {}     # hardware controller id -> {addr: device}


def sim_attach_i2c(device, addr, bus=None, scl=None, sda=None):
    """Attach a device model at a 7-bit address, on a hardware controller
    (bus=0/1) or on the bus wired to the scl/sda pins.  A device has
    i2c_start(), i2c_write(mv) -> count accepted, i2c_read(buf), i2c_stop()."""
    if bus is not None:
        table = sim_bus_by_id.setdefault(bus, {})
    else:
        table = sim_bus_by_pins.setdefault((sim_pin_id(scl), sim_pin_id(sda)), {})
    table[addr] = device
    return device


class I2C:
    def __init__(self, id=-1, *, scl=None, sda=None, freq=400000, timeout=50000):
        if id != -1 and id not in (0, 1):
            raise ValueError("I2C(%d) doesn't exist" % id)
        self._hw = id if id != -1 else None
        defaults = _I2C_DEFAULT_PINS.get(id, (None, None))
        if id == -1 and (scl is None or sda is None):
            raise TypeError("SoftI2C needs scl and sda")
        self._scl = sim_pin_id(scl) if scl is not None else defaults[0]
        self._sda = sim_pin_id(sda) if sda is not None else defaults[1]
        _check_gpio(self._scl)
        _check_gpio(self._sda)
        self._freq = freq
        self._timeout = timeout

    # No init(): the port's hardware I2C has it in its table but raises "I2C operation
    # not supported" (its protocol, ports/esp32/machine_i2c.c machine_hw_i2c_p, has no
    # init); SoftI2C has it (sim_machine.py).

    def _device(self, addr):
        dev = sim_bus_by_pins.get((self._scl, self._sda), {}).get(addr)
        if dev is None and self._hw is not None:
            dev = sim_bus_by_id.get(self._hw, {}).get(addr)
        if dev is None:
            raise _oserror(_ENODEV, "ENODEV")
        return dev

    def _devices(self):
        found = dict(sim_bus_by_pins.get((self._scl, self._sda), {}))
        if self._hw is not None:
            for addr, dev in sim_bus_by_id.get(self._hw, {}).items():
                found.setdefault(addr, dev)
        return found

    def scan(self):
        return sorted(self._devices())

    def writeto(self, addr, buf, stop=True):
        dev = self._device(addr)
        dev.i2c_start()
        n = dev.i2c_write(memoryview(buf))
        if stop:
            dev.i2c_stop()
        return n

    def writevto(self, addr, vector, stop=True):
        dev = self._device(addr)
        dev.i2c_start()
        n = 0
        for buf in vector:
            n += dev.i2c_write(memoryview(buf))
        if stop:
            dev.i2c_stop()
        return n

    def readfrom_into(self, addr, buf, stop=True):
        dev = self._device(addr)
        dev.i2c_start()
        dev.i2c_read(buf)
        if stop:
            dev.i2c_stop()

    def readfrom(self, addr, nbytes, stop=True):
        buf = bytearray(nbytes)
        self.readfrom_into(addr, buf, stop)
        return bytes(buf)

    def _memaddr(self, memaddr, addrsize):
        n = addrsize // 8
        return bytes((memaddr >> (8 * (n - 1 - i))) & 0xFF for i in range(n))

    def writeto_mem(self, addr, memaddr, buf, *, addrsize=8):
        dev = self._device(addr)
        dev.i2c_start()
        dev.i2c_write(memoryview(self._memaddr(memaddr, addrsize)))
        dev.i2c_write(memoryview(buf))
        dev.i2c_stop()

    def readfrom_mem_into(self, addr, memaddr, buf, *, addrsize=8):
        dev = self._device(addr)
        dev.i2c_start()
        dev.i2c_write(memoryview(self._memaddr(memaddr, addrsize)))
        dev.i2c_start()  # repeated start
        dev.i2c_read(buf)
        dev.i2c_stop()

    def readfrom_mem(self, addr, memaddr, nbytes, *, addrsize=8):
        buf = bytearray(nbytes)
        self.readfrom_mem_into(addr, memaddr, buf, addrsize=addrsize)
        return bytes(buf)


# ---------------------------------------------------------------------------
# PWM

sim_pwm_state = {}     # gpio -> [freq, duty_u16] while running
sim_pwm_changes = {}   # gpio -> [(ticks_ms, freq, duty_u16), ...] (freq 0: stopped)
_PWM_HISTORY = 64


def _pwm_record(gpio):
    st = sim_pwm_state.get(gpio)
    entry = (sim_device.ticks_ms(), st[0], st[1]) if st else (sim_device.ticks_ms(), 0, 0)
    hist = sim_pwm_changes.setdefault(gpio, [])
    if len(hist) >= _PWM_HISTORY:
        hist.pop(0)
    hist.append(entry)
    sim_device.notify("pwm", gpio, entry[1], entry[2])


class PWM:
    def __init__(self, dest, *, freq=-1, duty=-1, duty_u16=-1, duty_ns=-1, invert=False):
        gpio = sim_pin_id(dest)
        _check_gpio(gpio)
        if gpio >= _INPUT_ONLY_FIRST:
            raise ValueError("pin can only be input")
        self._gpio = gpio
        self._invert = invert
        self.init(freq=freq, duty=duty, duty_u16=duty_u16, duty_ns=duty_ns)

    def init(self, *, freq=-1, duty=-1, duty_u16=-1, duty_ns=-1, invert=None):
        st = sim_pwm_state.get(self._gpio)
        if st is None:
            st = [5000, 32768]  # the port's defaults: 5 kHz, 50 %
        if freq != -1:
            if not 1 <= freq <= 40000000:
                raise ValueError("frequency must be from 1Hz to 40MHz")
            st[0] = freq
        if duty_u16 != -1:
            st[1] = self._check_u16(duty_u16)
        elif duty != -1:
            st[1] = self._check_u16(duty * 65535 // 1023 if duty < 1023 else 65535)
        elif duty_ns != -1:
            st[1] = self._check_u16(duty_ns * st[0] * 65535 // 1000000000)
        sim_pwm_state[self._gpio] = st
        _pwm_record(self._gpio)

    @staticmethod
    def _check_u16(v):
        if not 0 <= v <= 65535:
            raise ValueError("duty_u16 must be from 0 to 65535")
        return v

    def _st(self):
        st = sim_pwm_state.get(self._gpio)
        if st is None:
            raise _oserror(22, "EINVAL")  # deinitialised
        return st

    def freq(self, value=None):
        if value is None:
            return self._st()[0]
        self.init(freq=value)

    def duty_u16(self, value=None):
        if value is None:
            return self._st()[1]
        self.init(duty_u16=value)

    def duty(self, value=None):
        if value is None:
            return self._st()[1] * 1023 // 65535
        self.init(duty=value)

    def duty_ns(self, value=None):
        if value is None:
            st = self._st()
            return st[1] * 1000000000 // (st[0] * 65535)
        self.init(duty_ns=value)

    def deinit(self):
        if self._gpio in sim_pwm_state:
            del sim_pwm_state[self._gpio]
            _pwm_record(self._gpio)


# ---------------------------------------------------------------------------
# ADC

sim_voltage_mv = {}
_ATTN_FULL_MV = (950, 1250, 1750, 3100)


class ADC:
    ATTN_0DB = 0
    ATTN_2_5DB = 1
    ATTN_6DB = 2
    ATTN_11DB = 3
    WIDTH_9BIT = 9
    WIDTH_10BIT = 10
    WIDTH_11BIT = 11
    WIDTH_12BIT = 12

    def __init__(self, id, *, atten=-1):
        gpio = sim_pin_id(id)
        if gpio not in _ADC_GPIO:
            raise ValueError("invalid pin")
        self._gpio = gpio
        self._atten = ADC.ATTN_0DB
        self._bits = 12
        if atten != -1:
            self.atten(atten)

    def init(self, *, atten=-1):
        if atten != -1:
            self.atten(atten)

    def atten(self, atten):
        if atten not in (0, 1, 2, 3):
            raise ValueError("invalid atten")
        self._atten = atten

    def width(self, bits):
        if bits not in (9, 10, 11, 12):
            raise ValueError("invalid width")
        self._bits = bits

    def _mv(self):
        full = _ATTN_FULL_MV[self._atten]
        mv = sim_voltage_mv.get(self._gpio, 0)
        return min(max(mv, 0), full), full

    def read(self):
        mv, full = self._mv()
        top = (1 << self._bits) - 1
        return mv * top // full

    def read_u16(self):
        mv, full = self._mv()
        raw = mv * 4095 // full
        return (raw << 4) | (raw >> 8)

    def read_uv(self):
        mv, full = self._mv()
        return mv * 1000


def sim_set_voltage(pin, millivolts):
    """The voltage at an ADC pin, in mV."""
    sim_voltage_mv[sim_pin_id(pin)] = millivolts


# ---------------------------------------------------------------------------
# Watchdog, resets, CPU

sim_wdt = {"timeout": 0, "fed": 0}


class WDT:
    def __init__(self, id=0, timeout=5000):
        if id != 0:
            raise ValueError()
        if timeout <= 0:
            raise ValueError("WDT timeout too short")
        sim_wdt["timeout"] = timeout
        sim_wdt["fed"] = sim_device.ticks_ms()
        sim_device.notify("wdt", timeout)

    def feed(self):
        sim_wdt["fed"] = sim_device.ticks_ms()


def sim_set_clock(clock):
    """Time source for the watchdog and PWM history: an object with
    ticks_ms() (e.g. timebase.ManualClock), or None for real time."""
    sim_device.set_clock(clock)


sim_cause = [None]


def reset_cause():
    if sim_cause[0] is None:
        import os

        value = os.getenv("TILECLOCK_RESET_CAUSE")
        sim_cause[0] = int(value) if value else PWRON_RESET
    return sim_cause[0]


def sim_reset(cause):
    if sim_device.sim_mode():
        sim_device.end_process(cause)
    raise SimReset(cause)


# RTC: a C module on the chip, so here with the pins (not loaded on first use): its
# time is in every log record.  ports/esp32/machine_rtc.c:59-61, 165-176: memory()
# keeps at most 2048 bytes; 99-140: datetime() gives (year, month, day, weekday, hours,
# minutes, seconds, microseconds) from gettimeofday(), datetime(t) takes exactly 8 items
# and sets the seconds since the epoch from t (its weekday ignored).  Until it is set
# the chip counts from the epoch: here from 2000-01-01 at start-up.
sim_rtc = {"memory": b"", "offset": None}    # offset: seconds to add to time.time()


class RTC:
    def datetime(self, t=None):
        import time

        if t is None:
            if sim_rtc["offset"] is None:
                lt = time.gmtime(946684800 + time.ticks_ms() // 1000
                                 if hasattr(time, "ticks_ms") else 946684800)
            else:
                lt = time.localtime(int(time.time() + sim_rtc["offset"]))
            return (lt[0], lt[1], lt[2], lt[6], lt[3], lt[4], lt[5], 0)
        if len(t) != 8:
            raise ValueError("requested length 8 but object has length %d" % len(t))
        secs = time.mktime((t[0], t[1], t[2], t[4], t[5], t[6], 0, 0)
                           if hasattr(time, "ticks_ms") else
                           (t[0], t[1], t[2], t[4], t[5], t[6], 0, 0, -1))
        sim_rtc["offset"] = secs - time.time()

    def memory(self, data=None):
        if data is None:
            return sim_rtc["memory"]
        data = bytes(data)
        if len(data) > 2048:
            raise ValueError("buffer too long")
        sim_rtc["memory"] = data


def reset():
    sim_reset("reset")


def idle():
    pass


def deepsleep(time_ms=None):
    """Never returns: the chip sleeps and wakes with a reset (DEEPSLEEP_RESET).  In
    the simulator the process ends ("deepsleep GPIO LEVEL": the ext0 source set with
    esp32.wake_on_ext0, which the simulator waits for); elsewhere SimReset."""
    import esp32

    source = esp32.sim_wake_ext0()
    cause = "deepsleep"
    if source is not None:
        cause += " %d %d" % (source[0], 1 if source[1] else 0)
    sim_reset(cause)


_LAZY = ("Signal", "SoftI2C", "SimI2CMemory", "freq", "unique_id", "lightsleep", "soft_reset",
         "wake_reason", "UART", "sim_level", "sim_mode", "sim_pull", "sim_watch", "sim_detach_i2c",
         "sim_busy_begin", "sim_busy_end", "sim_irq_stats",
         "sim_pwm", "sim_pwm_history", "sim_wdt_started", "sim_wdt_due", "sim_wdt_check",
         "sim_set_reset_cause", "sim_set_wake_reason", "sim_reset_all")


def __getattr__(name):
    if name in _LAZY:
        import sim_machine

        return getattr(sim_machine, name)
    raise AttributeError(name)
