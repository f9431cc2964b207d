# Where the simulated device keeps its files, and the little runtime
# glue the fakes share (clock, observers).  Runs under MicroPython (unix
# port) and CPython.

import os

try:
    from time import ticks_ms as _ticks_ms
except ImportError:  # CPython
    import time as _time

    def _ticks_ms():
        return int(_time.monotonic() * 1000) & 0x3FFFFFFF

TICKS_MAX = (1 << 30) - 1
_HALF = 1 << 29

_state = {"dir": None, "clock": None}


def device_dir():
    """The simulated device's folder: TILECLOCK_DEVICE_DIR, else the cwd."""
    path = _state["dir"]
    if path is None:
        path = os.getenv("TILECLOCK_DEVICE_DIR") or os.getcwd()
    return path


def set_device_dir(path):
    _state["dir"] = path


def path_in_device(name):
    base = device_dir()
    if base.endswith("/"):
        return base + name
    return base + "/" + name


def file_exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


class _SystemTicks:
    def ticks_ms(self):
        return _ticks_ms() & TICKS_MAX


_SYSTEM = _SystemTicks()


def clock():
    c = _state["clock"]
    return _SYSTEM if c is None else c


def set_clock(c):
    """An object with ticks_ms() (e.g. timebase.ManualClock); None: real time."""
    _state["clock"] = c


def ticks_ms():
    return clock().ticks_ms() & TICKS_MAX


def ticks_diff(end, start):
    return ((end - start + _HALF) & TICKS_MAX) - _HALF


def sim_mode():
    """True inside the simulator (a real reset must end the process)."""
    return bool(os.getenv("TILECLOCK_SIM"))


RESET_MARKER = ".sim-reset"
_observers = []


def add_observer(func):
    """func(kind, a, b, c) is called on outputs the host wants to see:
    ("pin", id, level, 0), ("pwm", id, freq, duty_u16), ("reset", cause, 0, 0)."""
    _observers.append(func)


def clear_observers():
    del _observers[:]


def notify(kind, a, b=0, c=0):
    for func in _observers:
        func(kind, a, b, c)


def end_process(cause):
    """End the simulated chip's process at once, as a chip reset would: no
    finally clauses, no flushing.  Leaves the cause in the device folder
    (.sim-reset) and on stderr so that the simulator restarts it."""
    import sys

    try:
        with open(path_in_device(RESET_MARKER), "w") as f:
            f.write(cause)
    except OSError:
        pass
    try:
        notify("reset", cause)
    except Exception:
        pass
    try:
        sys.stderr.write("@@tileclock-reset " + cause + "\n")
    except Exception:
        pass
    if hasattr(os, "_exit"):  # CPython
        os._exit(75)
    # The unix port has no os._exit and a thread cannot end the process by
    # raising: the shell started by system() kills its parent, us.
    os.system("kill -9 $PPID")
    while True:  # the signal is on its way
        pass
