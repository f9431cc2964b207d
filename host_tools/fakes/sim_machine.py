# The rarely used part of the `machine` fake (see machine.py): Signal, SoftI2C,
# freq(), unique_id(), lightsleep(), soft_reset(), wake_reason() and the back
# doors a run of the firmware does not need (pin and PWM readings, the
# watchdog's state, an I2C memory model, sim_reset_all).  machine's module
# __getattr__ imports this module on the first use of one of these names, so
# `machine.freq()` or `from machine import Signal` work as before while a run
# that never asks for them keeps them out of the heap.  Everything here acts
# on machine's own state, through the names machine.py gives it (sim_pins, sim_wdt,
# ...: the fake chip's state, public to the fakes and tests as every sim_ name).

import sim_device
from machine import (I2C, sim_board_chip, sim_bus_by_id, sim_bus_by_pins, sim_cause, sim_chip,
                     sim_irq_disabled, sim_irq_pending, sim_links, sim_pin_id, sim_pin_list,
                     sim_pin_state, sim_pins, sim_pwm_changes, sim_pwm_state, sim_reset, sim_rtc,
                     sim_run_scheduled, sim_sched, sim_sched_state, sim_voltage_mv, sim_wdt)


class Signal:
    def __init__(self, pin, invert=False):
        self._pin = pin
        self._invert = bool(invert)

    def value(self, x=None):
        if x is None:
            return self._pin.value() ^ self._invert
        self._pin.value((1 if x else 0) ^ self._invert)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


def sim_busy_begin():
    """The main thread is busy from now on (a long I2C transfer, a lookup, a garbage
    collection): pin IRQ callbacks queue up (8 at most, the rest are dropped) and run
    at sim_busy_end(), late, as on the chip."""
    sim_sched_state["busy"] += 1


def sim_busy_end():
    """The main thread is free again: the queued callbacks run now."""
    sim_sched_state["busy"] = max(0, sim_sched_state["busy"] - 1)
    if not sim_sched_state["busy"]:
        sim_run_scheduled()


def sim_irq_stats():
    """{"run": callbacks run, "dropped": edges lost to a full queue, "queued": waiting}."""
    return {"run": sim_sched_state["run"], "dropped": sim_sched_state["dropped"],
            "queued": len(sim_sched)}


class UART:
    """Only the rate: the simulated wire (host_tools/sim/wire.py) reads UARTn's rate
    from the device folder (.sim-uartN) and garbles bytes while the host's differs."""

    def __init__(self, id, baudrate=0, **kwargs):
        if id not in (0, 1, 2):
            raise ValueError("UART(%d) does not exist" % id)
        self._id = id
        if baudrate:
            self.init(baudrate=baudrate)

    def init(self, baudrate=0, **kwargs):
        if baudrate:
            # The port first waits until what was sent has left (uart_wait_tx_done,
            # ports/esp32/machine_uart.c:246): give the simulated wire time to take it.
            import time

            time.sleep_ms(30)
            with open(sim_device.path_in_device(".sim-uart%d" % self._id), "w") as f:
                f.write("%d\n" % baudrate)


def sim_level(pin):
    """The level on the pin's net now (output or input)."""
    return sim_pin_state(sim_pin_id(pin)).level


def sim_mode(pin):
    return sim_pin_state(sim_pin_id(pin)).mode


def sim_pull(pin):
    return sim_pin_state(sim_pin_id(pin)).pull


def sim_watch(pin):
    """Report this pin's level changes to the observers (the simulator)."""
    sim_pin_state(sim_pin_id(pin)).watched = True


def sim_detach_i2c(addr, bus=None, scl=None, sda=None):
    if bus is not None:
        sim_bus_by_id.get(bus, {}).pop(addr, None)
    else:
        sim_bus_by_pins.get((sim_pin_id(scl), sim_pin_id(sda)), {}).pop(addr, None)


