"""Carrier PCB (hardware/schematic/tileclock.kicad_pcb, written by hardware/gen_carrier.py):
the schematic's footprints and nets, the enclosure's screw holes, KiCad's design rules check
clean (with the schematic parity check), and the Gerbers and the drill file a board house
takes made by kicad-cli."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)
sys.path.insert(0, os.path.join(HW, "enclosure"))

import board  # noqa: E402
import gen_carrier  # noqa: E402
import mesh  # noqa: E402
import pinmap  # noqa: E402


def _text():
    with open(gen_carrier.PCB, encoding="utf-8") as f:
        return f.read()


def _pads(text):
    """{(reference, pad number): net name} of every footprint's pads."""
    out = {}
    for fp in re.finditer(r'\n  \(footprint "([^"]+)".*?\n  \)', text, re.S):
        body = fp.group(0)
        ref = re.search(r'\(property "Reference" "([^"]+)"', body).group(1)
        for pad in re.finditer(r'\(pad "([^"]*)" [^\n]*?(?:\(net \d+ "([^"]*)"\))?\)\n', body):
            out.setdefault((ref, pad.group(1)), set()).add(pad.group(2))
    return out


def test_carrier_is_fresh():
    r = subprocess.run([sys.executable, os.path.join(HW, "gen_carrier.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_every_part_and_net_of_the_schematic_is_on_the_carrier():
    rows = pinmap.load()
    refs = board.designators(rows)
    pads = _pads(_text())
    for name, nodes in board.nets(rows).items():
        for ref, num in nodes:
            assert pads[(refs[ref], num)] == {gen_carrier.pcb_net(name)}, (ref, num, name)
    on_board = set(r for r, _n in pads) - {"H1", "H2", "H3", "H4"}
    assert on_board == set(refs.values())


def test_screw_holes_are_the_enclosures_carrier_standoffs():
    with open(mesh.SCAD, encoding="utf-8") as f:
        scad = f.read()
    holes = [tuple(map(float, p)) for p in re.findall(
        r"\[(-?[\d.]+), (-?[\d.]+)\]", re.search(r"carrier_holes = \[(.*?)\];", scad).group(1))]
    xs = sorted(set(h[0] for h in holes))
    ys = sorted(set(h[1] for h in holes))
    pxs = sorted(set(h[0] for h in gen_carrier.HOLES))
    pys = sorted(set(h[1] for h in gen_carrier.HOLES))
    assert abs((xs[1] - xs[0]) - (pxs[1] - pxs[0])) < 0.01
    assert abs((ys[1] - ys[0]) - (pys[1] - pys[0])) < 0.01
    assert (gen_carrier.WIDTH, gen_carrier.HEIGHT) == (70.0, 90.0)       # the perfboard's size
    # the DevKit's USB end reaches the rear edge, centred under the enclosure's USB opening
    u1x, u1y = gen_carrier.PLACES["U1"]
    assert abs(u1x + 22.86 / 2 - gen_carrier.WIDTH / 2) < 0.1            # on the routing grid
    assert 8.0 < gen_carrier.HEIGHT - (u1y + 21 * 2.54) < 12.0              # the USB end overhangs pin 22


def _kicad_cli():
    exe = shutil.which("kicad-cli")
    if not exe:
        if os.environ.get("CI"):
            pytest.fail("kicad-cli is missing: the test bootstrap installs KiCad (host_tools/bootstrap.py)")
        pytest.skip("kicad-cli (KiCad 8 or newer) not installed")
    return exe


def test_kicad_drc_is_clean_and_the_gerbers_and_drill_file_are_made():
    exe = _kicad_cli()
    with tempfile.TemporaryDirectory() as tmp:
        # KiCad writes its settings in HOME and a folder of its own in TMPDIR
        env = dict(os.environ, HOME=os.path.join(tmp, "home"), TMPDIR=tmp)
        work = os.path.join(tmp, "board")
        shutil.copytree(os.path.join(HW, "schematic"), work, ignore=shutil.ignore_patterns("svg"))
        pcb = os.path.join(work, "tileclock.kicad_pcb")
        report = os.path.join(tmp, "drc.json")
        subprocess.run([exe, "pcb", "drc", "--schematic-parity", "--severity-all", "--format", "json",
                        "-o", report, pcb], capture_output=True, text=True, timeout=300, env=env)
        with open(report, encoding="utf-8") as f:
            drc = json.load(f)
        assert drc["violations"] == [], [v["description"] for v in drc["violations"]][:10]
        assert drc["unconnected_items"] == [], len(drc["unconnected_items"])
        assert drc["schematic_parity"] == [], [v["description"] for v in drc["schematic_parity"]][:10]
        gerbers = os.path.join(tmp, "gerbers")
        os.makedirs(gerbers)
        for cmd in (["gerbers"], ["drill", "--format", "excellon"]):
            r = subprocess.run([exe, "pcb", "export"] + cmd + ["-o", gerbers + os.sep, pcb],
                               capture_output=True, text=True, timeout=300, env=env)
            assert r.returncode == 0, r.stderr
        made = os.listdir(gerbers)
        for suffix in ("F_Cu.gtl", "B_Cu.gbl", "F_Mask.gts", "B_Mask.gbs", "Edge_Cuts.gm1", ".drl"):
            assert any(n.endswith(suffix) for n in made), (suffix, made)
        with open(os.path.join(gerbers, next(n for n in made if n.endswith(".drl"))), encoding="utf-8") as f:
            drill = f.read()
        holes = len(re.findall(r"^X-?[\d.]+Y-?[\d.]+", drill, re.M))
        tht = sum(1 for _r, _n, _x, _y, kind, _k in gen_carrier.placed_pads(pinmap.load()) if kind in ("tht", "tht1"))
        vias = _text().count("\n  (via ")
        assert holes == tht + vias + len(gen_carrier.HOLES), (holes, tht, vias)
    assert not os.path.exists(tmp)


def test_a_broken_track_is_caught_by_the_drc():
    exe = _kicad_cli()
    text = _text()
    first = text.index("\n  (segment ")
    broken = text[:first] + text[text.index("\n", first + 1):]
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, HOME=os.path.join(tmp, "home"), TMPDIR=tmp)
        pcb = os.path.join(tmp, "broken.kicad_pcb")
        with open(pcb, "w", encoding="utf-8") as f:
            f.write(broken)
        report = os.path.join(tmp, "drc.json")
        subprocess.run([exe, "pcb", "drc", "--severity-all", "--format", "json", "-o", report, pcb],
                       capture_output=True, text=True, timeout=300, env=env)
        with open(report, encoding="utf-8") as f:
            drc = json.load(f)
        assert drc["unconnected_items"] or drc["violations"]


def test_parts_do_not_overlap_nor_sit_under_a_screw(monkeypatch):
    rows = pinmap.load()
    assert gen_carrier.placement_problems(rows) == []
    # the check has teeth: two LED leads 6.35 mm apart collide (a JST-XH housing is 7.2 mm)
    x, y = gen_carrier.PLACES["LED_LEFT"]
    monkeypatch.setitem(gen_carrier.PLACES, "LED_RIGHT", (x, y + 6.35))
    assert any("overlap" in p for p in gen_carrier.placement_problems(rows))
    monkeypatch.setitem(gen_carrier.PLACES, "DISP_LEFT", (7.62, 7.62))
    assert any("screw" in p for p in gen_carrier.placement_problems(rows))
