# CPython stand-in for MicroPython's built-in `micropython` module: what the firmware
# uses of it.  Under MicroPython the built-in module is found first and this file is
# never read.  const(): the compiler folds a module's `_NAME = const(value)` into its
# uses and keeps the name out of the module (docs/runtime.md, Memory); here it is
# just the value.  kbd_intr(): CPython reads no interrupt character from the firmware's
# stdin, so there is nothing to turn off.


def const(value):
    return value


def kbd_intr(chr):
    pass
