"""The pin map: loading, checking against the ESP32's constraints, and rendering hwconfig.py.

`hardware/pinmap.csv` is the single source of every pin and bus constant of the board.
One row per signal (a GPIO) or per constant (kind `const`, value in the `value` column as a
Python literal). Columns:

    signal      unique name of the signal (used in PINS, the netlist and the docs)
    gpio        GPIO number (empty for constants)
    kind        button | keypad_row | keypad_col | i2c_scl | i2c_sda | pwm | led | adc | const
    hwconfig    the name in firmware/hwconfig.py; NAME[i] places the GPIO in a tuple
    pull        internal (firmware enables the pull-up) | external (resistor on the board) |
                both (resistor on the board and the firmware's pull-up as well) | none
    boot_level  level the circuit holds the pin at during reset: float | high | low
    value       constants only: a Python literal (int, float, bool, tuple of str)
    connects    space-separated REF.PIN endpoints of the net besides the ESP32 pin
    notes       free text

Standard library only: the generators and the tests use it.
"""

import ast
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.join(os.path.dirname(HERE), "firmware")

# One pin map per target of host_tools/targets.py: the CSV here, the hwconfig file it
# becomes in firmware/ (the image for that target carries it as `hwconfig`).
PINMAPS = {
    "s3": (os.path.join(HERE, "pinmap.csv"), os.path.join(FIRMWARE, "hwconfig.py")),
    "wroom": (os.path.join(HERE, "pinmap_wroom.csv"), os.path.join(FIRMWARE, "hwconfig_wroom.py")),
}
REFERENCE = "s3"
PINMAP_CSV, HWCONFIG_PY = PINMAPS[REFERENCE]

COLUMNS = ("signal", "gpio", "kind", "hwconfig", "pull", "boot_level", "value", "connects", "notes")

# What each chip allows, from Espressif's datasheets (ESP32 v4.x section 2.2-2.4 and
# errata 3.11; ESP32-S3 v1.x section 2.3 "Pin Overview", 2.4 strapping pins, 2.3.3 RTC
# and analog functions) and the module datasheets (ESP32-WROOM-32E; ESP32-S3-WROOM-1:
# GPIO26-32 to the flash and quad PSRAM, GPIO33-37 also to octal PSRAM on -N8R8/-N16R8).
# reserved: GPIO -> why it must stay free.  strap_levels: strapping pins the circuit may
# hold during reset, with the harmless levels.  wake_all_buttons: the chip can wake from
# deep sleep on any one of several low inputs (ESP32-S3 ext1 "any low"; the ESP32's ext1
# has only "all low" / "any high", so there only the pause button (ext0) can wake it).
CHIPS = {
    "esp32": {
        "name": "ESP32 (ESP32-WROOM-32E)",
        "gpios": frozenset(list(range(0, 20)) + [21, 22, 23, 25, 26, 27] + list(range(32, 40))),
        "reserved": dict([(g, "taken by the module's SPI flash (GPIO6-11)") for g in range(6, 12)]
                         + [(1, "UART0, the USB serial host link: keep it free"),
                            (3, "UART0, the USB serial host link: keep it free"),
                            (0, "a strapping pin that must stay free (0: boot mode, 12: flash voltage)"),
                            (12, "a strapping pin that must stay free (0: boot mode, 12: flash voltage)")]),
        "strap_levels": {2: ("float", "low"), 5: ("float", "high"), 15: ("float", "high")},
        "input_only": frozenset(range(34, 40)),
        "adc1": frozenset(range(32, 40)),
        "adc1_text": "GPIO32-39",
        "glitch": frozenset((36, 39)),
        "rtc": frozenset((0, 2, 4, 12, 13, 14, 15, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39)),
        "wake_all_buttons": False,
        "i2c_controllers": 2,
    },
    "esp32s3": {
        "name": "ESP32-S3 (ESP32-S3-WROOM-1 N8R2 / N16R8)",
        "gpios": frozenset(list(range(0, 22)) + list(range(26, 49))),
        "reserved": dict([(g, "taken by the module's SPI flash and PSRAM (GPIO26-32)") for g in range(26, 33)]
                         + [(g, "taken by the octal PSRAM of N8R8/N16R8 modules (GPIO33-37): keep it free"
                                " so that one pin map fits quad and octal modules") for g in range(33, 38)]
                         + [(19, "USB D- (native USB, the host link): keep it free"),
                            (20, "USB D+ (native USB, the host link): keep it free"),
                            (43, "UART0 TX (the DevKitC-1's UART port and the boot log): keep it free"),
                            (44, "UART0 RX (the DevKitC-1's UART port and the boot log): keep it free"),
                            (38, "the RGB LED of the ESP32-S3-DevKitC-1 v1.1: keep it free"),
                            (48, "the RGB LED of the ESP32-S3-DevKitC-1 v1.0: keep it free")]
                         + [(g, "a strapping pin that must stay free (0: boot mode, 3: JTAG source,"
                                " 45: flash voltage, 46: boot mode and ROM log)") for g in (0, 3, 45, 46)]),
        "strap_levels": {},
        "input_only": frozenset(),
        "adc1": frozenset(range(1, 11)),
        "adc1_text": "GPIO1-10",
        "glitch": frozenset(),
        "rtc": frozenset(range(0, 22)),
        "wake_all_buttons": True,
        "i2c_controllers": 2,
    },
}

