"""Draw the carrier board on 2.54 mm perfboard from the pin map and the nets (standard library only).

    hardware/perfboard.svg     the layout: DevKitC-1 sockets, every part on its holes,
                               connectors for the leads, and each net's wires

The sockets' holes come from the board's header order (board.BOARDS), the wires from the
nets (board.nets, which the pin map drives); the places of the parts are fixed below. Parts
outside the carrier (displays, keypad, buttons, LEDs, piezo, the power path up to the
switch) reach it through connectors at its edges.

    python hardware/gen_perfboard.py           # write it
    python hardware/gen_perfboard.py --check   # exit 1 if it is stale
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import board  # noqa: E402
import generated  # noqa: E402
import pinmap  # noqa: E402

SVG = os.path.join(HERE, "perfboard.svg")
COLS, ROWS = 27, 35                  # 70 x 90 mm perfboard, holes 2.54 mm apart
J1_COL, J3_COL, HEADER_ROW = 8, 17, 11   # the DevKitC-1's rows are 9 holes (22.86 mm) apart

# Parts on the carrier: ref -> holes of its pins in pin order (column, row).
PLACES = {
    "R_PU_I2C_PLAYERS_SDA": ((3, 3), (3, 7)),
    "R_PU_I2C_PLAYERS_SCL": ((5, 3), (5, 7)),
    "R_PU_I2C_TERMINAL_SDA": ((21, 3), (21, 7)),
    "R_PU_I2C_TERMINAL_SCL": ((23, 3), (23, 7)),
    "R_PU_BUTTON_LEFT": ((5, 20), (5, 24)),        # 10k: +3V3, button
    "R_PU_BUTTON_RIGHT": ((6, 22), (6, 26)),
    "R_PU_BUTTON_PAUSE": ((5, 26), (5, 30)),
    "R_PU_BUTTON_CHALLENGE": ((6, 28), (6, 32)),
    "R_RES": ((12, 3), (12, 7)),
    "C_RES": ((14, 5), (14, 7)),
    "C_BTN_LEFT": ((3, 21), (3, 23)),
    "C_BTN_RIGHT": ((3, 24), (3, 26)),
    "C_BTN_PAUSE": ((3, 27), (3, 29)),
    "C_BTN_CHALLENGE": ((3, 30), (3, 32)),
    "R_LED_LEFT": ((20, 12), (24, 12)),
    "R_LED_RIGHT": ((20, 15), (24, 15)),
    "R_LED_STATUS": ((20, 18), (24, 18)),
    "R_BUZZER": ((20, 21), (24, 21)),
    "Q1": ((20, 24), (21, 24), (22, 24)),            # on its SOT-23 adapter: G S D
    "D_Q1": ((21, 29), (22, 29)),                    # SOD-123 across two neighbouring pads: K A
    "C_BULK": ((23, 24), (24, 24)),
    "R_G": ((25, 23), (25, 27)),
    "R_BAT_TOP": ((24, 26), (20, 26)),
    "R_BAT_BOT": ((20, 27), (24, 27)),
    "C_BAT": ((20, 28), (22, 28)),
    "C_VIN": ((24, 30), (24, 32)),
    "C_VOUT": ((21, 31), (19, 31)),
    "U3": ((20, 33), (21, 33), (22, 33)),            # on its SOT-223 adapter: GND VOUT VIN
}

# Connectors for the leads: ref -> holes of the part's pins that reach the carrier.
CONNECTORS = {
    "DISP_LEFT": tuple((1 + i, 0) for i in range(7)),
    "DISP_RIGHT": tuple((10 + i, 0) for i in range(7)),
    "DISP_TERMINAL": tuple((19 + i, 0) for i in range(7)),
    "KEYPAD": tuple((0, 12 + i) for i in range(8)),
    "SW_LEFT": ((0, 21), (0, 22)),
    "SW_RIGHT": ((0, 24), (0, 25)),
    "SW_PAUSE": ((0, 27), (0, 28)),
    "SW_CHALLENGE": ((0, 30), (0, 31)),
    "LED_LEFT": ((26, 13), (26, 12)),                # K A
    "LED_RIGHT": ((26, 16), (26, 15)),
    "LED_STATUS": ((26, 19), (26, 18)),
    "BUZZER": ((26, 21), (26, 22)),                  # + -
    "SW1": (None, (26, 30)),                         # the switched cell voltage
    "U2": (None, None, None, (26, 31)),              # the charger's OUT- (GND)
}

NET_COLOR = {"GND": "#212121", "+3V3": "#d32f2f", "3V3_REG": "#ef6c00", "VBAT_SW": "#8e24aa", "VUSB": "#6d4c41"}
KIND_COLOR = {"button": "#2e7d32", "keypad_row": "#ef6c00", "keypad_col": "#6a1b9a", "i2c_scl": "#c9a800",
              "i2c_sda": "#1565c0", "pwm": "#ad1457", "led": "#00838f", "adc": "#546e7a"}


def header_holes(target=pinmap.REFERENCE):
    """U1 pin number -> hole of its socket."""
    b = board.BOARDS[target]
    out = {}
    for i in range(len(b["J1"])):
        out[str(i + 1)] = (J1_COL, HEADER_ROW + i)
    for i in range(len(b["J3"])):
        out[str(len(b["J1"]) + i + 1)] = (J3_COL, HEADER_ROW + i)
    return out


def hole_of(ref, num, target=pinmap.REFERENCE):
    """The carrier hole of a part's pin, or None if it does not reach the carrier."""
    if ref == "U1":
        return header_holes(target)[num]
    parts = board.parts(pinmap.load(target), target)
    index = [n for n, _name in parts[ref][3]].index(num)
    if ref in PLACES:
        return PLACES[ref][index]
    if ref in CONNECTORS:
        holes = CONNECTORS[ref]
        return holes[index] if index < len(holes) else None
    return None


