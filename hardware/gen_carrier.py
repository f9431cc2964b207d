"""Write the carrier PCB of the reference board from its nets (standard library only).

    hardware/schematic/tileclock.kicad_pcb    two layers, 70 x 90 mm, the perfboard's size
                                              and screw holes (the enclosure's standoffs)

The DevKitC-1 plugs into two 1x22 female headers; the carrier holds every part of the
schematic that is not in the enclosure's walls (pull-ups, filters, LED and buzzer series
resistors, the displays' reset, the battery divider, the power path: Q2, F1, the LDO, Q1,
their capacitors) and a JST-XH connector for each part that is (displays, keypad,
buttons, LEDs, piezo, cell holder, charger module, power switch).  Every footprint is the
schematic's (same reference, same pin numbers, same library `tileclock.pretty`), so the
board's nets are board.nets() exactly.

The tracks come from a small maze router on a 0.635 mm grid (a quarter of 2.54 mm): top
layer preferring horizontal runs, bottom layer vertical, vias between.  Track 0.25 mm,
clearance 0.2 mm, via 0.6/0.3 mm: inside any board house's standard process.

    python hardware/gen_carrier.py           # write it (takes about a minute)
    python hardware/gen_carrier.py --check   # exit 1 if it is stale
"""

import heapq
import math
import os
import sys
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import board  # noqa: E402
import generated  # noqa: E402
import pinmap  # noqa: E402

OUT = os.path.join(HERE, "schematic")
PCB = os.path.join(OUT, "tileclock.kicad_pcb")
NS = uuid.UUID("0c9b7e55-2d3e-4a57-8f7e-3c5a1d0e6b21")

WIDTH, HEIGHT = 70.0, 90.0           # the perfboard's outline; rear edge (USB) at y = 90
HOLES = ((3.5, 3.5), (66.5, 3.5), (3.5, 86.5), (66.5, 86.5))   # enclosure: carrier_holes
STEP = 0.635                          # routing grid
TRACK = 0.25
CLEARANCE = 0.2
VIA, VIA_DRILL = 0.6, 0.3
EDGE = 0.6                            # copper to the board edge
THT, THT_DRILL = 1.7, 1.0
XH = 2.5                              # JST-XH pitch
G = 2.54
PAGE = (40.0, 40.0)                   # where the board's corner sits on the A4 sheet (KiCad's view)


def _uuid(*names):
    return str(uuid.uuid5(NS, "/".join(names)))


def _q(text):
    return '"%s"' % str(text).replace("\\", "\\\\").replace('"', '\\"')


def _mm(v):
    text = ("%.4f" % v).rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


# ------------------------------------------------------------------ footprints
# name -> (description, pads, fab outline (x0, y0, x1, y1)); a pad is
# (number, x, y, kind) with kind "tht", "tht1" (square pin 1) or ("smd", w, h).

def _row(n, pitch, vertical, first_square=True):
    pads = []
    for i in range(n):
        kind = "tht1" if i == 0 and first_square else "tht"
        pads.append((str(i + 1), 0.0 if vertical else i * pitch, i * pitch if vertical else 0.0, kind))
    return pads


def _xh(n, vertical):
    pads = _row(n, XH, vertical)
    span = (n - 1) * XH
    box = (-2.45, -2.35, 3.4, span + 2.35) if vertical else (-2.35, -3.4, span + 2.35, 2.45)
    return ("JST XH %d pins, 2.50 mm, %s" % (n, "along y" if vertical else "along x"), pads, box)


def _devkit():
    pads = [(str(i + 1), 0.0, i * G, "tht1" if i == 0 else "tht") for i in range(22)]
    pads += [(str(23 + i), 22.86, i * G, "tht") for i in range(22)]
    return ("ESP32-S3-DevKitC-1 on two 1x22 female headers, rows 22.86 mm apart", pads,
            (-1.6, -1.6, 24.46, 21 * G + 1.6))