KINDS_IN = ("button", "keypad_col", "adc")
KINDS_OUT = ("keypad_row", "pwm", "led", "i2c_scl", "i2c_sda")
KINDS = KINDS_IN + KINDS_OUT + ("const",)
PULLS = ("internal", "external", "both", "none")


def board_pull(r):
    """True if the row has a pull-up resistor on the board."""
    return r["pull"] in ("external", "both")


def firmware_pull(r):
    """True if the firmware enables the pin's internal pull-up."""
    return r["pull"] in ("internal", "both")
BOOT_LEVELS = ("float", "high", "low")

# Everything the firmware imports from hwconfig (the interface agreed with the firmware).
REQUIRED_NAMES = (
    "CHIP",
    "PIN_BUTTON_LEFT", "PIN_BUTTON_RIGHT", "PIN_BUTTON_PAUSE", "PIN_BUTTON_CHALLENGE",
    "BUTTON_ACTIVE_LEVEL", "BUTTON_PULL_UP", "WAKE_PINS",
    "KEYPAD_ROWS", "KEYPAD_COLS", "KEYPAD_LAYOUT",
    "I2C_PLAYERS_ID", "I2C_PLAYERS_SCL", "I2C_PLAYERS_SDA", "I2C_PLAYERS_FREQ",
    "ADDR_DISPLAY_LEFT", "ADDR_DISPLAY_RIGHT",
    "I2C_TERMINAL_ID", "I2C_TERMINAL_SCL", "I2C_TERMINAL_SDA", "I2C_TERMINAL_FREQ",
    "ADDR_DISPLAY_TERMINAL", "DISPLAY_WIDTH", "DISPLAY_HEIGHT",
    "PIN_BUZZER", "BUZZER_FREQ", "PIN_LED_LEFT", "PIN_LED_RIGHT", "PIN_LED_STATUS",
    "PIN_BATTERY_ADC", "BATTERY_DIVIDER", "BATTERY_LOW_MV", "BATTERY_EMPTY_MV",
    "PINS", "PULL_UP_PINS",
)
# Names the generator derives from the signal rows (not allowed as const rows).
DERIVED_NAMES = ("BUTTON_PULL_UP", "WAKE_PINS", "PINS", "PULL_UP_PINS")

# Highest pin voltage the ADC reads linearly at 11 dB attenuation, and a full cell.
ADC_MAX_MV = 2450
CELL_FULL_MV = 4200


class PinmapError(Exception):
    pass


def load(path=PINMAP_CSV):
    """The rows of a pin map: a path, or a target name of PINMAPS."""
    path = PINMAPS[path][0] if path in PINMAPS else path
    with open(path, newline="", encoding="utf-8") as f:
        return parse(f.read())


def parse(text):
    """CSV text to a list of row dicts; raises PinmapError on a malformed file."""
    reader = csv.DictReader(text.splitlines())
    if tuple(reader.fieldnames or ()) != COLUMNS:
        raise PinmapError("columns must be %s, got %s" % (",".join(COLUMNS), reader.fieldnames))
    rows = []
    for n, raw in enumerate(reader, start=2):
        row = {k: (raw.get(k) or "").strip() for k in COLUMNS}
        row["line"] = n
        if row["gpio"]:
            try:
                row["gpio"] = int(row["gpio"])
            except ValueError:
                raise PinmapError("line %d: gpio %r is not an integer" % (n, row["gpio"]))
        else:
            row["gpio"] = None
        row["connects"] = row["connects"].split()
        rows.append(row)
    return rows


def signals(rows):
    return [r for r in rows if r["kind"] != "const"]


def constants(rows):
    return [r for r in rows if r["kind"] == "const"]


