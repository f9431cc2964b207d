"""The boards as parts and nets, built from the pin maps (standard library only).

The GPIO nets come from the pin map (each row: the ESP32 pin, the `connects` endpoints and,
for `pull = external`, a pull-up resistor to +3V3). Everything else (power path, series
resistors, the displays' straps, the battery divider) is fixed here. The netlist, the Wokwi
diagram, the wiring picture and the README's wiring table are all rendered from `nets()`.
"""

import pinmap

# The development boards, header by header, seen from the top with the USB at the bottom.
# Symbol pin number = header position (J1 first, then J3).  Wokwi's pin names for the
# same positions follow.
BOARDS = {
    "s3": {
        "name": "ESP32-S3-DevKitC-1",
        "module": "ESP32-S3-WROOM-1 N8R2 / N16R8",
        "value": "ESP32-S3-DevKitC-1",
        "J1": ("3V3", "3V3", "RST", "IO4", "IO5", "IO6", "IO7", "IO15", "IO16", "IO17", "IO18",
               "IO8", "IO3", "IO46", "IO9", "IO10", "IO11", "IO12", "IO13", "IO14", "5V", "GND"),
        "J3": ("GND", "TX", "RX", "IO1", "IO2", "IO42", "IO41", "IO40", "IO39", "IO38", "IO37",
               "IO36", "IO35", "IO0", "IO45", "IO48", "IO47", "IO21", "IO20", "IO19", "GND", "GND"),
        "wokwi_type": "board-esp32-s3-devkitc-1",
        "wokwi_J1": ("3V3.1", "3V3.2", "RST", "4", "5", "6", "7", "15", "16", "17", "18", "8", "3",
                     "46", "9", "10", "11", "12", "13", "14", "5V", "GND.1"),
        "wokwi_J3": ("GND.2", "TX", "RX", "1", "2", "42", "41", "40", "39", "38", "37", "36", "35",
                     "0", "45", "48", "47", "21", "20", "19", "GND.3", "GND.4"),
        "serial": {"TX": "UART0 TX (UART port)", "RX": "UART0 RX (UART port)"},
        "reserved": {19: "USB D- (host link)", 20: "USB D+ (host link)", 0: "BOOT button (strap)",
                     3: "strap: keep free", 45: "strap: keep free", 46: "strap: keep free",
                     38: "RGB LED (v1.1)", 48: "RGB LED (v1.0)", 35: "octal PSRAM", 36: "octal PSRAM",
                     37: "octal PSRAM"},
    },
    "wroom": {
        "name": "ESP32-DevKitC V4",
        "module": "ESP32-WROOM-32E 4 MB",
        "value": "ESP32-DevKitC-V4",
        "J1": ("3V3", "EN", "IO36", "IO39", "IO34", "IO35", "IO32", "IO33", "IO25", "IO26", "IO27",
               "IO14", "IO12", "GND", "IO13", "SD2", "SD3", "CMD", "5V"),
        "J3": ("GND", "IO23", "IO22", "TXD0", "RXD0", "IO21", "GND", "IO19", "IO18", "IO5", "IO17",
               "IO16", "IO4", "IO0", "IO2", "IO15", "SD1", "SD0", "CLK"),
        "wokwi_type": "board-esp32-devkit-c-v4",
        "wokwi_J1": ("3V3", "EN", "VP", "VN", "34", "35", "32", "33", "25", "26", "27", "14", "12",
                     "GND.1", "13", "D2", "D3", "CMD", "5V"),
        "wokwi_J3": ("GND.2", "23", "22", "TX", "RX", "21", "GND.3", "19", "18", "5", "17", "16", "4",
                     "0", "2", "15", "D1", "D0", "CLK"),
        "serial": {"TXD0": "USB serial TX (host link)", "RXD0": "USB serial RX (host link)"},
        "reserved": {0: "BOOT button (strap)", 12: "keep free (flash voltage strap)",
                     2: "spare (strap: keep low)"},
    },
}


def devkit_pins(target):
    b = BOARDS[target]
    return tuple((str(i + 1), name) for i, name in enumerate(b["J1"] + b["J3"]))


def wokwi_esp_pin(target):
    b = BOARDS[target]
    return dict((str(i + 1), name) for i, name in enumerate(b["wokwi_J1"] + b["wokwi_J3"]))


def header_of(target, num):
    """'J1-4' / 'J3-2' for a symbol pin number."""
    n = int(num)
    first = len(BOARDS[target]["J1"])
    return "J1-%d" % n if n <= first else "J3-%d" % (n - first)