FOOTPRINTS = {
    "ESP32-S3-DevKitC-1": _devkit(),
    "R_Axial_DIN0207_P10.16mm": ("axial resistor, 10.16 mm", _row(2, 10.16, False), (1.5, -1.3, 8.66, 1.3)),
    "C_Disc_P5.00mm": ("ceramic capacitor, 5.08 mm", _row(2, 5.08, False), (-1.2, -1.5, 6.28, 1.5)),
    "CP_Radial_D6.3mm_P2.50mm": ("electrolytic capacitor D6.3 mm, 2.54 mm", _row(2, G, False),
                                 (-1.88, -3.15, 4.42, 3.15)),
    "PTC_Radial_P5.1mm": ("radial PTC fuse, 5.08 mm", _row(2, 5.08, False), (-1.5, -1.8, 6.58, 1.8)),
    "SOT-23": ("SOT-23, pins 1 and 2 below, 3 above",
               [("1", -0.95, 1.0, ("smd", 0.8, 0.9)), ("2", 0.95, 1.0, ("smd", 0.8, 0.9)),
                ("3", 0.0, -1.0, ("smd", 0.8, 0.9))], (-1.5, -0.7, 1.5, 0.7)),
    "D_SOD-123": ("SOD-123 diode, pin 1 (cathode, the band) left",
                  [("1", -1.65, 0.0, ("smd", 0.9, 1.2)), ("2", 1.65, 0.0, ("smd", 0.9, 1.2))],
                  (-2.35, -0.95, 2.35, 0.95)),
    "SOT-223": ("SOT-223, pins 1-3 below, tab (pin 2) above",
                [("1", -2.3, 3.15, ("smd", 1.2, 2.0)), ("2", 0.0, 3.15, ("smd", 1.2, 2.0)),
                 ("3", 2.3, 3.15, ("smd", 1.2, 2.0)), ("2", 0.0, -3.15, ("smd", 3.6, 2.0))],
                (-3.3, -1.8, 3.3, 1.8)),
    "OLED_2.42in_7pin": _xh(7, False),
    "PinHeader_1x08_P2.54mm": _xh(8, True),
    "QuickConnect_2x4.8mm": _xh(2, True),
    "QuickConnect_2x2.8mm": _xh(2, True),
    "LED_D5.0mm": _xh(2, True),
    "Piezo_D17mm_P10mm": _xh(2, True),
    "BatteryHolder_18650_Wires": _xh(2, True),
    "TP4056_Module_Protected": _xh(4, True),
    "Toggle_Panel_2pin": _xh(2, True),
}
FOOTPRINT_WHAT = {
    "OLED_2.42in_7pin": "lead to a display module",
    "PinHeader_1x08_P2.54mm": "lead to the keypad's tail (a 1x8 pin header plugs into it)",
    "QuickConnect_2x4.8mm": "lead to a player's button (4.8 mm quick-connects)",
    "QuickConnect_2x2.8mm": "lead to a panel button (2.8 mm quick-connects)",
    "LED_D5.0mm": "lead to a panel LED",
    "Piezo_D17mm_P10mm": "lead to the piezo",
    "BatteryHolder_18650_Wires": "lead to the 18650 holder",
    "TP4056_Module_Protected": "lead to the charger module at the rear wall",
    "Toggle_Panel_2pin": "lead to the power switch",
}
FONT = "(effects (font (size 1 1) (thickness 0.15)))"


def _pad_sexpr(num, x, y, kind, net=None):
    tail = "" if net is None else " (net %d %s)" % net
    if kind in ("tht", "tht1"):
        shape = "rect" if kind == "tht1" else "circle"
        return ('(pad %s thru_hole %s (at %s %s) (size %s %s) (drill %s) (layers "*.Cu" "*.Mask")%s)'
                % (_q(num), shape, _mm(x), _mm(y), _mm(THT), _mm(THT), _mm(THT_DRILL), tail))
    _smd, w, h = kind
    return ('(pad %s smd rect (at %s %s) (size %s %s) (layers "F.Cu" "F.Paste" "F.Mask")%s)'
            % (_q(num), _mm(x), _mm(y), _mm(w), _mm(h), tail))


def _fab(box):
    x0, y0, x1, y1 = box
    return ('(fp_rect (start %s %s) (end %s %s) (stroke (width 0.1) (type solid)) (fill no) (layer "F.Fab"))'
            % (_mm(x0), _mm(y0), _mm(x1), _mm(y1)))


