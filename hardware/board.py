"""The reference board as parts and nets, built from hardware/pinmap.csv (standard library only).

The GPIO nets come from the pin map (each row: the ESP32 pin, the `connects` endpoints and,
for `pull = external`, a pull-up resistor to +3V3). Everything else (power path, series
resistors, the displays' straps, the battery divider) is fixed here. The netlist, the Wokwi
diagram, the wiring picture and the README's wiring table are all rendered from `nets()`.
"""

import pinmap

# DevKitC V4 headers: J1 (left, seen from the top, USB at the bottom) and J3 (right).
# Symbol pin number = header position (J1: 1-19, J3: 20-38).
J1 = ("3V3", "EN", "IO36", "IO39", "IO34", "IO35", "IO32", "IO33", "IO25", "IO26", "IO27",
      "IO14", "IO12", "GND", "IO13", "SD2", "SD3", "CMD", "5V")
J3 = ("GND", "IO23", "IO22", "TXD0", "RXD0", "IO21", "GND", "IO19", "IO18", "IO5", "IO17",
      "IO16", "IO4", "IO0", "IO2", "IO15", "SD1", "SD0", "CLK")
DEVKIT_PINS = tuple((str(i + 1), name) for i, name in enumerate(J1 + J3))
# Wokwi's pin names for the same positions (board-esp32-devkit-c-v4).
WOKWI_J1 = ("3V3", "EN", "VP", "VN", "34", "35", "32", "33", "25", "26", "27", "14", "12",
            "GND.1", "13", "D2", "D3", "CMD", "5V")
WOKWI_J3 = ("GND.2", "23", "22", "TX", "RX", "21", "GND.3", "19", "18", "5", "17", "16", "4",
            "0", "2", "15", "D1", "D0", "CLK")
WOKWI_ESP_PIN = dict((str(i + 1), name) for i, name in enumerate(WOKWI_J1 + WOKWI_J3))


def devkit_pin(gpio):
    """Symbol pin number of a GPIO on the DevKitC headers."""
    for num, name in DEVKIT_PINS:
        if name == "IO%d" % gpio:
            return num
    raise KeyError("GPIO%d is not on the DevKitC headers" % gpio)


DISPLAY_PINS = (("1", "GND"), ("2", "VCC"), ("3", "SCL"), ("4", "SDA"), ("5", "RES"), ("6", "DC"), ("7", "CS"))
TWO = (("1", "1"), ("2", "2"))

