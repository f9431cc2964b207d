"""Netlists, Wokwi diagrams, wiring pictures and README tables agree with the pin maps
(hardware/pinmap.csv for the ESP32-S3 reference board, pinmap_wroom.csv for the WROOM)."""

import json
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)

import board  # noqa: E402
import gen_wiring  # noqa: E402
import pinmap  # noqa: E402

TARGETS = gen_wiring.TARGETS
ROWS = {t: pinmap.load(t) for t in TARGETS}
SIGNALS = {t: pinmap.signals(ROWS[t]) for t in TARGETS}
NAMES = {t: pinmap.build_names(ROWS[t]) for t in TARGETS}


def read(*parts):
    with open(os.path.join(HW, *parts), encoding="utf-8") as f:
        return f.read()


def test_generated_files_are_fresh():
    r = subprocess.run([sys.executable, os.path.join(HW, "gen_wiring.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


# ------------------------------------------------------------------ KiCad netlist

def sexpr(text):
    tokens = re.findall(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()]+', text)
    stack = [[]]
    for t in tokens:
        if t == "(":
            stack.append([])
        elif t == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(t[1:-1].replace('\\"', '"') if t.startswith('"') else t)
    assert len(stack) == 1, "unbalanced parentheses"
    return stack[0][0]


def field(node, key):
    for item in node[1:]:
        if isinstance(item, list) and item and item[0] == key:
            return item[1]
    return None


def netlist(target):
    with open(gen_wiring.netlist_path(target), encoding="utf-8") as f:
        tree = sexpr(f.read())
    assert tree[0] == "export" and field(tree, "version") == "E"
    comps = next(x for x in tree if isinstance(x, list) and x[0] == "components")
    nets = next(x for x in tree if isinstance(x, list) and x[0] == "nets")
    refs = {field(c, "ref"): field(c, "value") for c in comps[1:]}
    out = {}
    for n in nets[1:]:
        nodes = [(field(x, "ref"), field(x, "pin"), field(x, "pinfunction"))
                 for x in n[1:] if isinstance(x, list) and x[0] == "node"]
        out[field(n, "name")] = nodes
    return refs, out


@pytest.mark.parametrize("target", TARGETS)
def test_netlist_gpio_nets_follow_the_pinmap(target):
    refs, nets = netlist(target)
    where = {}
    for name, nodes in nets.items():
        for ref, pin, func in nodes:
            assert ref in refs, ref
            assert (ref, pin) not in where, "%s.%s on two nets" % (ref, pin)
            where[(ref, pin)] = name
    u1_gpio_nets = {}
    for name, nodes in nets.items():
        for ref, pin, func in nodes:
            if ref == "U1" and func.startswith("IO"):
                assert int(func[2:]) not in u1_gpio_nets, "two nets on one GPIO"
                u1_gpio_nets[int(func[2:])] = name
                # the pin numbering follows the DevKitC header
                assert board.devkit_pins(target)[int(pin) - 1][1] == func
    # exactly the pin map's GPIOs are wired
    assert sorted(u1_gpio_nets) == sorted(r["gpio"] for r in SIGNALS[target])
    for r in SIGNALS[target]:
        net = nets[u1_gpio_nets[r["gpio"]]]
        endpoints = {"%s.%s" % (ref, func) for ref, _pin, func in net} | \
                    {"%s.%s" % (ref, pin) for ref, pin, _func in net}
        for c in r["connects"]:
            assert c in endpoints, (r["signal"], c)
        # one GPIO per net
        assert sum(1 for ref, _p, f in net if ref == "U1") == 1
        pullups = [ref for ref, pin, _f in net if ref.startswith("R_PU_")]
        if r["pull"] in ("external", "both"):
            assert len(pullups) == 1
            other = [n for n, nodes in nets.items() if (pullups[0], "1") in [(a, b) for a, b, _ in nodes]]
            assert other == ["+3V3"], (r["signal"], other)
        else:
            assert pullups == []


@pytest.mark.parametrize("target", TARGETS)
def test_netlist_power_and_display_straps(target):
    refs, nets = netlist(target)
    names = NAMES[target]
    def on(net, ref, func):
        return any(r == ref and f == func for r, _p, f in nets[net])
    assert on("+3V3", "U1", "3V3") and on("GND", "U1", "GND")
    assert on("VUSB", "U1", "5V") and on("VUSB", "Q1", "G")     # USB turns the battery path off
    assert on("+3V3", "Q1", "S") and on("3V3_REG", "Q1", "D") and on("3V3_REG", "U3", "VOUT")
    assert on("VBAT_SW", "U3", "VIN") and on("VBAT_SW", "R_BAT_TOP", "1")
    # cell safety: a reversed cell meets Q2 turned off; a short after the charger trips F1
    assert on("HOLDER+", "BT1", "+") and on("HOLDER+", "Q2", "D") and on("CELL-", "Q2", "G")
    assert on("CELL+", "Q2", "S") and on("CELL+", "U2", "B+") and on("CELL-", "U2", "B-")
    assert on("VBAT_PROT", "U2", "OUT+") and on("VBAT_PROT", "F1", "1")
    assert on("VBAT_FUSED", "F1", "2") and on("VBAT_FUSED", "SW1", "1") and on("VBAT_SW", "SW1", "2")
    reserved = {"wroom": {"IO0", "IO12", "TXD0", "RXD0"},
                "s3": {"IO0", "IO3", "IO45", "IO46", "TX", "RX", "IO19", "IO20", "IO38", "IO48"}}[target]
    assert not any(f in reserved for nets_ in nets.values() for r, _p, f in nets_ if r == "U1")
    # D/C straps give the addresses the firmware is told
    for ref, addr in (("DISP_LEFT", names["ADDR_DISPLAY_LEFT"]), ("DISP_RIGHT", names["ADDR_DISPLAY_RIGHT"]),
                      ("DISP_TERMINAL", names["ADDR_DISPLAY_TERMINAL"])):
        assert on("+3V3" if addr == 0x3D else "GND", ref, "DC"), ref
        assert on("GND", ref, "CS") and on("+3V3", ref, "VCC") and on("OLED_RES", ref, "RES")
    # the players' displays share the players' bus, the terminal has its own
    for sig, disps in (("I2C_PLAYERS_SCL", ("DISP_LEFT", "DISP_RIGHT")), ("I2C_TERMINAL_SDA", ("DISP_TERMINAL",))):
        assert {r for r, _p, f in nets[sig] if r.startswith("DISP_")} == set(disps)


@pytest.mark.parametrize("target", TARGETS)
def test_i2c_pull_ups_are_2k2(target):
    refs, nets = netlist(target)
    for r in SIGNALS[target]:
        if r["kind"] in ("i2c_scl", "i2c_sda"):
            assert refs[board.pull_up_ref(r)] == "2.2k", r["signal"]


@pytest.mark.parametrize("target", TARGETS)
def test_netlist_divider_matches_battery_divider(target):
    refs, nets = netlist(target)
    def ohms(v):
        m = re.match(r"^([\d.]+)([kM]?)$", v)
        return float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6}[m.group(2)]
    top, bot = ohms(refs["R_BAT_TOP"]), ohms(refs["R_BAT_BOT"])
    assert abs((top + bot) / bot - NAMES[target]["BATTERY_DIVIDER"]) < 1e-9


# ------------------------------------------------------------------ Wokwi

def wokwi_gpio(target):
    names = board.BOARDS[target]["wokwi_J1"] + board.BOARDS[target]["wokwi_J3"]
    out = dict((name, int(name)) for name in names if name.isdigit())
    if target == "wroom":
        out.update({"VP": 36, "VN": 39, "TX": 1, "RX": 3})
    else:
        out.update({"TX": 43, "RX": 44})
    return out


def wokwi_groups(target):
    with open(gen_wiring.diagram_path(target), encoding="utf-8") as f:
        d = json.load(f)
    assert d["version"] == 1
    parts = {p["id"]: p for p in d["parts"]}
    assert parts["esp"]["type"] == board.BOARDS[target]["wokwi_type"]
    parent = {}

    def find(x):
        x = "esp:GND" if x.startswith("esp:GND.") else x
        x = "esp:3V3" if x.startswith("esp:3V3.") else x
        parent.setdefault(x, x)
        while parent[x] != x:
            x = parent[x]
        return x

    for conn in d["connections"]:
        assert len(conn) == 4 and isinstance(conn[3], list), conn
        a, b = conn[0], conn[1]
        for end in (a, b):
            assert end.split(":")[0] in parts, end
        parent[find(a)] = find(b)
    groups = {}
    for x in list(parent):
        groups.setdefault(find(x), set()).add(x)
    return parts, list(groups.values())


def group_of(groups, pin):
    for g in groups:
        if pin in g:
            return g
    return {pin}


def test_the_reference_simulation_is_the_s3_devkit():
    d = json.loads(read("wokwi", "diagram.json"))
    assert d["parts"][0]["type"] == "board-esp32-s3-devkitc-1"


@pytest.mark.parametrize("target", TARGETS)
def test_wokwi_connections_follow_the_pinmap(target):
    parts, groups = wokwi_groups(target)
    gpio_of = wokwi_gpio(target)
    names = NAMES[target]
    esp_pin = dict((g, n) for n, g in gpio_of.items())
    used = set()
    for g in groups:
        gpios = [gpio_of[p[4:]] for p in g if p.startswith("esp:") and p[4:] in gpio_of]
        assert len(gpios) <= 1, g
        used.update(gpios)
    assert used == {r["gpio"] for r in SIGNALS[target]}
    by_type = lambda t: sorted(p["id"] for p in parts.values() if p["type"] == t)
    def grp(gpio):
        return group_of(groups, "esp:" + esp_pin[gpio])
    # buttons: GPIO on one side, GND on the other
    for const, wid in (("PIN_BUTTON_LEFT", "btn_left"), ("PIN_BUTTON_RIGHT", "btn_right"),
                       ("PIN_BUTTON_PAUSE", "btn_pause"), ("PIN_BUTTON_CHALLENGE", "btn_challenge")):
        assert parts[wid]["type"] == "wokwi-pushbutton"
        assert wid + ":1.l" in grp(names[const])
        assert wid + ":2.r" in group_of(groups, "esp:GND")
    # keypad rows and columns in order
    for i in range(4):
        assert "keypad:R%d" % (i + 1) in grp(names["KEYPAD_ROWS"][i])
        assert "keypad:C%d" % (i + 1) in grp(names["KEYPAD_COLS"][i])
    # displays: addresses and buses
    assert by_type("board-ssd1306") == ["oled_left", "oled_right", "oled_terminal"]
    for wid, addr, bus in (("oled_left", "ADDR_DISPLAY_LEFT", "PLAYERS"), ("oled_right", "ADDR_DISPLAY_RIGHT", "PLAYERS"),
                           ("oled_terminal", "ADDR_DISPLAY_TERMINAL", "TERMINAL")):
        assert int(parts[wid]["attrs"]["i2cAddress"], 16) == names[addr]
        assert wid + ":SCL" in grp(names["I2C_%s_SCL" % bus])
        assert wid + ":SDA" in grp(names["I2C_%s_SDA" % bus])
        assert wid + ":VCC" in group_of(groups, "esp:3V3") and wid + ":GND" in group_of(groups, "esp:GND")
    # LEDs through their resistors, buzzer through its resistor, battery pot on the ADC
    for const, led, res in (("PIN_LED_LEFT", "led_left", "r_led_left"), ("PIN_LED_RIGHT", "led_right", "r_led_right"),
                            ("PIN_LED_STATUS", "led_status", "r_led_status")):
        assert res + ":1" in grp(names[const])
        assert led + ":A" in group_of(groups, res + ":2")
        assert led + ":C" in group_of(groups, "esp:GND")
    assert "r_buzzer:1" in grp(names["PIN_BUZZER"]) and "buzzer:2" in group_of(groups, "r_buzzer:2")
    assert "pot_battery:SIG" in grp(names["PIN_BATTERY_ADC"])
    # external pull-ups are in the simulation too
    for r in SIGNALS[target]:
        pulled = any(x.startswith("r_pu_") for x in grp(r["gpio"]))
        assert pulled == (r["pull"] in ("external", "both")), r["signal"]


@pytest.mark.parametrize("target", TARGETS)
def test_wokwi_battery_starts_charged(target):
    """The pot's value (0-1023 over 0-3.3 V at the pin) gives a cell between LOW and full."""
    parts, _groups = wokwi_groups(target)
    value = int(parts["pot_battery"]["attrs"]["value"])
    cell_mv = value / 1023 * 3300 * NAMES[target]["BATTERY_DIVIDER"]
    assert NAMES[target]["BATTERY_LOW_MV"] + 100 < cell_mv <= 4200, cell_mv


def test_wokwi_toml_points_at_a_micropython_image():
    text = read("wokwi", "wokwi.toml")
    assert "[wokwi]" in text and "version = 1" in text and "firmware =" in text


# ------------------------------------------------------------------ picture and README

@pytest.mark.parametrize("target", TARGETS)
def test_svg_and_readme_show_every_signal(target):
    with open(gen_wiring.svg_path(target), encoding="utf-8") as f:
        svg = f.read()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    readme = read("README.md")
    assert "](%s)" % os.path.basename(gen_wiring.svg_path(target)) in readme
    begin, end = gen_wiring.table_markers(target)
    table = readme.split(begin)[1].split(end)[0]
    for r in SIGNALS[target]:
        assert "GPIO%d</tspan> %s" % (r["gpio"], r["signal"]) in svg
        assert re.search(r"^\| %d \| J[13]-\d+ \| %s \| `%s` \|" % (r["gpio"], r["signal"], re.escape(r["hwconfig"])),
                         table, re.M), r["signal"]


def test_a_changed_pinmap_changes_every_output():
    rows = [dict(r) for r in ROWS["s3"]]
    for r in rows:
        if r["signal"] == "LED_STATUS":
            r["gpio"] = 21
    assert pinmap.check(rows) == []
    readme = read("README.md")
    assert gen_wiring.render_netlist(rows) != read("schematic", "tileclock.net")
    assert gen_wiring.render_diagram(rows) != read("wokwi", "diagram.json")
    assert gen_wiring.render_svg(rows) != read("wiring.svg")
    assert gen_wiring.render_readme(rows, readme) != readme
    assert '"esp:21"' in gen_wiring.render_diagram(rows)