def _attr(pads):
    return "smd" if all(k not in ("tht", "tht1") for _n, _x, _y, k in pads) else "through_hole"


def footprint_text(name):
    """The library footprint (tileclock.pretty/NAME.kicad_mod)."""
    descr, pads, box = FOOTPRINTS[name]
    if name in FOOTPRINT_WHAT:
        descr = "%s: %s" % (FOOTPRINT_WHAT[name], descr)
    lines = ['(footprint %s (version 20241229) (generator "tileclock_gen_carrier") (generator_version "9.0")' % _q(name),
             '  (layer "F.Cu")', '  (descr %s)' % _q(descr), '  (attr %s)' % _attr(pads),
             '  (property "Reference" "REF**" (at 0 %s 0) (layer "F.Fab") %s)' % (_mm(box[1] - 1.2), FONT),
             '  (property "Value" %s (at 0 %s 0) (layer "F.Fab") %s)' % (_q(name), _mm(box[3] + 1.2), FONT),
             '  ' + _fab(box)]
    for num, x, y, kind in pads:
        lines.append("  " + _pad_sexpr(num, x, y, kind))
    lines.append(")")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ placement
# Function name -> origin of its footprint (mm, y down, the rear edge at y = 90).
J1_X, J3_X, PIN1_Y = 23.495, 46.355, 26.035
PLACES = {
    "U1": (J1_X, PIN1_Y),
    # front edge: the display leads
    "DISP_LEFT": (8.89, 8.89), "DISP_RIGHT": (29.21, 8.89), "DISP_TERMINAL": (49.53, 10.16),
    # left edge: keypad and buttons
    "KEYPAD": (4.445, 15.24), "SW_LEFT": (4.445, 40.64), "SW_RIGHT": (4.445, 48.26),
    "SW_PAUSE": (4.445, 55.88), "SW_CHALLENGE": (4.445, 63.5),
    # right edge: LEDs, piezo, power leads
    "LED_LEFT": (65.405, 15.24), "LED_RIGHT": (65.405, 22.86), "LED_STATUS": (65.405, 30.48),
    "BUZZER": (65.405, 38.1), "BT1": (65.405, 48.26), "U2": (65.405, 55.88), "SW1": (65.405, 69.85),
    # between the front leads and the DevKit: I2C pull-ups, the displays' reset, bulk
    "R_PU_I2C_PLAYERS_SDA": (10.16, 13.97), "R_PU_I2C_PLAYERS_SCL": (10.16, 17.78),
    "R_PU_I2C_TERMINAL_SDA": (49.53, 13.97), "R_PU_I2C_TERMINAL_SCL": (49.53, 17.78),
    "R_RES": (27.94, 13.97), "C_RES": (27.94, 17.78), "C_BULK": (36.83, 19.05),
    # left of the DevKit: button pull-ups and filters, the battery divider
    "R_PU_BUTTON_LEFT": (8.89, 27.94), "R_PU_BUTTON_RIGHT": (8.89, 31.75),
    "R_PU_BUTTON_PAUSE": (8.89, 35.56), "R_PU_BUTTON_CHALLENGE": (8.89, 39.37),
    "C_BTN_LEFT": (10.16, 45.72), "C_BTN_RIGHT": (10.16, 50.8),
    "C_BTN_PAUSE": (10.16, 55.88), "C_BTN_CHALLENGE": (10.16, 60.96),
    "R_BAT_TOP": (8.89, 68.58), "R_BAT_BOT": (8.89, 72.39), "C_BAT": (10.16, 76.2),
    # right of the DevKit: LED and buzzer resistors, the power path
    "R_LED_LEFT": (50.8, 27.94), "R_LED_RIGHT": (50.8, 31.75), "R_LED_STATUS": (50.8, 35.56),
    "R_BUZZER": (50.8, 39.37),
    "Q2": (53.975, 46.355), "F1": (53.34, 52.07), "U3": (55.88, 60.325),
    "C_VIN": (50.8, 67.31), "C_VOUT": (50.8, 71.12), "Q1": (53.975, 76.835), "R_G": (50.8, 81.28),
    "D_Q1": (59.69, 76.835),
}