def const_value(rows, name):
    for r in constants(rows):
        if r["hwconfig"] == name:
            return ast.literal_eval(r["value"])
    raise KeyError(name)


def _split_target(target):
    """'KEYPAD_ROWS[2]' -> ('KEYPAD_ROWS', 2); 'PIN_BUZZER' -> ('PIN_BUZZER', None)."""
    if target.endswith("]") and "[" in target:
        name, idx = target[:-1].split("[", 1)
        return name, int(idx)
    return target, None


def chip_of(rows):
    """The chip a pin map is for (its CHIP constant), or None if it names none we know."""
    for r in constants(rows):
        if r["hwconfig"] == "CHIP":
            try:
                chip = ast.literal_eval(r["value"])
            except (ValueError, SyntaxError):
                return None
            return chip if chip in CHIPS else None
    return None


def check(rows):
    """Every violation of the chip's constraints and of the board's own rules, as text.

    An empty list means the pin map is good.
    """
    errors = []

    def err(row, msg):
        errors.append("line %d (%s): %s" % (row["line"], row["signal"] or "?", msg))

    chip_name = chip_of(rows)
    if chip_name is None:
        errors.append("CHIP must be a const row naming one of %s" % ", ".join(sorted(CHIPS)))
        return errors
    chip = CHIPS[chip_name]
    seen_signal = {}
    seen_gpio = {}
    seen_target = {}
    for r in rows:
        if not r["signal"]:
            err(r, "no signal name")
        elif r["signal"] in seen_signal:
            err(r, "signal name also on line %d" % seen_signal[r["signal"]])
        else:
            seen_signal[r["signal"]] = r["line"]
        if r["kind"] not in KINDS:
            err(r, "unknown kind %r" % r["kind"])
            continue
        try:
            target = _split_target(r["hwconfig"])
        except ValueError:
            err(r, "bad hwconfig name %r" % r["hwconfig"])
            continue
        if not target[0].isidentifier() or target[0] != target[0].upper():
            err(r, "hwconfig name %r is not an UPPER_CASE identifier" % r["hwconfig"])
        if target in seen_target:
            err(r, "hwconfig name %s also on line %d" % (r["hwconfig"], seen_target[target]))
        seen_target[target] = r["line"]
        if target[0] in DERIVED_NAMES:
            err(r, "%s is derived from the signal rows; do not set it" % target[0])

        if r["kind"] == "const":
            if r["gpio"] is not None:
                err(r, "a constant has no gpio")
            try:
                ast.literal_eval(r["value"])
            except (ValueError, SyntaxError):
                err(r, "value %r is not a Python literal" % r["value"])
            continue

        g = r["gpio"]
        if g is None:
            err(r, "no gpio")
            continue
        if r["value"]:
            err(r, "only constants have a value")
        if not r["connects"]:
            err(r, "connects names no part: the pin would go nowhere")
        if g in seen_gpio:
            err(r, "GPIO%d already used on line %d (a shared bus is one row with several"
                   " connects)" % (g, seen_gpio[g]))
        seen_gpio[g] = r["line"]
        if g not in chip["gpios"]:
            err(r, "GPIO%d does not exist on the %s" % (g, chip["name"]))
            continue
        if g in chip["reserved"]:
            err(r, "GPIO%d is %s" % (g, chip["reserved"][g]))
        if r["pull"] not in PULLS:
            err(r, "pull must be one of %s" % ", ".join(PULLS))
        if r["boot_level"] not in BOOT_LEVELS:
            err(r, "boot_level must be one of %s" % ", ".join(BOOT_LEVELS))
        elif g in chip["strap_levels"] and r["boot_level"] not in chip["strap_levels"][g]:
            err(r, "GPIO%d is a strapping pin: the circuit must hold it %s during reset,"
                   " not %s" % (g, " or ".join(chip["strap_levels"][g]), r["boot_level"]))
        if g in chip["input_only"]:
            if r["kind"] in KINDS_OUT:
                err(r, "GPIO%d is input only; a %s needs an output" % (g, r["kind"]))
            if firmware_pull(r):
                err(r, "GPIO%d has no internal pull-up (GPIO34-39): fit an external one" % g)
        if r["kind"] in ("button", "keypad_col") and r["pull"] == "none":
            err(r, "an input read against GND needs a pull-up (internal or external)")
        if r["kind"] == "keypad_row" and r["pull"] != "none":
            err(r, "keypad rows are open-drain outputs: the columns carry the pull-ups")
        if r["kind"] in ("i2c_scl", "i2c_sda") and r["pull"] != "external":
            err(r, "I2C needs external pull-ups (the internal ~45k are too weak for 400 kHz)")
        if r["kind"] == "adc" and g not in chip["adc1"]:
            err(r, "GPIO%d is not on ADC1 (%s); ADC2 is unusable while Wi-Fi runs"
                % (g, chip["adc1_text"]))
        if r["kind"] == "button" and g in chip["glitch"]:
            err(r, "GPIO%d glitches low when the ADC or radio powers up (errata 3.11):"
                   " not for an interrupt-driven button" % g)
        if r["kind"] == "button" and g not in chip["rtc"]:
            if chip["wake_all_buttons"] or r["hwconfig"] == "PIN_BUTTON_PAUSE":
                err(r, "GPIO%d is not an RTC GPIO: this button could not wake the chip from"
                       " deep sleep" % g)

    errors.extend(_check_interface(rows))
    return errors