def devkit_pin(gpio, target=pinmap.REFERENCE):
    """Symbol pin number of a GPIO on the board's headers."""
    for num, name in devkit_pins(target):
        if name == "IO%d" % gpio:
            return num
    raise KeyError("GPIO%d is not on the %s headers" % (gpio, BOARDS[target]["name"]))


def _u1_pins(target, name):
    return ["U1.%s" % num for num, n in devkit_pins(target) if n == name]


DISPLAY_PINS = (("1", "GND"), ("2", "VCC"), ("3", "SCL"), ("4", "SDA"), ("5", "RES"), ("6", "DC"), ("7", "CS"))
TWO = (("1", "1"), ("2", "2"))
R_FP = "tileclock:R_Axial_DIN0207_P10.16mm"
C_FP = "tileclock:C_Disc_P5.00mm"

# ref: (value, footprint, description, pins); U1 is added per target.
PARTS = {
    "DISP_LEFT": ("SSD1309 2.42in I2C", "tileclock:OLED_2.42in_7pin", "left player's display, address 0x3C", DISPLAY_PINS),
    "DISP_RIGHT": ("SSD1309 2.42in I2C", "tileclock:OLED_2.42in_7pin", "right player's display, address 0x3D", DISPLAY_PINS),
    "DISP_TERMINAL": ("SSD1309 2.42in I2C", "tileclock:OLED_2.42in_7pin", "terminal display, address 0x3C", DISPLAY_PINS),
    "KEYPAD": ("4x4 membrane keypad", "tileclock:PinHeader_1x08_P2.54mm",
               "keys 123A/456B/789C/*0#D", tuple((str(i + 1), n) for i, n in enumerate(
                   ("R1", "R2", "R3", "R4", "C1", "C2", "C3", "C4")))),
    "SW_LEFT": ("arcade button 60 mm", "tileclock:QuickConnect_2x4.8mm", "left player's button", TWO),
    "SW_RIGHT": ("arcade button 60 mm", "tileclock:QuickConnect_2x4.8mm", "right player's button", TWO),
    "SW_PAUSE": ("arcade button 30 mm", "tileclock:QuickConnect_2x2.8mm", "central pause button", TWO),
    "SW_CHALLENGE": ("push button 16 mm", "tileclock:QuickConnect_2x2.8mm", "challenge button", TWO),
    "C_BTN_LEFT": ("100nF", C_FP, "left button filter", TWO),
    "C_BTN_RIGHT": ("100nF", C_FP, "right button filter", TWO),
    "C_BTN_PAUSE": ("100nF", C_FP, "pause button filter", TWO),
    "C_BTN_CHALLENGE": ("100nF", C_FP, "challenge button filter", TWO),
    "BUZZER": ("passive piezo 17 mm", "tileclock:Piezo_D17mm_P10mm", "passive piezo transducer, 4.0 kHz", (("1", "+"), ("2", "-"))),
    "R_BUZZER": ("100", R_FP, "buzzer series resistor", TWO),
    "LED_LEFT": ("green 5 mm", "tileclock:LED_D5.0mm", "left player's turn", (("1", "K"), ("2", "A"))),
    "LED_RIGHT": ("green 5 mm", "tileclock:LED_D5.0mm", "right player's turn", (("1", "K"), ("2", "A"))),
    "LED_STATUS": ("yellow 5 mm", "tileclock:LED_D5.0mm", "status", (("1", "K"), ("2", "A"))),
    "R_LED_LEFT": ("330", R_FP, "LED series resistor", TWO),
    "R_LED_RIGHT": ("330", R_FP, "LED series resistor", TWO),
    "R_LED_STATUS": ("330", R_FP, "LED series resistor", TWO),
    "R_RES": ("10k", R_FP, "displays' power-on reset", TWO),
    "C_RES": ("1uF", C_FP, "displays' power-on reset", TWO),
    "BT1": ("18650 holder", "tileclock:BatteryHolder_18650_Wires", "holder for one 18650 cell", (("1", "+"), ("2", "-"))),
    "Q2": ("AO3401A", "tileclock:SOT-23", "P-MOSFET: a cell put in backwards is cut off",
           (("1", "G"), ("2", "S"), ("3", "D"))),
    "U2": ("TP4056 + DW01A module", "tileclock:TP4056_Module_Protected", "charger 1 A with cell protection, own USB-C input",
           (("1", "B+"), ("2", "B-"), ("3", "OUT+"), ("4", "OUT-"))),
    "F1": ("PTC 0.5 A hold", "tileclock:PTC_Radial_P5.1mm", "resettable fuse: hold 0.5 A, trip 1.0 A", TWO),
    "SW1": ("SPST toggle 5 A", "tileclock:Toggle_Panel_2pin", "power switch, panel mount 6.4 mm", TWO),
    "U3": ("LDO 3.3 V 1.2 A", "tileclock:SOT-223", "low-dropout regulator 3.3 V (LDL1117S33R)",
           (("1", "GND"), ("2", "VOUT"), ("3", "VIN"))),
    "C_VIN": ("10uF", C_FP, "regulator input capacitor (ceramic)", TWO),
    "C_VOUT": ("10uF", C_FP, "regulator output capacitor (ceramic)", TWO),
    "Q1": ("AO3401A", "tileclock:SOT-23", "P-MOSFET: disconnects the battery rail while USB powers the board",
           (("1", "G"), ("2", "S"), ("3", "D"))),
    "R_G": ("10k", R_FP, "Q1 gate pull-down", TWO),
    # across Q1, parallel to its body diode: holds the rail near 3.0 V while Q1 turns on
    # after the USB cable is pulled (README: "USB unplugged while running")
    "D_Q1": ("B0520LW", "tileclock:D_SOD-123", "Schottky 20 V 0.5 A across Q1: anode on the LDO's output, cathode on the rail",
             (("1", "K"), ("2", "A"))),
    "C_BULK": ("100uF", "tileclock:CP_Radial_D6.3mm_P2.50mm", "3V3 rail bulk (display inrush)", (("1", "+"), ("2", "-"))),
    "R_BAT_TOP": ("100k", R_FP, "battery divider, top", TWO),
    "R_BAT_BOT": ("100k", R_FP, "battery divider, bottom", TWO),
    "C_BAT": ("100nF", C_FP, "ADC input capacitor", TWO),
}