def footprint_of(part):
    return part[1].split(":", 1)[1]


SCREW_HEAD = 3.0          # keep every part this far from a screw hole's centre (M3 head 5.5 mm)


def placement_problems(rows, target=pinmap.REFERENCE):
    """Parts whose outlines (F.Fab) overlap, leave the board or sit under a screw head."""
    boxes = []
    for ref, part in board.parts(rows, target).items():
        ox, oy = PLACES[ref]
        x0, y0, x1, y1 = FOOTPRINTS[footprint_of(part)][2]
        boxes.append((ref, (ox + x0, oy + y0, ox + x1, oy + y1)))
    out = []
    for i, (a, (ax0, ay0, ax1, ay1)) in enumerate(boxes):
        if ax0 < 0 or ay0 < 0 or ax1 > WIDTH or ay1 > HEIGHT:
            out.append("%s leaves the board" % a)
        for hx, hy in HOLES:
            dx = max(ax0 - hx, 0, hx - ax1)
            dy = max(ay0 - hy, 0, hy - ay1)
            if math.hypot(dx, dy) < SCREW_HEAD:
                out.append("%s is under the screw at (%g, %g)" % (a, hx, hy))
        for b, (bx0, by0, bx1, by1) in boxes[i + 1:]:
            if ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1:
                out.append("%s and %s overlap" % (a, b))
    return out


def placed_pads(rows, target=pinmap.REFERENCE):
    """[(function ref, pad number, x, y, kind, k)] of every pad on the board (k: the
    pad's index in its footprint: SOT-223's tab repeats pin 2)."""
    out = []
    for ref, part in board.parts(rows, target).items():
        ox, oy = PLACES[ref]
        for k, (num, x, y, kind) in enumerate(FOOTPRINTS[footprint_of(part)][1]):
            out.append((ref, num, ox + x, oy + y, kind, k))
    return out


# ------------------------------------------------------------------ routing

class Grid:
    def __init__(self):
        self.nx = int(WIDTH / STEP) + 1
        self.ny = int(HEIGHT / STEP) + 1
        n = self.nx * self.ny
        # per layer (0 top, 1 bottom): owner net of each node (None free, -1 blocked)
        self.owner = [[None] * n, [None] * n]
        self.via_block = [set(), set()]      # nodes where no via of another net may go

    def idx(self, i, j):
        return j * self.nx + i

    def xy(self, i, j):
        return i * STEP, j * STEP

    def inside(self, i, j):
        x, y = self.xy(i, j)
        m = EDGE + TRACK / 2
        return m <= x <= WIDTH - m and m <= y <= HEIGHT - m


def _dist_to_pad(px, py, x, y, kind):
    if kind in ("tht", "tht1"):
        if kind == "tht1":
            dx = max(abs(px - x) - THT / 2, 0.0)
            dy = max(abs(py - y) - THT / 2, 0.0)
            return math.hypot(dx, dy)
        return max(math.hypot(px - x, py - y) - THT / 2, 0.0)
    _s, w, h = kind
    dx = max(abs(px - x) - w / 2, 0.0)
    dy = max(abs(py - y) - h / 2, 0.0)
    return math.hypot(dx, dy)


def _layers(kind):
    return (0, 1) if kind in ("tht", "tht1") else (0,)


