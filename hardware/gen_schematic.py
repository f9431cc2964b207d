"""Write the KiCad schematic of the reference board from its nets (standard library only).

    hardware/schematic/tileclock.kicad_sch    the schematic (KiCad 9), one symbol per part
    hardware/schematic/tileclock.kicad_sym    the symbols it uses (the same ones it embeds)
    hardware/schematic/tileclock.pretty/      a footprint for every part it names
    hardware/schematic/tileclock.kicad_pro, sym-lib-table, fp-lib-table

Every pin is wired to a label named after its net (board.nets), unused header pins carry a
no-connect flag, so KiCad's electrical rules check sees exactly the netlist's connections.

    python hardware/gen_schematic.py           # write them
    python hardware/gen_schematic.py --check   # exit 1 if any is stale
    python hardware/gen_schematic.py --erc     # also run kicad-cli's ERC, write erc.json and
                                               # the SVG drawing (needs KiCad 8 or newer)
"""

import json
import os
import subprocess
import sys
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import board  # noqa: E402
import gen_carrier  # noqa: E402
import generated  # noqa: E402
import pinmap  # noqa: E402

OUT = os.path.join(HERE, "schematic")
SCH = os.path.join(OUT, "tileclock.kicad_sch")
SYM = os.path.join(OUT, "tileclock.kicad_sym")
PRO = os.path.join(OUT, "tileclock.kicad_pro")
PRETTY = os.path.join(OUT, "tileclock.pretty")
ERC_JSON = os.path.join(OUT, "erc.json")
SVG_DIR = os.path.join(OUT, "svg")
G = 2.54
NS = uuid.UUID("6f1d3c1e-7a35-4a8e-9a51-7ac0c1c0c1c0")


def _uuid(*names):
    return str(uuid.uuid5(NS, "/".join(names)))


def _q(text):
    return '"%s"' % str(text).replace("\\", "\\\\").replace('"', '\\"')


def _mm(v):
    return ("%.2f" % v).rstrip("0").rstrip(".")


FONT = "(effects (font (size 1.27 1.27)))"
HIDDEN = "(effects (font (size 1.27 1.27)) (hide yes))"


def symbol_name(ref):
    return "P_" + ref


# Electrical pin types, from the parts' datasheets (KiCad's ERC judges the nets by them);
# a pin not named here is passive (resistors, capacitors, switches, LEDs, the keypad's
# matrix, the transistors' source and drain, the fuse, the piezo).
DEVKIT_TYPES = {"3V3": "power_in", "GND": "power_in", "5V": "power_out", "RST": "input",
                "TX": "output", "RX": "input", "TXD0": "output", "RXD0": "input", "EN": "input"}
DISPLAY_TYPES = {"GND": "power_in", "VCC": "power_in", "SCL": "input", "SDA": "bidirectional",
                 "RES": "input", "DC": "input", "CS": "input"}
PIN_TYPES = {
    "DISP_LEFT": DISPLAY_TYPES, "DISP_RIGHT": DISPLAY_TYPES, "DISP_TERMINAL": DISPLAY_TYPES,
    # ST LDL1117: VIN supply input, VOUT regulated output, GND
    "U3": {"GND": "power_in", "VIN": "power_in", "VOUT": "power_out"},
    # TP4056 module: OUT+ is the protected cell output that supplies the clock
    "U2": {"OUT+": "power_out"},
    # the 18650 cell's plus terminal is a source
    "BT1": {"+": "power_out"},
    # AO3401A: the gate of Q1 is an input driven by the DevKitC-1's 5V pin; Q2's gate sits
    # on the cell's minus lead (passive)
    "Q1": {"G": "input"},
}
# Nets powered through a passive part (switch, transistor) or from the cell's return:
# KiCad's power flag says so, as in any schematic.
POWER_FLAGS = ("GND", "+3V3", "VBAT_SW")


def pin_type(ref, pname):
    if ref == "U1":
        return "bidirectional" if pname.startswith("IO") else DEVKIT_TYPES.get(pname, "passive")
    return PIN_TYPES.get(ref, {}).get(pname, "passive")


