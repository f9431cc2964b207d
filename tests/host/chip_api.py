"""API that MicroPython's ESP32 port lacks although stubs or the generic docs offer it.

The board stubs the static check uses (test_firmware_builds.py) are built from the
generic documentation as much as from the port: at v1.26.0 they still accept
`Pin.irq(hard=True, priority=...)`, `Pin.mode()`, `Pin.PULL_HOLD`, `irq().flags()`.
And mypy sees nothing where the firmware passes a pin around untyped (a Button's
`self.pin`).  So this deny-list is checked on the syntax tree, whatever the receiver.
Every entry names the place in the port's source (tag v1.26.0, the oldest version
`clockctl flash` accepts: host_tools/targets.py) that shows the API is not there.

    problems(path) -> ["file:line: what (where in the port)", ...]
"""

from __future__ import annotations

import ast
from pathlib import Path

PORT = "micropython v1.26.0 "

# Pin.irq(handler=None, trigger=IRQ_FALLING|IRQ_RISING, wake=None): nothing else.
IRQ_KEYWORDS = {"handler", "trigger", "wake"}
IRQ_WHERE = PORT + "ports/esp32/machine_pin.c:299-306 (machine_pin_irq allowed_args)"

# Pin(id, mode, pull, *, value, drive, hold): no `alt`.
PIN_KEYWORDS = {"mode", "pull", "value", "drive", "hold"}
PIN_WHERE = PORT + "ports/esp32/machine_pin.c:136-144 (machine_pin_obj_init_helper allowed_args)"

# Methods called on any object: none of these exists on the chip's objects, and the
# firmware defines none of them itself.
METHODS = {
    "mode": PORT + "ports/esp32/machine_pin.c:378-385: Pin has init, value, off, on, toggle, "
                   "irq; no mode()",
    "pull": PORT + "ports/esp32/machine_pin.c:378-385: Pin has no pull()",
    "drive": PORT + "ports/esp32/machine_pin.c:378-385: Pin has no drive() (only the "
                    "drive= keyword of init)",
    "flags": PORT + "ports/esp32/machine_pin.c:463-466: the IRQ object has trigger() and "
                    "call, no flags()",
    "erase": PORT + "ports/esp32/esp32_partition.c:300-316: Partition has find, info, "
                    "readblocks, writeblocks, ioctl, set_boot, mark_app_valid_cancel_rollback, "
                    "get_next_update; erase a block with ioctl(6, block)",
}

# Attributes read anywhere (constants and module functions).
ATTRIBUTES = {
    "PULL_HOLD": PORT + "ports/esp32/machine_pin.c:390-403: Pin constants IN, OUT, OPEN_DRAIN, "
                        "PULL_UP, PULL_DOWN, IRQ_RISING, IRQ_FALLING, WAKE_LOW, WAKE_HIGH, "
                        "DRIVE_0..3",
    "ALT": PORT + "ports/esp32/machine_pin.c:390-403: no Pin.ALT",
    "ALT_OPEN_DRAIN": PORT + "ports/esp32/machine_pin.c:390-403: no Pin.ALT_OPEN_DRAIN",
    "ANALOG": PORT + "ports/esp32/machine_pin.c:390-403: no Pin.ANALOG",
    "IRQ_LOW_LEVEL": PORT + "ports/esp32/machine_pin.c:396-399: level triggers are WAKE_LOW / "
                            "WAKE_HIGH, for wake only",
    "IRQ_HIGH_LEVEL": PORT + "ports/esp32/machine_pin.c:396-399: no Pin.IRQ_HIGH_LEVEL",
    # The firmware runs on both targets; each chip has only one of these.
    "raw_temperature": PORT + "ports/esp32/modesp32.c:290-294: ESP32 only (the S3 reference "
                              "has mcu_temperature)",
    "mcu_temperature": PORT + "ports/esp32/modesp32.c:290-294: not on the plain ESP32 (WROOM)",
}