PULL_UP_VALUE = {"i2c_scl": "2.2k", "i2c_sda": "2.2k"}   # others (buttons, keypad columns): 10k


def static_nets(target):
    gnd = _u1_pins(target, "GND")
    return {
        "GND": gnd + ["U2.OUT-", "U3.GND", "R_G.2", "C_BULK.-", "C_RES.2", "C_VIN.2", "C_VOUT.2",
                      "R_BAT_BOT.2", "C_BAT.2", "BUZZER.-", "LED_LEFT.K", "LED_RIGHT.K", "LED_STATUS.K",
                      "SW_LEFT.2", "SW_RIGHT.2", "SW_PAUSE.2", "SW_CHALLENGE.2", "C_BTN_LEFT.2",
                      "C_BTN_RIGHT.2", "C_BTN_PAUSE.2", "C_BTN_CHALLENGE.2",
                      "DISP_LEFT.GND", "DISP_RIGHT.GND", "DISP_TERMINAL.GND",
                      "DISP_LEFT.CS", "DISP_RIGHT.CS", "DISP_TERMINAL.CS", "DISP_LEFT.DC", "DISP_TERMINAL.DC"],
        "+3V3": _u1_pins(target, "3V3") + ["Q1.S", "D_Q1.K", "C_BULK.+", "R_RES.1", "DISP_LEFT.VCC", "DISP_RIGHT.VCC",
                                            "DISP_TERMINAL.VCC", "DISP_RIGHT.DC"],
        "3V3_REG": ["U3.VOUT", "C_VOUT.1", "Q1.D", "D_Q1.A"],
        "VUSB": _u1_pins(target, "5V") + ["Q1.G", "R_G.1"],
        "HOLDER+": ["BT1.+", "Q2.D"],
        "CELL-": ["BT1.-", "U2.B-", "Q2.G"],
        "CELL+": ["Q2.S", "U2.B+"],
        "VBAT_PROT": ["U2.OUT+", "F1.1"],
        "VBAT_FUSED": ["F1.2", "SW1.1"],
        "VBAT_SW": ["SW1.2", "U3.VIN", "C_VIN.1", "R_BAT_TOP.1"],
        "OLED_RES": ["R_RES.2", "C_RES.1", "DISP_LEFT.RES", "DISP_RIGHT.RES", "DISP_TERMINAL.RES"],
        "BUZZER_DRV": ["R_BUZZER.2", "BUZZER.+"],
        "LED_LEFT_A": ["R_LED_LEFT.2", "LED_LEFT.A"],
        "LED_RIGHT_A": ["R_LED_RIGHT.2", "LED_RIGHT.A"],
        "LED_STATUS_A": ["R_LED_STATUS.2", "LED_STATUS.A"],
    }