def _check_interface(rows):
    """The names the firmware needs, and the consistency of the constants."""
    errors = []
    try:
        names = build_names(rows)
    except (PinmapError, ValueError, SyntaxError, KeyError) as e:
        return ["cannot build hwconfig: %s" % e]
    for name in REQUIRED_NAMES:
        if name not in names:
            errors.append("hwconfig lacks %s" % name)
    if errors:
        return errors
    for name in ("KEYPAD_ROWS", "KEYPAD_COLS"):
        if len(names[name]) != 4:
            errors.append("%s must have 4 pins" % name)
    layout = names["KEYPAD_LAYOUT"]
    if (not isinstance(layout, tuple) or len(layout) != len(names["KEYPAD_ROWS"])
            or any(not isinstance(s, str) or len(s) != len(names["KEYPAD_COLS"]) for s in layout)):
        errors.append("KEYPAD_LAYOUT must be one string per row with one character per column")
    if names["BUTTON_ACTIVE_LEVEL"] not in (0, 1):
        errors.append("BUTTON_ACTIVE_LEVEL must be 0 or 1")
    if names["BUTTON_ACTIVE_LEVEL"] == 1 and names["BUTTON_PULL_UP"]:
        errors.append("active-high buttons cannot use pull-ups")
    for bus in ("PLAYERS", "TERMINAL"):
        if names["I2C_%s_ID" % bus] not in (0, 1):
            errors.append("I2C_%s_ID must be 0 or 1 (the chip has two I2C controllers)" % bus)
        if not 10000 <= names["I2C_%s_FREQ" % bus] <= 400000:
            errors.append("I2C_%s_FREQ must be 10 kHz to 400 kHz (SSD1309)" % bus)
    if names["I2C_PLAYERS_ID"] == names["I2C_TERMINAL_ID"]:
        errors.append("the two I2C buses need different controllers")
    if names["ADDR_DISPLAY_LEFT"] == names["ADDR_DISPLAY_RIGHT"]:
        errors.append("the players' displays share a bus: they need different addresses")
    for name in ("ADDR_DISPLAY_LEFT", "ADDR_DISPLAY_RIGHT", "ADDR_DISPLAY_TERMINAL"):
        if names[name] not in (0x3C, 0x3D):
            errors.append("%s must be 0x3C or 0x3D (SSD1309 D/C strap)" % name)
    if not names["BATTERY_EMPTY_MV"] < names["BATTERY_LOW_MV"] < CELL_FULL_MV:
        errors.append("need BATTERY_EMPTY_MV < BATTERY_LOW_MV < %d" % CELL_FULL_MV)
    if not isinstance(names["BATTERY_DIVIDER"], float) or names["BATTERY_DIVIDER"] < 1.0:
        errors.append("BATTERY_DIVIDER must be a float >= 1.0")
    elif CELL_FULL_MV / names["BATTERY_DIVIDER"] > ADC_MAX_MV:
        errors.append("a full cell gives %d mV at the ADC pin, above the %d mV it reads"
                      % (CELL_FULL_MV / names["BATTERY_DIVIDER"], ADC_MAX_MV))
    return errors