def lib_symbol(ref, part, designator, prefix=""):
    """A box with every pin on its left side, pin 1 at the top."""
    value, _fp, desc, pins = part
    n = len(pins)
    top = G
    bottom = -n * G
    name = prefix + symbol_name(ref)
    lines = ['(symbol %s (pin_names (offset 1.016)) (exclude_from_sim no) (in_bom yes) (on_board yes)' % _q(name),
             '  (property "Reference" %s (at 0 %s 0) %s)' % (_q(designator.rstrip("0123456789")), _mm(top + G), FONT),
             '  (property "Value" %s (at 0 %s 0) %s)' % (_q(value), _mm(bottom - G), FONT),
             '  (property "Footprint" "" (at 0 0 0) %s)' % HIDDEN,
             '  (property "Datasheet" "" (at 0 0 0) %s)' % HIDDEN,
             '  (property "Description" %s (at 0 0 0) %s)' % (_q(desc), HIDDEN),
             '  (symbol %s (rectangle (start -5.08 %s) (end 10.16 %s) (stroke (width 0.254) (type default))'
             ' (fill (type background))))' % (_q(symbol_name(ref) + "_0_1"), _mm(top), _mm(bottom)),
             '  (symbol %s' % _q(symbol_name(ref) + "_1_1")]
    for i, (num, pname) in enumerate(pins):
        y = -i * G
        lines.append('    (pin %s line (at -7.62 %s 0) (length 2.54) (name %s %s) (number %s %s))'
                     % (pin_type(ref, pname), _mm(y), _q(pname), FONT, _q(num), FONT))
    lines.append("  )")
    lines.append(")")
    return "\n".join(lines)


FLAG = "PWR_FLAG"


def flag_symbol(prefix=""):
    """KiCad's power flag: a power symbol whose one pin is a power output."""
    return "\n".join([
        '(symbol %s (power) (pin_numbers (hide yes)) (pin_names (offset 0) (hide yes)) (exclude_from_sim no)'
        ' (in_bom no) (on_board yes)' % _q(prefix + FLAG),
        '  (property "Reference" "#FLG" (at 0 1.905 0) %s)' % HIDDEN,
        '  (property "Value" "PWR_FLAG" (at 0 3.81 0) %s)' % FONT,
        '  (property "Footprint" "" (at 0 0 0) %s)' % HIDDEN,
        '  (property "Datasheet" "" (at 0 0 0) %s)' % HIDDEN,
        '  (property "Description" "the net is powered" (at 0 0 0) %s)' % HIDDEN,
        '  (symbol "PWR_FLAG_0_0" (pin power_out line (at 0 0 90) (length 0) (name "~" %s) (number "1" %s)))'
        % (FONT, FONT),
        '  (symbol "PWR_FLAG_0_1" (polyline (pts (xy 0 0) (xy 0 1.27) (xy -1.016 1.905) (xy 0 2.54)'
        ' (xy 1.016 1.905) (xy 0 1.27)) (stroke (width 0) (type default)) (fill (type none))))',
        ")"])


PAPER = ("A1", 841.0, 594.0)


def layout(parts):
    """{ref: (x, y)} symbol origins in columns on the A1 sheet (2.54 mm grid), all of
    every symbol, its labels and texts inside the frame."""
    order = ["U1"] + sorted(r for r in parts if r != "U1")
    pos = {}
    top, bottom = 16 * G, 212 * G          # 40.6 .. 538.5 mm: the title block is below
    x, y = 24 * G, top
    for ref in order:
        h = (len(parts[ref][3]) + 5) * G
        if y + h > bottom:
            x += 40 * G
            y = top
        pos[ref] = (x, y + G)
        y += h
    return pos


def symbol_box(parts, pos, ref):
    """(x0, y0, x1, y1) of a placed symbol with its wires, labels and texts."""
    sx, sy = pos[ref]
    n = len(parts[ref][3])
    return (sx - 7.62 - 2 * G - 30, sy - 3 * G, sx + 10.16 + 30, sy + (n + 2) * G)


