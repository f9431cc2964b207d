"""KiCad schematic (hardware/schematic/): generated from the nets, every footprint it names
present, and KiCad's electrical rules check clean - run live with kicad-cli where KiCad 8+
is installed (the test bootstrap installs it), and recorded in erc.json."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)

import board  # noqa: E402
import gen_schematic  # noqa: E402
import pinmap  # noqa: E402

SCHEMATIC_FILES = ("tileclock.kicad_sch", "tileclock.kicad_sym", "tileclock.kicad_pro", "sym-lib-table",
                   "fp-lib-table")


def test_schematic_files_are_fresh():
    r = subprocess.run([sys.executable, os.path.join(HW, "gen_schematic.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_every_footprint_it_names_is_in_the_project_library():
    with open(gen_schematic.SCH, encoding="utf-8") as f:
        text = f.read()
    names = re.findall(r'\(property "Footprint" "([^"]+)"', text)
    named = [n for n in names if n]
    assert len(named) == len(board.parts(pinmap.load()))
    for fp in named:
        lib, name = fp.split(":", 1)
        assert lib == "tileclock"
        path = os.path.join(gen_schematic.PRETTY, name + ".kicad_mod")
        with open(path, encoding="utf-8") as f:
            mod = f.read()
        assert mod.startswith('(footprint "%s"' % name)
    with open(os.path.join(HW, "schematic", "fp-lib-table"), encoding="utf-8") as f:
        assert "${KIPRJMOD}/tileclock.pretty" in f.read()


def test_every_pin_is_labelled_with_its_net_or_marked_unconnected():
    rows = pinmap.load()
    nets = board.nets(rows)
    with open(gen_schematic.SCH, encoding="utf-8") as f:
        text = f.read()
    labels = re.findall(r'\(label "([^"]+)"', text)
    pins_on_nets = sum(len(n) for n in nets.values())
    assert len(labels) == pins_on_nets + len(gen_schematic.POWER_FLAGS)
    assert set(labels) == set(nets)
    all_pins = sum(len(p[3]) for p in board.parts(rows).values())
    assert text.count("(no_connect ") == all_pins - pins_on_nets


def _placed(text):
    """[(lib_id, x, y, reference)] of every placed symbol."""
    out = []
    for m in re.finditer(r'\n  \(symbol \(lib_id "([^"]+)"\) \(at ([\d.-]+) ([\d.-]+) 0\)(.*?)\n  \)', text, re.S):
        ref = re.search(r'\(instances .*?\(reference "([^"]+)"\)', m.group(4)).group(1)
        out.append((m.group(1), float(m.group(2)), float(m.group(3)), ref))
    return out


def test_every_reference_is_numbered_and_is_the_boms():
    rows = pinmap.load()
    with open(gen_schematic.SCH, encoding="utf-8") as f:
        placed = _placed(f.read())
    refs = [ref for lib, _x, _y, ref in placed if not lib.endswith("PWR_FLAG")]
    flags = [ref for lib, _x, _y, ref in placed if lib.endswith("PWR_FLAG")]
    assert len(refs) == len(board.parts(rows)) and len(set(refs)) == len(refs)
    for ref in refs + flags:
        assert re.match(r"^#?[A-Z]+[0-9]+$", ref), ref
    assert sorted(refs) == sorted(board.designators(rows).values())
    bom = set()
    with open(os.path.join(HW, "bom.csv"), newline="", encoding="utf-8") as f:
        import csv
        for r in csv.DictReader(f):
            if r["refs"] not in ("", "-"):
                bom.update(r["refs"].split())
    assert bom == set(refs), sorted(bom ^ set(refs))


def test_every_symbol_lies_on_the_sheet():
    rows = pinmap.load()
    parts = board.parts(rows)
    with open(gen_schematic.SCH, encoding="utf-8") as f:
        text = f.read()
    _paper, width, height = gen_schematic.PAPER
    assert '(paper "%s")' % _paper in text
    pos = gen_schematic.layout(parts)
    margin = 10.0                                   # KiCad's frame
    for ref in parts:
        x0, y0, x1, y1 = gen_schematic.symbol_box(parts, pos, ref)
        assert margin <= x0 and x1 <= width - margin and margin <= y0 and y1 <= height - 50, (ref, (x0, y0, x1, y1))
    for lib, x, y, ref in _placed(text):            # what the file says is where layout() put it
        assert margin <= x <= width - margin and margin <= y <= height - 50, (ref, x, y)


def test_pins_are_typed_from_the_datasheets():
    with open(gen_schematic.SYM, encoding="utf-8") as f:
        text = f.read()
    types = re.findall(r"\(pin (\w+) line", text)
    assert types.count("power_in") >= 2 + 1 + 3 * 2 + 2       # DevKit 3V3 and GND, LDO, displays
    assert types.count("power_out") >= 3 and "input" in types and "bidirectional" in types
    assert gen_schematic.pin_type("U1", "IO4") == "bidirectional"
    assert gen_schematic.pin_type("U3", "VOUT") == "power_out"
    assert gen_schematic.pin_type("DISP_LEFT", "SCL") == "input"
    assert gen_schematic.pin_type("R_G", "1") == "passive"


def recorded_report():
    with open(gen_schematic.ERC_JSON, encoding="utf-8") as f:
        return json.load(f)


def test_recorded_erc_report_is_clean():
    report = recorded_report()
    major = int(report["kicad_version"].split(".")[0])
    assert major >= 8
    assert report["source"] == "tileclock.kicad_sch"
    assert {"error", "warning"} <= set(report["included_severities"])
    assert [v for s in report["sheets"] for v in s["violations"]] == []


def _kicad_cli():
    exe = shutil.which("kicad-cli")
    if not exe:
        if os.environ.get("CI"):
            pytest.fail("kicad-cli is missing: the test bootstrap installs KiCad (host_tools/bootstrap.py)")
        pytest.skip("kicad-cli (KiCad 8 or newer) not installed")
    return exe


def _erc(exe, folder, env):
    out = os.path.join(folder, "erc.json")
    subprocess.run([exe, "sch", "erc", "--format", "json", "--severity-all", "-o", out,
                    os.path.join(folder, "tileclock.kicad_sch")], capture_output=True, text=True, timeout=300, env=env)
    with open(out, encoding="utf-8") as f:
        report = json.load(f)
    return [v for s in report["sheets"] for v in s["violations"]]


def test_kicad_erc_passes_and_catches_a_broken_wire(tmp_path):
    exe = _kicad_cli()
    # KiCad writes its settings in HOME and a folder of its own (org.kicad.kicad) in TMPDIR
    (tmp_path / "tmp").mkdir()
    env = dict(os.environ, HOME=str(tmp_path / "home"), TMPDIR=str(tmp_path / "tmp"))
    good = tmp_path / "good"
    shutil.copytree(os.path.join(HW, "schematic"), good, ignore=shutil.ignore_patterns("erc.json", "svg"))
    assert _erc(exe, str(good), env) == []
    # a pin left without its label (and without a no-connect flag) is an ERC error
    bad = tmp_path / "bad"
    shutil.copytree(good, bad)
    sch = bad / "tileclock.kicad_sch"
    text = sch.read_text()
    first = text.index("  (label ")
    sch.write_text(text[:first] + text[text.index("\n", first) + 1:])
    violations = _erc(exe, str(bad), env)
    assert any(v["type"] in ("pin_not_connected", "unconnected_wire_endpoint", "wire_dangling") for v in violations), \
        [v["type"] for v in violations]
    # the pin types count: without the power flag on +3V3 nothing drives the displays' and
    # the DevKit's supply pins (they take power, Q1 is passive)
    unflagged = tmp_path / "unflagged"
    shutil.copytree(good, unflagged)
    sch = unflagged / "tileclock.kicad_sch"
    text = sch.read_text()
    at = text.index(gen_schematic._uuid("flag", "+3V3"))
    start = text.rindex("\n  (symbol (lib_id", 0, at)
    end = text.index("\n  )", at) + 4
    sch.write_text(text[:start] + text[end:])
    violations = _erc(exe, str(unflagged), env)
    assert "power_pin_not_driven" in [v["type"] for v in violations], [v["type"] for v in violations]