def build_grid(pads, net_of):
    """The grid with every pad's copper and keep-out marked; returns (grid, terminals)
    where terminals[(ref, num)] lists the (layer, node) inside that pad."""
    grid = Grid()
    inside = []
    keep = CLEARANCE + TRACK / 2 + 0.06
    for ref, num, x, y, kind, k in pads:
        net = net_of.get((ref, num), -1)
        i0, i1 = int((x - 3.0) / STEP), int((x + 3.0) / STEP) + 1
        j0, j1 = int((y - 3.0) / STEP), int((y + 3.0) / STEP) + 1
        for i in range(max(i0, 0), min(i1, grid.nx - 1) + 1):
            for j in range(max(j0, 0), min(j1, grid.ny - 1) + 1):
                px, py = grid.xy(i, j)
                d = _dist_to_pad(px, py, x, y, kind)
                node = grid.idx(i, j)
                if d < keep:
                    for layer in _layers(kind):
                        owner = grid.owner[layer][node]
                        if owner is None:
                            grid.owner[layer][node] = net
                        elif owner != net:
                            grid.owner[layer][node] = -1
                    if d == 0.0:
                        inside.append(((ref, num, k), node, _layers(kind)))
                # vias: clear of other nets' copper, of every drilled hole, out of SMD pads
                if d < CLEARANCE + VIA / 2 + 0.05:
                    grid.via_block[0].add((node, net))
                tht = kind in ("tht", "tht1")
                if (tht and math.hypot(px - x, py - y) < THT_DRILL / 2 + VIA_DRILL / 2 + 0.3) or (not tht and d == 0.0):
                    grid.via_block[0].add((node, -1))
    terminals = {}
    for key, node, layers in inside:
        net = net_of.get(key[:2], -1)
        for layer in layers:
            if net != -1 and grid.owner[layer][node] == net:
                terminals.setdefault(key, []).append((layer, node))
    for hx, hy in HOLES:
        for i in range(grid.nx):
            for j in range(grid.ny):
                px, py = grid.xy(i, j)
                if math.hypot(px - hx, py - hy) < 1.6 + 1.5 + CLEARANCE + TRACK:
                    grid.owner[0][grid.idx(i, j)] = -1
                    grid.owner[1][grid.idx(i, j)] = -1
    return grid, terminals


def _via_ok(grid, node, net, vias):
    for n2, owner in vias.get(node, ()):
        if owner != net:
            return False
    return True


class Router:
    VIA_COST = 6
    WRONG_WAY = 3

    def __init__(self, grid, terminals):
        self.grid = grid
        self.terminals = terminals
        self.via_near = {}            # node -> [(node, net)] of vias and via keep-outs near it
        for node, net in grid.via_block[0]:
            self.via_near.setdefault(node, []).append((node, net))
        self.paths = []               # (net name, [(layer, node), ...])
        self.vias = []                # (net name, node)

    def _free(self, layer, node, net):
        owner = self.grid.owner[layer][node]
        return owner is None or owner == net

    def _can_via(self, node, net):
        for _n, owner in self.via_near.get(node, ()):
            if owner != net:
                return False
        return self._free(0, node, net) and self._free(1, node, net)

    def route(self, net_id, name, groups):
        """Connect the pads' terminal groups of one net; returns False if it cannot."""
        grid = self.grid
        tree = set(groups[0])
        rest = [set(g) for g in groups[1:]]
        while rest:
            targets = set().union(*rest)
            tnodes = []
            for g in rest:
                xs = [grid.xy(n % grid.nx, n // grid.nx) for _l, n in g]
                tnodes.append((sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs)))
            path = self._search(tree, targets, tnodes, net_id)
            if path is None:
                return False
            self._commit(net_id, name, path)
            hit = path[-1]
            for g in rest:
                if hit in g:
                    tree |= g
                    rest.remove(g)
                    break
            tree |= set(path)
        return True

    def _h(self, node, tnodes):
        x, y = self.grid.xy(node % self.grid.nx, node // self.grid.nx)
        return min(abs(x - tx) + abs(y - ty) for tx, ty in tnodes) / STEP

    def _search(self, sources, targets, tnodes, net):
        grid = self.grid
        nx = grid.nx
        best = {}
        heap = []
        for s in sources:
            best[s] = 0
            heapq.heappush(heap, (self._h(s[1], tnodes), 0, s, None))
        came = {}
        while heap:
            _f, g, cur, prev = heapq.heappop(heap)
            if cur in came:
                continue
            came[cur] = prev
            if cur in targets:
                path = [cur]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])
                return path[::-1]
            layer, node = cur
            i, j = node % nx, node // nx
            steps = []
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                ii, jj = i + di, j + dj
                if not (0 <= ii < nx and 0 <= jj < grid.ny) or not grid.inside(ii, jj):
                    continue
                nn = grid.idx(ii, jj)
                if not self._free(layer, nn, net):
                    continue
                horizontal = dj == 0
                cost = 1 if horizontal == (layer == 0) else self.WRONG_WAY
                steps.append(((layer, nn), cost))
            if self._can_via(node, net):
                steps.append(((1 - layer, node), self.VIA_COST))
            for nxt, cost in steps:
                ng = g + cost
                if ng < best.get(nxt, 1e18):
                    best[nxt] = ng
                    heapq.heappush(heap, (ng + self._h(nxt[1], tnodes), ng, nxt, cur))
        return None

    def _commit(self, net, name, path):
        grid = self.grid
        for layer, node in path:
            grid.owner[layer][node] = net
        for a, b in zip(path, path[1:]):
            if a[1] == b[1] and a[0] != b[0]:
                self.vias.append((name, a[1]))
                i, j = a[1] % grid.nx, a[1] // grid.nx
                for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1), (0, 0)):
                    ii, jj = i + di, j + dj
                    if 0 <= ii < grid.nx and 0 <= jj < grid.ny:
                        self.via_near.setdefault(grid.idx(ii, jj), []).append((a[1], net))
        self.paths.append((name, path))