def render_schematic(rows, target=pinmap.REFERENCE):
    parts = board.parts(rows, target)
    nets = board.nets(rows, target)
    refs = board.designators(rows, target)
    net_of = {}
    for name, nodes in nets.items():
        for node in nodes:
            net_of[node] = name
    root = _uuid("root", target)
    pos = layout(parts)
    out = ['(kicad_sch (version 20250114) (generator "tileclock_gen_schematic") (generator_version "9.0")',
           '  (uuid %s)' % _q(root), '  (paper "%s")' % PAPER[0],
           '  (title_block (title %s) (rev "3") (company "tileclock")'
           ' (comment 1 "generated by hardware/gen_schematic.py from hardware/pinmap.csv"))'
           % _q("tileclock %s board" % board.BOARDS[target]["name"]),
           '  (lib_symbols']
    for ref in sorted(parts):
        out.append("\n".join("    " + line for line in
                             lib_symbol(ref, parts[ref], refs[ref], "tileclock:").splitlines()))
    out.append("\n".join("    " + line for line in flag_symbol("tileclock:").splitlines()))
    out.append("  )")
    for ref in sorted(parts):
        value, fp, desc, pins = parts[ref]
        sx, sy = pos[ref]
        out.append('  (symbol (lib_id %s) (at %s %s 0) (unit 1) (exclude_from_sim no) (in_bom yes) (on_board yes)'
                   ' (dnp no) (uuid %s)' % (_q("tileclock:" + symbol_name(ref)), _mm(sx), _mm(sy), _q(_uuid("sym", ref))))
        out.append('    (property "Reference" %s (at %s %s 0) %s)' % (_q(refs[ref]), _mm(sx - 2 * G), _mm(sy - 2 * G), FONT))
        out.append('    (property "Value" %s (at %s %s 0) %s)' % (_q(value), _mm(sx), _mm(sy + (len(pins) + 1) * G), FONT))
        out.append('    (property "Footprint" %s (at %s %s 0) %s)' % (_q(fp), _mm(sx), _mm(sy), HIDDEN))
        out.append('    (property "Datasheet" "" (at %s %s 0) %s)' % (_mm(sx), _mm(sy), HIDDEN))
        out.append('    (property "Description" %s (at %s %s 0) %s)' % (_q(desc), _mm(sx), _mm(sy), HIDDEN))
        out.append('    (property "Function" %s (at %s %s 0) %s)' % (_q(ref), _mm(sx + 3 * G), _mm(sy - 2 * G), FONT))
        for num, _pname in pins:
            out.append('    (pin %s (uuid %s))' % (_q(num), _q(_uuid("pin", ref, num))))
        out.append('    (instances (project "tileclock" (path %s (reference %s) (unit 1))))'
                   % (_q("/" + root), _q(refs[ref])))
        out.append("  )")
        for i, (num, _pname) in enumerate(pins):
            px, py = sx - 7.62, sy + i * G
            net = net_of.get((ref, num))
            if net is None:
                out.append('  (no_connect (at %s %s) (uuid %s))' % (_mm(px), _mm(py), _q(_uuid("nc", ref, num))))
                continue
            lx = px - 2 * G
            out.append('  (wire (pts (xy %s %s) (xy %s %s)) (stroke (width 0) (type default)) (uuid %s))'
                       % (_mm(px), _mm(py), _mm(lx), _mm(py), _q(_uuid("w", ref, num))))
            out.append('  (label %s (at %s %s 180) (effects (font (size 1.27 1.27)) (justify right bottom))'
                       ' (uuid %s))' % (_q(net), _mm(lx), _mm(py), _q(_uuid("l", ref, num))))
    # the power flags, in a row under the last column's top
    fx, fy = 240 * G, 20 * G
    for i, net in enumerate(POWER_FLAGS):
        x = fx + i * 12 * G
        out.append('  (symbol (lib_id "tileclock:%s") (at %s %s 0) (unit 1) (exclude_from_sim no) (in_bom no)'
                   ' (on_board yes) (dnp no) (uuid %s)' % (FLAG, _mm(x), _mm(fy), _q(_uuid("flag", net))))
        out.append('    (property "Reference" %s (at %s %s 0) %s)' % (_q("#FLG%02d" % (i + 1)), _mm(x), _mm(fy - 2 * G), HIDDEN))
        out.append('    (property "Value" "PWR_FLAG" (at %s %s 0) %s)' % (_mm(x), _mm(fy - 3 * G), FONT))
        out.append('    (property "Footprint" "" (at %s %s 0) %s)' % (_mm(x), _mm(fy), HIDDEN))
        out.append('    (property "Datasheet" "" (at %s %s 0) %s)' % (_mm(x), _mm(fy), HIDDEN))
        out.append('    (pin "1" (uuid %s))' % _q(_uuid("flagpin", net)))
        out.append('    (instances (project "tileclock" (path %s (reference %s) (unit 1))))'
                   % (_q("/" + root), _q("#FLG%02d" % (i + 1))))
        out.append("  )")
        out.append('  (wire (pts (xy %s %s) (xy %s %s)) (stroke (width 0) (type default)) (uuid %s))'
                   % (_mm(x), _mm(fy), _mm(x), _mm(fy + 2 * G), _q(_uuid("flagwire", net))))
        out.append('  (label %s (at %s %s 270) (effects (font (size 1.27 1.27)) (justify right bottom))'
                   ' (uuid %s))' % (_q(net), _mm(x), _mm(fy + 2 * G), _q(_uuid("flaglabel", net))))
    out.append('  (sheet_instances (path "/" (page "1")))')
    out.append(")")
    return "\n".join(out) + "\n"