class SoftI2C(I2C):
    def __init__(self, scl, sda, *, freq=400000, timeout=50000):
        super().__init__(-1, scl=scl, sda=sda, freq=freq, timeout=timeout)

    def init(self, scl=None, sda=None, *, freq=400000, timeout=50000):
        if scl is not None:
            self._scl = sim_pin_id(scl)
        if sda is not None:
            self._sda = sim_pin_id(sda)
        self._freq = freq


class SimI2CMemory:
    """A simple register-file I2C device (for tests): a write sets the
    register pointer with its first byte, then stores bytes from there."""

    def __init__(self, size=256):
        self.mem = bytearray(size)
        self.ptr = 0
        self._first = True
        self.transactions = 0

    def i2c_start(self):
        self._first = True

    def i2c_write(self, mv):
        for b in mv:
            if self._first:
                self.ptr = b
                self._first = False
            else:
                self.mem[self.ptr % len(self.mem)] = b
                self.ptr += 1
        return len(mv)

    def i2c_read(self, buf):
        for i in range(len(buf)):
            buf[i] = self.mem[self.ptr % len(self.mem)]
            self.ptr += 1

    def i2c_stop(self):
        self.transactions += 1


def sim_pwm(pin):
    """(freq, duty_u16) of the pin's PWM, or None when none runs."""
    st = sim_pwm_state.get(sim_pin_id(pin))
    return None if st is None else (st[0], st[1])


def sim_pwm_history(pin):
    """The last 64 changes: (ticks_ms, freq, duty_u16); freq 0 when stopped."""
    return list(sim_pwm_changes.get(sim_pin_id(pin), ()))


def sim_wdt_started():
    return sim_wdt["timeout"] > 0


def sim_wdt_due():
    """True when a started watchdog has not been fed within its timeout,
    by the fakes' clock (sim_set_clock): the chip would reset now."""
    if not sim_wdt["timeout"]:
        return False
    return sim_device.ticks_diff(sim_device.ticks_ms(), sim_wdt["fed"]) >= sim_wdt["timeout"]


def sim_wdt_check():
    """Reset (as machine.reset() does, cause WDT_RESET) if the watchdog is due."""
    if sim_wdt_due():
        sim_reset("wdt")


def sim_set_reset_cause(cause):
    sim_cause[0] = cause


_wake = [0]


def wake_reason():
    """What woke the chip from deep sleep (machine.EXT0_WAKE, ...); 0 after any other start."""
    return _wake[0]


def sim_set_wake_reason(reason):
    _wake[0] = reason


def soft_reset():
    raise SystemExit()


_freq = [160000000]


def freq(hz=None):
    if hz is None:
        return _freq[0]
    if hz not in (20000000, 40000000, 80000000, 160000000, 240000000):
        raise ValueError("frequency must be 20MHz, 40MHz, 80Mhz, 160MHz or 240MHz")
    _freq[0] = hz


def unique_id():
    import os

    value = os.getenv("TILECLOCK_UNIQUE_ID")
    if value and len(value) == 12:
        return bytes(int(value[i:i + 2], 16) for i in range(0, 12, 2))
    return b"\x24\x0a\xc4\x5e\xc1\x0c"


def lightsleep(time_ms=None):
    pass


def sim_reset_all():
    """Forget every pin, bus, PWM, voltage and the watchdog (between tests)."""
    sim_pins.clear()
    _wake[0] = 0
    del sim_pin_list[:]
    del sim_links[:]
    del sim_irq_pending[:]
    sim_irq_disabled[0] = 0
    del sim_sched[:]
    sim_sched_state.update(busy=0, running=False, dropped=0, run=0)
    sim_rtc["memory"] = b""
    sim_bus_by_pins.clear()
    sim_bus_by_id.clear()
    sim_pwm_state.clear()
    sim_pwm_changes.clear()
    sim_voltage_mv.clear()
    sim_wdt["timeout"] = 0
    sim_wdt["fed"] = 0
    sim_cause[0] = None
    _freq[0] = 160000000
    sim_chip(sim_board_chip())
    sim_device.set_clock(None)