# ref: (value, footprint, description, pins)
PARTS = {
    "U1": ("ESP32-DevKitC-V4", "tileclock:ESP32-DevKitC-V4", "ESP32-DevKitC V4, ESP32-WROOM-32E 4 MB", DEVKIT_PINS),
    "DISP_LEFT": ("SSD1309 2.42in I2C", "tileclock:OLED_2.42in_7pin", "left player's display, address 0x3C", DISPLAY_PINS),
    "DISP_RIGHT": ("SSD1309 2.42in I2C", "tileclock:OLED_2.42in_7pin", "right player's display, address 0x3D", DISPLAY_PINS),
    "DISP_TERMINAL": ("SSD1309 2.42in I2C", "tileclock:OLED_2.42in_7pin", "terminal display, address 0x3C", DISPLAY_PINS),
    "KEYPAD": ("4x4 membrane keypad", "Connector_PinHeader_2.54mm:PinHeader_1x08_P2.54mm_Vertical",
               "keys 123A/456B/789C/*0#D", tuple((str(i + 1), n) for i, n in enumerate(
                   ("R1", "R2", "R3", "R4", "C1", "C2", "C3", "C4")))),
    "SW_LEFT": ("arcade button 60 mm", "tileclock:Arcade_Button_QuickConnect", "left player's button", TWO),
    "SW_RIGHT": ("arcade button 60 mm", "tileclock:Arcade_Button_QuickConnect", "right player's button", TWO),
    "SW_PAUSE": ("arcade button 30 mm", "tileclock:Arcade_Button_QuickConnect", "central pause button", TWO),
    "SW_CHALLENGE": ("push button 16 mm", "tileclock:Panel_Button_16mm", "challenge button", TWO),
    "C_BTN_LEFT": ("100nF", "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm", "left button filter", TWO),
    "C_BTN_RIGHT": ("100nF", "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm", "right button filter", TWO),
    "BUZZER": ("passive piezo 12 mm", "Buzzer_Beeper:Buzzer_12x9.5RM7.6", "passive piezo transducer", (("1", "+"), ("2", "-"))),
    "R_BUZZER": ("100", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal", "buzzer series resistor", TWO),
    "LED_LEFT": ("green 5 mm", "LED_THT:LED_D5.0mm", "left player's turn", (("1", "K"), ("2", "A"))),
    "LED_RIGHT": ("green 5 mm", "LED_THT:LED_D5.0mm", "right player's turn", (("1", "K"), ("2", "A"))),
    "LED_STATUS": ("yellow 3 mm", "LED_THT:LED_D3.0mm", "status", (("1", "K"), ("2", "A"))),
    "R_LED_LEFT": ("1k", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal", "LED series resistor", TWO),
    "R_LED_RIGHT": ("1k", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal", "LED series resistor", TWO),
    "R_LED_STATUS": ("1k", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal", "LED series resistor", TWO),
    "R_RES": ("10k", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal", "displays' power-on reset", TWO),
    "C_RES": ("1uF", "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm", "displays' power-on reset", TWO),
    "BT1": ("18650 Li-ion 3000 mAh", "tileclock:BatteryHolder_18650", "one 18650 cell in a holder", (("1", "+"), ("2", "-"))),
    "U2": ("TP4056 + DW01A module", "tileclock:TP4056_Module_Protected", "charger 1 A with cell protection, own USB-C input",
           (("1", "B+"), ("2", "B-"), ("3", "OUT+"), ("4", "OUT-"))),
    "SW1": ("SPDT slide switch", "tileclock:Switch_Slide_Panel", "power switch", (("1", "A"), ("2", "COM"), ("3", "B"))),
    "U3": ("buck-boost 3.3 V", "tileclock:Pololu_S7V8F3", "TPS63000-class buck-boost, 2.7-11.8 V in, 3.3 V out",
           (("1", "VIN"), ("2", "GND"), ("3", "VOUT"))),
    "Q1": ("AO3401A", "Package_TO_SOT_SMD:SOT-23", "P-MOSFET: disconnects the battery rail while USB powers the board",
           (("1", "G"), ("2", "S"), ("3", "D"))),
    "R_G": ("10k", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal", "Q1 gate pull-down", TWO),
    "C_BULK": ("100uF", "Capacitor_THT:CP_Radial_D6.3mm_P2.50mm", "3V3 rail bulk (display inrush)", (("1", "+"), ("2", "-"))),
    "R_BAT_TOP": ("100k", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal", "battery divider, top", TWO),
    "R_BAT_BOT": ("100k", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal", "battery divider, bottom", TWO),
    "C_BAT": ("100nF", "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm", "ADC input capacitor", TWO),
}

PULL_UP_VALUE = {"i2c_scl": "4.7k", "i2c_sda": "4.7k"}   # others: 10k


STATIC_NETS = {
    "GND": ["U1.14", "U1.20", "U1.26", "U2.OUT-", "U3.GND", "R_G.2", "C_BULK.-", "C_RES.2",
            "R_BAT_BOT.2", "C_BAT.2", "BUZZER.-", "LED_LEFT.K", "LED_RIGHT.K", "LED_STATUS.K",
            "SW_LEFT.2", "SW_RIGHT.2", "SW_PAUSE.2", "SW_CHALLENGE.2", "C_BTN_LEFT.2", "C_BTN_RIGHT.2",
            "DISP_LEFT.GND", "DISP_RIGHT.GND", "DISP_TERMINAL.GND",
            "DISP_LEFT.CS", "DISP_RIGHT.CS", "DISP_TERMINAL.CS", "DISP_LEFT.DC", "DISP_TERMINAL.DC"],
    "+3V3": ["U1.1", "Q1.S", "C_BULK.+", "R_RES.1", "DISP_LEFT.VCC", "DISP_RIGHT.VCC",
             "DISP_TERMINAL.VCC", "DISP_RIGHT.DC"],
    "3V3_REG": ["U3.VOUT", "Q1.D"],
    "VUSB": ["U1.19", "Q1.G", "R_G.1"],
    "CELL+": ["BT1.+", "U2.B+"],
    "CELL-": ["BT1.-", "U2.B-"],
    "VBAT_PROT": ["U2.OUT+", "SW1.COM"],
    "VBAT_SW": ["SW1.A", "U3.VIN", "R_BAT_TOP.1"],
    "OLED_RES": ["R_RES.2", "C_RES.1", "DISP_LEFT.RES", "DISP_RIGHT.RES", "DISP_TERMINAL.RES"],
    "BUZZER_DRV": ["R_BUZZER.2", "BUZZER.+"],
    "LED_LEFT_A": ["R_LED_LEFT.2", "LED_LEFT.A"],
    "LED_RIGHT_A": ["R_LED_RIGHT.2", "LED_RIGHT.A"],
    "LED_STATUS_A": ["R_LED_STATUS.2", "LED_STATUS.A"],
}


def pull_up_ref(row):
    return "R_PU_" + row["signal"]


def parts(rows):
    """PARTS plus the pull-up resistors the pin map asks for."""
    out = dict(PARTS)
    for r in pinmap.signals(rows):
        if r["pull"] == "external":
            out[pull_up_ref(r)] = (PULL_UP_VALUE.get(r["kind"], "10k"),
                                   "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
                                   "pull-up of %s" % r["signal"], TWO)
    return out


def nets(rows):
    """Ordered {net name: [(ref, pin number), ...]}; raises ValueError on a bad endpoint."""
    allparts = parts(rows)
    raw = dict((k, list(v)) for k, v in STATIC_NETS.items())
    for r in pinmap.signals(rows):
        nodes = ["U1.%s" % devkit_pin(r["gpio"])] + list(r["connects"])
        if r["pull"] == "external":
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


def pin_name(allparts, ref, num):
    for n, name in allparts[ref][3]:
        if n == num:
            return name
    raise KeyError((ref, num))
