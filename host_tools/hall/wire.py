"""The firmware's pure modules the hall uses as they are: the messages and their
signing (hall/message.py, hall/sign.py) and the clock's own display rule for a time
(clock/display.py's write_time), so that the page shows a time as the players see it.

They import each other by their device names (`hall.sign`) and display.py imports
MicroPython's `micropython` module for const(): both are provided while they load, and
only then (host_tools/fakes/micropython.py is the stand-in the simulator uses too).
"""

from __future__ import annotations

import sys
from functools import lru_cache

from host_tools import resources


def _with_names(names: dict, load):
    saved = {name: sys.modules.get(name) for name in names}
    sys.modules.update(names)
    try:
        return load()
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


@lru_cache(maxsize=None)
def sign():
    return resources.firmware_module("hall/sign.py")


@lru_cache(maxsize=None)
def message():
    signing = sign()
    package = type(sys)("hall")
    package.sign = signing
    return _with_names({"hall": package, "hall.sign": signing},
                       lambda: resources.firmware_module("hall/message.py"))


@lru_cache(maxsize=None)
def display():
    try:
        import micropython  # noqa: F401  (a real one: nothing to stand in for)
        names = {}
    except ImportError:
        from host_tools.fakes import micropython as stand_in
        names = {"micropython": stand_in}
    return _with_names(names, lambda: resources.firmware_module("clock/display.py"))


def time_text(ms: int) -> str:
    """A clock's time as its panel shows it: " mm:ss" left, "-mm:ss" in overtime
    (clock/display.py: seconds rounded up, 99:59 at most)."""
    buf = bytearray(6)
    display().write_time(buf, -ms if ms < 0 else ms, ms < 0)
    return buf.decode()