def route_board(rows, target=pinmap.REFERENCE):
    """(pads, net ids, router) with every net routed; raises RuntimeError if one fails."""
    nets = board.nets(rows, target)
    names = list(nets)
    net_ids = dict((n, i + 1) for i, n in enumerate(names))
    net_of = {}
    for name, nodes in nets.items():
        for node in nodes:
            net_of[node] = net_ids[name]
    pads = placed_pads(rows, target)
    grid, terminals = build_grid(pads, net_of)
    router = Router(grid, terminals)

    def size(name):
        xs = [p[2] for p in pads if (p[0], p[1]) in nets[name]]
        ys = [p[3] for p in pads if (p[0], p[1]) in nets[name]]
        return (max(xs) - min(xs)) + (max(ys) - min(ys))

    power = ("GND", "+3V3")
    order = sorted((n for n in names if n not in power), key=size) + list(power)
    for name in order:
        groups = []
        for ref, num, _x, _y, _kind, k in pads:
            if (ref, num) not in nets[name]:
                continue
            group = terminals.get((ref, num, k))
            if not group:
                raise RuntimeError("%s.%s (%s) has no reachable copper" % (ref, num, name))
            groups.append(group)
        if len(groups) > 1 and not router.route(net_ids[name], name, groups):
            raise RuntimeError("cannot route net %s" % name)
    return pads, net_ids, router