def occupancy(target=pinmap.REFERENCE):
    """hole -> 'REF.pin' for every part and connector pin, raising on a hole used twice."""
    used = {}

    def take(hole, what):
        if hole is None:
            return
        c, r = hole
        if not (0 <= c < COLS and 0 <= r < ROWS):
            raise ValueError("%s at %s is off the board" % (what, hole))
        if hole in used:
            raise ValueError("%s and %s share hole %s" % (used[hole], what, hole))
        used[hole] = what

    parts = board.parts(pinmap.load(target), target)
    for num, hole in header_holes(target).items():
        take(hole, "U1.%s" % num)
    for ref, holes in list(PLACES.items()) + list(CONNECTORS.items()):
        names = [n for n, _name in parts[ref][3]]
        for num, hole in zip(names, holes):
            take(hole, "%s.%s" % (ref, num))
    return used


def net_holes(target=pinmap.REFERENCE):
    """{net: [holes]} of every net that touches the carrier (two holes or more)."""
    out = {}
    for name, nodes in board.nets(pinmap.load(target), target).items():
        holes = [hole_of(ref, num, target) for ref, num in nodes]
        holes = [h for h in holes if h is not None]
        if len(holes) >= 2:
            out[name] = holes
    return out


def chain(holes):
    """The holes in the order a wire visits them (nearest next), starting at the first."""
    rest = list(dict.fromkeys(holes))
    path = [rest.pop(0)]
    while rest:
        last = path[-1]
        rest.sort(key=lambda h: (abs(h[0] - last[0]) + abs(h[1] - last[1]), h))
        path.append(rest.pop(0))
    return path