def build_names(rows):
    """Ordered dict of hwconfig name -> value (GPIO tuples assembled, derived names added)."""
    names = {}
    tuples = {}
    for r in rows:
        name, idx = _split_target(r["hwconfig"])
        if r["kind"] == "const":
            names[name] = ast.literal_eval(r["value"])
        elif idx is None:
            names[name] = r["gpio"]
        else:
            if name not in names:
                names[name] = None
            tuples.setdefault(name, {})[idx] = r["gpio"]
    for name, items in tuples.items():
        if sorted(items) != list(range(len(items))):
            raise PinmapError("%s has indexes %s, not 0..%d" % (name, sorted(items), len(items) - 1))
        names[name] = tuple(items[i] for i in range(len(items)))
    buttons = [r for r in rows if r["kind"] == "button"]
    pulls = set(r["pull"] for r in buttons)
    if len(pulls) > 1:
        raise PinmapError("buttons mix pull kinds %s: BUTTON_PULL_UP would be wrong" % sorted(pulls))
    names["BUTTON_PULL_UP"] = bool(buttons) and all(firmware_pull(r) for r in buttons)
    # Buttons that can wake the chip from deep sleep, pause first: the firmware wakes on the
    # first only (ext0, hal_power.py); on the ESP32-S3 the others could (ext1 "any low"), on
    # the ESP32 only pause can.
    chip = CHIPS.get(names.get("CHIP"))
    wake = []
    if chip is not None:
        for r in sorted(buttons, key=lambda r: r["hwconfig"] != "PIN_BUTTON_PAUSE"):
            if r["gpio"] in chip["rtc"] and (chip["wake_all_buttons"] or r["hwconfig"] == "PIN_BUTTON_PAUSE"):
                wake.append(r["gpio"])
    names["WAKE_PINS"] = tuple(wake)
    names["PINS"] = dict((r["signal"], r["gpio"]) for r in signals(rows))
    names["PULL_UP_PINS"] = dict(
        (r["gpio"], firmware_pull(r)) for r in signals(rows) if r["kind"] in KINDS_IN)
    return names


def _literal(rows, name, value):
    for r in constants(rows):
        if r["hwconfig"] == name:
            return r["value"]   # as written (keeps 0x3C in hex)
    return repr(value)


TITLES = {
    "s3": "the tileclock reference board (ESP32-S3-DevKitC-1, ESP32-S3-WROOM-1 N8R2 / N16R8)",
    "wroom": "the tileclock WROOM board (ESP32-DevKitC V4, ESP32-WROOM-32E), the documented alternative",
}


def render_hwconfig(rows, target=REFERENCE):
    """The text of the target's hwconfig file. Raises PinmapError if the pin map is not valid."""
    problems = check(rows)
    if problems:
        raise PinmapError("pin map has problems:\n  " + "\n  ".join(problems))
    names = build_names(rows)
    notes = dict((_split_target(r["hwconfig"])[0], r["notes"]) for r in rows)
    csv_name = os.path.basename(PINMAPS[target][0])
    out = [
        '"""Pins and buses of %s.' % TITLES[target],
        "",
        "GENERATED by hardware/gen_hwconfig.py from hardware/%s: edit the CSV and run" % csv_name,
        "`python hardware/gen_hwconfig.py`; do not edit this file by hand.",
        '"""',
        "",
    ]
    for name, value in names.items():
        if name in ("PINS", "PULL_UP_PINS"):
            continue
        if isinstance(value, tuple) and all(isinstance(v, int) for v in value):
            text = "(" + ", ".join(str(v) for v in value) + ("," if len(value) == 1 else "") + ")"
        else:
            text = _literal(rows, name, value)
        note = notes.get(name, "")
        if name == "BUTTON_PULL_UP":
            note = "firmware enables the internal pull-up on the buttons"
        if name == "WAKE_PINS":
            note = "buttons on RTC GPIOs that can wake the chip, pause first (the firmware wakes on pause)"
        if isinstance(value, tuple) and name.startswith("KEYPAD_") and name != "KEYPAD_LAYOUT":
            note = ", ".join("%s GPIO%d" % (r["signal"], r["gpio"]) for r in rows
                             if _split_target(r["hwconfig"])[0] == name)
        out.append("%s = %s%s" % (name, text, ("  # " + note) if note else ""))
    out.append("")
    out.append("# Every signal by name (self-test, docs).")
    out.append("PINS = {")
    for sig, gpio in names["PINS"].items():
        out.append("    %r: %d," % (sig, gpio))
    out.append("}")
    out.append("")
    out.append("# Input GPIO -> True if the firmware must enable the internal pull-up")
    out.append("# (False: external resistor on the board, or no pull at all).")
    out.append("PULL_UP_PINS = {")
    for gpio, pull in names["PULL_UP_PINS"].items():
        out.append("    %d: %s," % (gpio, pull))
    out.append("}")
    out.append("")
    return "\n".join(out)
