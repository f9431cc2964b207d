"""Enclosure (hardware/enclosure/tileclock.scad): dimensions agree with the README table."""

import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCAD = os.path.join(ROOT, "hardware", "enclosure", "tileclock.scad")


def scad_params():
    with open(SCAD, encoding="utf-8") as f:
        text = f.read()
    return dict((m.group(1), float(m.group(2)))
                for m in re.finditer(r"^([a-z_]+) = (-?[\d.]+);", text, re.M))


def readme_table():
    with open(os.path.join(ROOT, "hardware", "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("## Enclosure", 1)[1]
    return dict((m.group(1), float(m.group(2))) for m in re.finditer(r"^\| `([a-z_]+)` \| ([\d.]+) \|", section, re.M))


def test_readme_table_matches_the_model():
    p = scad_params()
    table = readme_table()
    assert len(table) >= 10
    for name, value in table.items():
        assert name in p, name
        assert p[name] == value, (name, p[name], value)


def test_layout_adds_up_and_parts_fit():
    p = scad_params()
    assert p["deck_length"] + p["wedge_run"] + p["centre_length"] / 2 == p["length"] / 2
    # a 60 mm player button fits on its deck, inside the walls
    assert p["deck_length"] - 2 * p["wall"] >= 58
    # the display faces are long enough for the 2.42 in module's short side
    face = ((p["ridge_height"] - p["deck_height"]) ** 2 + p["wedge_run"] ** 2) ** 0.5
    assert face >= p["display_pcb_h"] + 2 * p["wall"]
    assert p["width"] >= p["display_pcb_w"] + 2 * p["wall"]
    # terminal display and keypad side by side on the lectern
    assert p["centre_length"] >= p["display_pcb_w"] + p["keypad_w"] + 2 * p["wall"]
    lectern = ((p["ridge_height"] - p["deck_height"]) ** 2 + p["lectern_run"] ** 2) ** 0.5
    assert lectern >= p["keypad_h"]
    # pause and challenge on the ridge top, behind the lectern
    ridge_front = -p["width"] / 2 + p["lectern_run"]
    assert ridge_front < p["challenge_y"] - p["challenge_button_hole"] / 2
    assert p["challenge_y"] + p["challenge_button_hole"] / 2 < p["pause_y"] - p["pause_button_hole"] / 2
    assert p["pause_y"] + p["pause_button_hole"] / 2 + 6 < p["width"] / 2 - p["wall"]


def test_openscad_compiles_it(tmp_path):
    exe = shutil.which("openscad")
    if not exe:
        pytest.skip("openscad not installed")
    out = tmp_path / "tileclock.csg"
    for part in ("body", "bottom"):
        r = subprocess.run([exe, "-o", str(out), "-D", 'part="%s"' % part, SCAD],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and "ERROR" not in r.stderr and "WARNING" not in r.stderr, r.stderr
        assert out.stat().st_size > 1000