def _segments(grid, path):
    """Straight runs of a path: [(layer, (x0, y0), (x1, y1))]."""
    out = []
    run = [path[0]]
    for a, b in zip(path, path[1:]):
        if a[0] != b[0]:
            if len(run) > 1:
                out.append(run)
            run = [b]
            continue
        if len(run) > 1:
            p0, p1 = run[-2][1], run[-1][1]
            d0 = (p1 % grid.nx - p0 % grid.nx, p1 // grid.nx - p0 // grid.nx)
            d1 = (b[1] % grid.nx - a[1] % grid.nx, b[1] // grid.nx - a[1] // grid.nx)
            if d0 != d1:
                out.append(run)
                run = [a]
        run.append(b)
    if len(run) > 1:
        out.append(run)
    segs = []
    for r in out:
        (l0, n0), (_l1, n1) = r[0], r[-1]
        segs.append((l0, grid.xy(n0 % grid.nx, n0 // grid.nx), grid.xy(n1 % grid.nx, n1 // grid.nx)))
    return segs


# ------------------------------------------------------------------ the file

def pcb_net(name):
    """The schematic's net name as KiCad gives it: its labels are local to the root sheet."""
    return "/" + name


def render_pcb(rows, target=pinmap.REFERENCE):
    parts = board.parts(rows, target)
    refs = board.designators(rows, target)
    pads, net_ids, router = route_board(rows, target)
    nets = board.nets(rows, target)
    net_of = {}
    for name, nodes in nets.items():
        for node in nodes:
            net_of[node] = name
    out = ['(kicad_pcb (version 20241229) (generator "tileclock_gen_carrier") (generator_version "9.0")',
           '  (general (thickness 1.6) (legacy_teardrops no))', '  (paper "A4")',
           '  (title_block (title "tileclock carrier board") (rev "1") (company "tileclock")'
           ' (comment 1 "generated by hardware/gen_carrier.py from hardware/pinmap.csv"))',
           '  (layers (0 "F.Cu" signal) (2 "B.Cu" signal) (9 "F.Adhes" user "F.Adhesive")'
           ' (11 "B.Adhes" user "B.Adhesive") (13 "F.Paste" user) (15 "B.Paste" user)'
           ' (5 "F.SilkS" user "F.Silkscreen") (7 "B.SilkS" user "B.Silkscreen") (1 "F.Mask" user)'
           ' (3 "B.Mask" user) (17 "Dwgs.User" user "User.Drawings") (19 "Cmts.User" user "User.Comments")'
           ' (25 "Edge.Cuts" user) (27 "Margin" user) (31 "F.CrtYd" user "F.Courtyard")'
           ' (29 "B.CrtYd" user "B.Courtyard") (35 "F.Fab" user) (33 "B.Fab" user))',
           '  (setup (pad_to_mask_clearance 0) (allow_soldermask_bridges_in_footprints no)'
           ' (pcbplotparams (layerselection 0x00010fc_ffffffff) (plot_on_all_layers_selection 0x0000000_00000000)'
           ' (outputdirectory "gerbers/")))',
           '  (net 0 "")']
    # a pin on no net is alone on KiCad's "unconnected-(REF-PIN-PadN)" net, as the
    # schematic's no-connect flag makes it (so the schematic parity check agrees)
    lone = {}
    for ref in sorted(parts, key=lambda r: refs[r]):
        for num, pname in parts[ref][3]:
            if (ref, num) not in net_of:
                lone[(ref, num)] = len(net_ids) + len(lone) + 1
                net_of[(ref, num)] = "unconnected-(%s-%s-Pad%s)" % (refs[ref], pname, num)
    for name, i in net_ids.items():
        out.append('  (net %d %s)' % (i, _q(pcb_net(name))))
    for key, i in lone.items():
        out.append('  (net %d %s)' % (i, _q(net_of[key])))
    for ref in sorted(parts, key=lambda r: refs[r]):
        part = parts[ref]
        name = footprint_of(part)
        descr, fpads, box = FOOTPRINTS[name]
        ox, oy = PLACES[ref]
        out.append('  (footprint %s (layer "F.Cu") (uuid %s) (at %s %s)'
                   % (_q("tileclock:" + name), _q(_uuid("fp", ref)), _mm(ox + PAGE[0]), _mm(oy + PAGE[1])))
        out.append('    (descr %s)' % _q(descr))
        out.append('    (property "Reference" %s (at 0 %s 0) (layer "F.Fab") (uuid %s) %s)'
                   % (_q(refs[ref]), _mm(box[1] - 1.2), _q(_uuid("ref", ref)), FONT))
        out.append('    (property "Value" %s (at 0 %s 0) (layer "F.Fab") (uuid %s) %s)'
                   % (_q(part[0]), _mm(box[3] + 1.2), _q(_uuid("val", ref)), FONT))
        out.append('    (property "Function" %s (at 0 0 0) (layer "F.Fab") (hide yes) (uuid %s) %s)'
                   % (_q(ref), _q(_uuid("fn", ref)), FONT))
        out.append('    (attr %s)' % _attr(fpads))
        out.append('    ' + _fab(box))
        for num, x, y, kind in fpads:
            net = net_of.get((ref, num))
            if (ref, num) in lone:
                out.append('    ' + _pad_sexpr(num, x, y, kind, (lone[(ref, num)], _q(net))))
            else:
                out.append('    ' + _pad_sexpr(num, x, y, kind, None if net is None else (net_ids[net], _q(pcb_net(net)))))
        out.append('  )')
    for k, (hx, hy) in enumerate(HOLES):
        out.append('  (footprint "tileclock:MountingHole_3.2mm_M3" (layer "F.Cu") (uuid %s) (at %s %s)'
                   % (_q(_uuid("hole", str(k))), _mm(hx + PAGE[0]), _mm(hy + PAGE[1])))
        out.append('    (property "Reference" %s (at 0 -4.5 0) (layer "F.Fab") (uuid %s) %s)'
                   % (_q("H%d" % (k + 1)), _q(_uuid("holeref", str(k))), FONT))
        out.append('    (property "Value" "M3" (at 0 4.5 0) (layer "F.Fab") (uuid %s) %s)'
                   % (_q(_uuid("holeval", str(k))), FONT))
        out.append('    (attr exclude_from_pos_files exclude_from_bom board_only)')
        out.append('    (pad "" np_thru_hole circle (at 0 0) (size 3.2 3.2) (drill 3.2) (layers "*.Cu" "*.Mask"))')
        out.append('  )')
    out.append('  (gr_rect (start %s %s) (end %s %s) (stroke (width 0.1) (type default)) (fill no) (layer "Edge.Cuts")'
               ' (uuid %s))' % (_mm(PAGE[0]), _mm(PAGE[1]), _mm(WIDTH + PAGE[0]), _mm(HEIGHT + PAGE[1]),
                                _q(_uuid("edge"))))
    out.append('  (gr_text "tileclock carrier r1: DevKitC-1 USB end here" (at %s %s 0) (layer "F.SilkS")'
               ' (uuid %s) (effects (font (size 1 1) (thickness 0.15))))'
               % (_mm(35 + PAGE[0]), _mm(88.3 + PAGE[1]), _q(_uuid("title"))))
    grid = router.grid
    k = 0
    for name, path in router.paths:
        for layer, (x0, y0), (x1, y1) in _segments(grid, path):
            out.append('  (segment (start %s %s) (end %s %s) (width %s) (layer %s) (net %d) (uuid %s))'
                       % (_mm(x0 + PAGE[0]), _mm(y0 + PAGE[1]), _mm(x1 + PAGE[0]), _mm(y1 + PAGE[1]), _mm(TRACK), '"F.Cu"' if layer == 0 else '"B.Cu"',
                          net_ids[name], _q(_uuid("seg", str(k)))))
            k += 1
    for k, (name, node) in enumerate(router.vias):
        x, y = grid.xy(node % grid.nx, node // grid.nx)
        out.append('  (via (at %s %s) (size %s) (drill %s) (layers "F.Cu" "B.Cu") (net %d) (uuid %s))'
                   % (_mm(x + PAGE[0]), _mm(y + PAGE[1]), _mm(VIA), _mm(VIA_DRILL), net_ids[name], _q(_uuid("via", str(k)))))
    out.append(")")
    return "\n".join(out) + "\n"


MOUNTING_HOLE = ('(footprint "MountingHole_3.2mm_M3" (version 20241229) (generator "tileclock_gen_carrier")'
                 ' (generator_version "9.0")\n  (layer "F.Cu")\n  (descr "M3 screw hole, no copper")\n'
                 '  (attr exclude_from_pos_files exclude_from_bom board_only)\n'
                 '  (property "Reference" "REF**" (at 0 -4.5 0) (layer "F.Fab") %s)\n'
                 '  (property "Value" "M3" (at 0 4.5 0) (layer "F.Fab") %s)\n'
                 '  (pad "" np_thru_hole circle (at 0 0) (size 3.2 3.2) (drill 3.2) (layers "*.Cu" "*.Mask"))\n)\n'
                 % (FONT, FONT))


def outputs():
    rows = pinmap.load(pinmap.REFERENCE)
    problems = placement_problems(rows)
    if problems:
        raise SystemExit("gen_carrier.py: " + "; ".join(problems))
    return {PCB: render_pcb(rows),
            os.path.join(OUT, "tileclock.pretty", "MountingHole_3.2mm_M3.kicad_mod"): MOUNTING_HOLE}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    return 1 if generated.update(outputs(), "--check" in argv, "gen_carrier.py") else 0


if __name__ == "__main__":
    sys.exit(main())