def _name(node):
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _defined_names(tree):
    return {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def problems(path: Path, display: str | None = None) -> list[str]:
    """What in one source file names an API the ESP32 port lacks."""
    source = Path(path).read_text()
    tree = ast.parse(source, str(path))
    own = _defined_names(tree)
    where = display or str(path)
    found = []

    def say(node, text, port):
        found.append("%s:%d: %s (%s)" % (where, node.lineno, text, port))

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called = _name(node.func)
            if isinstance(node.func, ast.Attribute) and called == "irq":
                for kw in node.keywords:
                    if kw.arg not in IRQ_KEYWORDS:
                        say(node, "irq(%s=...): the port's Pin.irq takes only handler, trigger, "
                            "wake" % kw.arg, IRQ_WHERE)
                if len(node.args) > 3:
                    say(node, "irq() with %d positional arguments" % len(node.args), IRQ_WHERE)
            if called == "Pin":
                for kw in node.keywords:
                    if kw.arg is not None and kw.arg not in PIN_KEYWORDS:
                        say(node, "Pin(%s=...)" % kw.arg, PIN_WHERE)
            if (isinstance(node.func, ast.Attribute) and called in METHODS
                    and called not in own):
                say(node, ".%s()" % called, METHODS[called])
        elif isinstance(node, ast.Attribute) and node.attr in ATTRIBUTES:
            say(node, ".%s" % node.attr, ATTRIBUTES[node.attr])
    return sorted(set(found), key=lambda line: int(line.split(":")[1]))


def problems_in(paths, root: Path) -> list[str]:
    out = []
    for path in paths:
        out += problems(path, str(Path(path).relative_to(root)))
    return out


# What the port has, per object, for the check that the fakes offer nothing more
# (host_tools/fakes/ may add only names starting with `sim_` / `Sim`).
_PIN_CONSTANTS = {"IN", "OUT", "OPEN_DRAIN", "PULL_UP", "PULL_DOWN", "IRQ_RISING", "IRQ_FALLING",
                  "WAKE_LOW", "WAKE_HIGH", "DRIVE_0", "DRIVE_1", "DRIVE_2", "DRIVE_3"}
_I2C = {"init", "scan", "start", "stop", "readinto", "write", "readfrom", "readfrom_into",
        "writeto", "writevto", "readfrom_mem", "readfrom_mem_into", "writeto_mem"}
PORT_API = {
    # ports/esp32/machine_pin.c:378-404
    "machine.Pin": {"init", "value", "off", "on", "toggle", "irq", "board"} | _PIN_CONSTANTS,
    # ports/esp32/machine_pin.c:463-466 (plus call)
    "machine.Pin.irq()": {"trigger"},
    # extmod/machine_i2c.c:634-653
    "machine.I2C": _I2C,
    "machine.SoftI2C": _I2C,
    # extmod/machine_pwm.c:128-136 with MICROPY_PY_MACHINE_PWM_DUTY (mpconfigport.h:138)
    "machine.PWM": {"init", "deinit", "freq", "duty", "duty_u16", "duty_ns"},
    # extmod/machine_adc.c:143-166 with ports/esp32/mpconfigport.h:124-131, machine_adc.c:38-65
    "machine.ADC": {"init", "deinit", "block", "read_u16", "read_uv", "atten", "width", "read",
                    "ATTN_0DB", "ATTN_2_5DB", "ATTN_6DB", "ATTN_11DB", "WIDTH_9BIT",
                    "WIDTH_10BIT", "WIDTH_11BIT", "WIDTH_12BIT"},
    # extmod/machine_wdt.c:79-83 (MICROPY_PY_MACHINE_WDT_TIMEOUT_MS is off on the ESP32)
    "machine.WDT": {"feed"},
    # extmod/machine_signal.c:161-165
    "machine.Signal": {"value", "on", "off"},
    # extmod/machine_uart.c and ports/esp32/machine_uart.c:100-111
    "machine.UART": {"init", "deinit", "any", "read", "readline", "readinto", "write",
                     "sendbreak", "flush", "txdone", "irq", "INV_TX", "INV_RX", "INV_RTS",
                     "INV_CTS", "RTS", "CTS", "IRQ_RX", "IRQ_RXIDLE", "IRQ_BREAK"},
    # ports/esp32/machine_rtc.c:178-184
    "machine.RTC": {"init", "datetime", "memory"},
    # ports/esp32/esp32_nvs.c:134-141
    "esp32.NVS": {"get_i32", "set_i32", "get_blob", "set_blob", "erase_key", "commit"},
    # ports/esp32/esp32_partition.c:300-316
    "esp32.Partition": {"find", "info", "readblocks", "writeblocks", "ioctl", "set_boot",
                        "mark_app_valid_cancel_rollback", "get_next_update", "BOOT", "RUNNING",
                        "TYPE_APP", "TYPE_DATA"},
    # extmod/modmachine.c:143-230 and ports/esp32/modmachine.c:54-82
    "machine": {"mem8", "mem16", "mem32", "unique_id", "soft_reset", "bootloader", "reset",
                "reset_cause", "idle", "freq", "lightsleep", "deepsleep", "disable_irq",
                "enable_irq", "bitstream", "dht_readinto", "time_pulse_us", "Signal", "SoftI2C",
                "SoftSPI", "ADC", "ADCBlock", "DAC", "I2C", "I2CTarget", "I2S", "PWM", "SPI",
                "UART", "WDT", "Counter", "Encoder", "sleep", "Timer", "Pin", "RTC", "SDCard",
                "TouchPad", "SLEEP", "DEEPSLEEP", "HARD_RESET", "PWRON_RESET", "WDT_RESET",
                "DEEPSLEEP_RESET", "SOFT_RESET", "wake_reason", "PIN_WAKE", "EXT0_WAKE",
                "EXT1_WAKE", "TIMER_WAKE", "TOUCHPAD_WAKE", "ULP_WAKE"},
    # ports/esp32/modesp32.c:272-317 (raw_temperature: ESP32; mcu_temperature: S3)
    "esp32": {"wake_on_touch", "wake_on_ext0", "wake_on_ext1", "wake_on_ulp",
              "gpio_deep_sleep_hold", "raw_temperature", "mcu_temperature", "idf_heap_info",
              "idf_task_info", "NVS", "Partition", "PCNT", "RMT", "ULP", "WAKEUP_ALL_LOW",
              "WAKEUP_ANY_HIGH", "HEAP_DATA", "HEAP_EXEC"},
}

# ports/esp32/machine_rtc.c:59-61 and 165-176: RTC().memory() holds at most 2048 bytes.
RTC_MEMORY_MAX = 2048
# ports/esp32/mpconfigport.h:72: the soft-IRQ (scheduler) queue holds 8 callbacks.
SCHEDULER_DEPTH = 8


def extra_names(kind: str, obj) -> set[str]:
    """Public names of a fake that the port's `kind` lacks (sim_*/Sim* back doors aside)."""
    import types

    names = set()
    for name in dir(obj):
        if name.startswith("_") or name.startswith("sim_") or name.startswith("Sim"):
            continue
        if isinstance(getattr(obj, name, None), types.ModuleType):
            continue
        names.add(name)
    return names - PORT_API[kind]