def render_library(rows, target=pinmap.REFERENCE):
    parts = board.parts(rows, target)
    refs = board.designators(rows, target)
    out = ['(kicad_symbol_lib (version 20241209) (generator "tileclock_gen_schematic") (generator_version "9.0")']
    for ref in sorted(parts):
        out.append("\n".join("  " + line for line in lib_symbol(ref, parts[ref], refs[ref]).splitlines()))
    out.append("\n".join("  " + line for line in flag_symbol().splitlines()))
    out.append(")")
    return "\n".join(out) + "\n"


def footprints(rows, target=pinmap.REFERENCE):
    """{file name: text} of every footprint the schematic names: the carrier board's
    (gen_carrier.FOOTPRINTS: THT parts, SMD transistors and regulator, JST-XH connectors
    for the parts in the enclosure's walls)."""
    out = {}
    for ref, (_v, fp, _d, pins) in board.parts(rows, target).items():
        lib, name = fp.split(":", 1)
        assert lib == "tileclock", fp
        out[name + ".kicad_mod"] = gen_carrier.footprint_text(name)
    return out


PROJECT = {"meta": {"filename": "tileclock.kicad_pro", "version": 3},
           "erc": {"erc_exclusions": [], "meta": {"version": 0}, "pin_map": [], "rule_severities": {}},
           "sheets": [], "text_variables": {}}
SYM_LIB_TABLE = ('(sym_lib_table\n  (version 7)\n  (lib (name "tileclock") (type "KiCad")'
                 ' (uri "${KIPRJMOD}/tileclock.kicad_sym") (options "") (descr "tileclock parts"))\n)\n')
FP_LIB_TABLE = ('(fp_lib_table\n  (version 7)\n  (lib (name "tileclock") (type "KiCad")'
                ' (uri "${KIPRJMOD}/tileclock.pretty") (options "") (descr "tileclock footprints"))\n)\n')


def outputs():
    rows = pinmap.load(pinmap.REFERENCE)
    out = {SCH: render_schematic(rows), SYM: render_library(rows),
           PRO: json.dumps(PROJECT, indent=2) + "\n",
           os.path.join(OUT, "sym-lib-table"): SYM_LIB_TABLE, os.path.join(OUT, "fp-lib-table"): FP_LIB_TABLE}
    for name, text in footprints(rows).items():
        out[os.path.join(PRETTY, name)] = text
    return out


def run_erc(kicad_cli="kicad-cli"):
    """kicad-cli's ERC on the schematic: (exit code, report dict)."""
    r = subprocess.run([kicad_cli, "sch", "erc", "--format", "json", "--severity-all", "--exit-code-violations",
                        "-o", ERC_JSON, SCH], capture_output=True, text=True, timeout=300)
    with open(ERC_JSON, encoding="utf-8") as f:
        report = json.load(f)
    return r.returncode, report


def export_svg(kicad_cli="kicad-cli"):
    os.makedirs(SVG_DIR, exist_ok=True)
    subprocess.run([kicad_cli, "sch", "export", "svg", "-o", SVG_DIR, SCH], check=True,
                   capture_output=True, timeout=300)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if generated.update(outputs(), "--check" in argv, "gen_schematic.py"):
        return 1
    if "--erc" in argv:
        code, report = run_erc()
        violations = [v for s in report.get("sheets", []) for v in s.get("violations", [])]
        print("ERC: %d violations (kicad-cli exit %d), report in hardware/schematic/erc.json" % (len(violations), code))
        export_svg()
        return 1 if violations else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