def render_svg(target=pinmap.REFERENCE):
    rows = pinmap.load(target)
    kinds = dict((r["signal"], r["kind"]) for r in pinmap.signals(rows))
    used = occupancy(target)
    nets = net_holes(target)
    pitch, x0, y0 = 24, 200, 170
    W, H = x0 + COLS * pitch + 330, y0 + ROWS * pitch + 120

    def xy(hole):
        return x0 + hole[0] * pitch, y0 + hole[1] * pitch

    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d"'
         ' font-family="DejaVu Sans, Arial, sans-serif" font-size="11">' % (W, H, W, H),
         '<rect width="100%" height="100%" fill="#ffffff"/>',
         '<text x="%d" y="30" font-size="20" font-weight="bold" text-anchor="middle">tileclock carrier board on'
         ' 70 x 90 mm perfboard (generated from hardware/%s)</text>' % (W // 2, os.path.basename(pinmap.PINMAPS[target][0])),
         '<text x="%d" y="52" text-anchor="middle" fill="#444">seen from the parts side; front edge (displays) at the'
         ' top, the DevKitC-1\'s USB end at the rear (bottom) edge; wires are insulated and may cross</text>' % (W // 2)]
    s.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#d7ccc8" stroke="#5d4037"/>'
             % (x0 - pitch, y0 - pitch, (COLS + 1) * pitch, (ROWS + 1) * pitch))
    for c in range(COLS):
        for r in range(ROWS):
            x, y = xy((c, r))
            s.append('<circle cx="%d" cy="%d" r="2.5" fill="#8d6e63"/>' % (x, y))
    # the DevKitC-1 over its sockets
    b = board.BOARDS[target]
    xa, ya = xy((J1_COL, HEADER_ROW))
    xb, yb = xy((J3_COL, HEADER_ROW + max(len(b["J1"]), len(b["J3"])) - 1))
    s.append('<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="#263238" fill-opacity="0.18" stroke="#263238"'
             ' stroke-dasharray="6 3"/>' % (xa - 14, ya - 30, xb - xa + 28, yb - ya + 44))
    s.append('<text x="%d" y="%d" text-anchor="middle" font-weight="bold">%s (USB end at the rear edge)</text>'
             % ((xa + xb) // 2, ya - 14, b["name"]))
    # wires
    for name, holes in nets.items():
        color = NET_COLOR.get(name, KIND_COLOR.get(kinds.get(name), "#0277bd"))
        path = chain(holes)
        pts = " ".join("%d,%d" % xy(h) for h in path)
        s.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2" stroke-opacity="0.8"/>' % (pts, color))
    # parts and connectors
    parts = board.parts(rows, target)
    for ref, holes in PLACES.items():
        pts = [xy(h) for h in holes]
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        s.append('<rect x="%d" y="%d" width="%d" height="%d" rx="4" fill="#fff8e1" fill-opacity="0.85" stroke="#f57f17"/>'
                 % (min(xs) - 7, min(ys) - 7, max(xs) - min(xs) + 14, max(ys) - min(ys) + 14))
        lx, ly = (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2
        turn = ' transform="rotate(-90 %d %d)"' % (lx + 3, ly) if max(ys) - min(ys) > max(xs) - min(xs) else ""
        s.append('<text x="%d" y="%d" text-anchor="middle" font-size="9"%s>%s %s</text>'
                 % (lx + (3 if turn else 0), ly + 3, turn, ref.replace("R_PU_I2C_", "R_PU_").replace("R_PU_BUTTON_", "R_PU_"), parts[ref][0]))
    for ref, holes in CONNECTORS.items():
        names = dict(parts[ref][3])
        for (num, _n), hole in zip(parts[ref][3], holes):
            if hole is None:
                continue
            x, y = xy(hole)
            s.append('<rect x="%d" y="%d" width="12" height="12" fill="#eceff1" stroke="#37474f"/>' % (x - 6, y - 6))
            label = "%s.%s" % (ref, names[num])
            if hole[1] == 0:
                s.append('<text x="%d" y="%d" text-anchor="start" transform="rotate(-60 %d %d)" font-size="9">%s</text>'
                         % (x, y - 12, x, y - 12, label))
            elif hole[0] == 0:
                s.append('<text x="%d" y="%d" text-anchor="end" font-size="9">%s</text>' % (x - 12, y + 3, label))
            else:
                s.append('<text x="%d" y="%d" text-anchor="start" font-size="9">%s</text>' % (x + 12, y + 3, label))
    # header pins with their GPIO and signal
    by_gpio = dict((r["gpio"], r["signal"]) for r in pinmap.signals(rows))
    for num, hole in header_holes(target).items():
        x, y = xy(hole)
        name = board.devkit_pins(target)[int(num) - 1][1]
        s.append('<rect x="%d" y="%d" width="10" height="10" fill="#37474f"/>' % (x - 5, y - 5))
        gpio = int(name[2:]) if name.startswith("IO") else None
        text = name + (" " + by_gpio[gpio] if gpio in by_gpio else "")
        anchor, dx = ("start", 9) if hole[0] == J1_COL else ("end", -9)
        s.append('<text x="%d" y="%d" text-anchor="%s" font-size="8" fill="#263238">%s</text>' % (x + dx, y + 3, anchor, text))
    s.append('<text x="%d" y="%d" font-size="11">Off the carrier: Q2, TP4056 module and F1 sit by the cell holder;'
             ' the switch feeds VBAT_SW (right edge). Sockets: 2 x 22-pin female headers, 9 holes apart.</text>'
             % (x0 - pitch, y0 + ROWS * pitch + 30))
    s.append('<text x="%d" y="%d" font-size="11">Wire colours: GND black, +3V3 red, LDO output orange, switched cell'
             ' violet, VUSB brown; signals as in wiring.svg.</text>' % (x0 - pitch, y0 + ROWS * pitch + 50))
    s.append("</svg>")
    assert used
    return "\n".join(s) + "\n"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    return 1 if generated.update({SVG: render_svg()}, "--check" in argv, "gen_perfboard.py") else 0


if __name__ == "__main__":
    sys.exit(main())