def pull_up_ref(row):
    return "R_PU_" + row["signal"]


def parts(rows, target=pinmap.REFERENCE):
    """PARTS, the target's development board and the pull-up resistors the pin map asks for."""
    b = BOARDS[target]
    out = dict(PARTS)
    out["U1"] = (b["value"], "tileclock:%s" % b["value"], "%s, %s" % (b["name"], b["module"]),
                 devkit_pins(target))
    for r in pinmap.signals(rows):
        if pinmap.board_pull(r):
            out[pull_up_ref(r)] = (PULL_UP_VALUE.get(r["kind"], "10k"), R_FP,
                                   "pull-up of %s" % r["signal"], TWO)
    return out


def nets(rows, target=pinmap.REFERENCE):
    """Ordered {net name: [(ref, pin number), ...]}; raises ValueError on a bad endpoint."""
    allparts = parts(rows, target)
    raw = dict((k, list(v)) for k, v in static_nets(target).items())
    for r in pinmap.signals(rows):
        nodes = ["U1.%s" % devkit_pin(r["gpio"], target)] + list(r["connects"])
        if pinmap.board_pull(r):
            nodes.append(pull_up_ref(r) + ".2")
            raw["+3V3"].append(pull_up_ref(r) + ".1")
        raw[r["signal"]] = nodes
    out = {}
    seen = {}
    for name, nodes in raw.items():
        resolved = []
        for node in nodes:
            ref, pin = node.split(".", 1)
            if ref not in allparts:
                raise ValueError("net %s: unknown part %s" % (name, ref))
            num = None
            for n, pname in allparts[ref][3]:
                if pin in (n, pname):
                    num = n
            if num is None:
                raise ValueError("net %s: %s has no pin %s" % (name, ref, pin))
            key = (ref, num)
            if key in seen:
                raise ValueError("%s.%s is on nets %s and %s" % (ref, pin, seen[key], name))
            seen[key] = name
            resolved.append(key)
        out[name] = resolved
    return out


# Reference designators (schematic, BOM, carrier PCB) of the parts, which the nets, the
# wiring table and the Wokwi diagram name by function.  Fixed parts first, then the
# pull-ups the pin map asks for, numbered in pin-map order after the fixed resistors.
DESIGNATORS = {
    "U1": "U1", "U2": "U2", "U3": "U3", "Q1": "Q1", "Q2": "Q2", "F1": "F1", "BT1": "BT1",
    "SW1": "SW1", "SW_LEFT": "SW2", "SW_RIGHT": "SW3", "SW_PAUSE": "SW4", "SW_CHALLENGE": "SW5",
    "DISP_LEFT": "DS1", "DISP_RIGHT": "DS2", "DISP_TERMINAL": "DS3", "KEYPAD": "KP1",
    "BUZZER": "BZ1", "LED_LEFT": "D1", "LED_RIGHT": "D2", "LED_STATUS": "D3", "D_Q1": "D4",
    "R_LED_LEFT": "R1", "R_LED_RIGHT": "R2", "R_LED_STATUS": "R3", "R_BUZZER": "R4",
    "R_RES": "R5", "R_G": "R6", "R_BAT_TOP": "R7", "R_BAT_BOT": "R8",
    "C_BTN_LEFT": "C1", "C_BTN_RIGHT": "C2", "C_BTN_PAUSE": "C3", "C_BTN_CHALLENGE": "C4",
    "C_BAT": "C5", "C_RES": "C6", "C_VIN": "C7", "C_VOUT": "C8", "C_BULK": "C9",
}
FIRST_PULL_UP = 9       # R9 onwards


def designators(rows, target=pinmap.REFERENCE):
    """{function name: reference designator} of every part of the board."""
    out = dict(DESIGNATORS)
    n = FIRST_PULL_UP
    for r in pinmap.signals(rows):
        if pinmap.board_pull(r):
            out[pull_up_ref(r)] = "R%d" % n
            n += 1
    missing = set(parts(rows, target)) - set(out)
    if missing:
        raise ValueError("no reference designator for %s" % ", ".join(sorted(missing)))
    return out


def pin_name(allparts, ref, num):
    for n, name in allparts[ref][3]:
        if n == num:
            return name
    raise KeyError((ref, num))
