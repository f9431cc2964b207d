"""Parts list (hardware/bom.csv): a clock for at most 60 EUR at quantity 10 with shipping,
every line with a maker's part number, a second source, a distributor, its part number, the
source to check the price at and the date it was set, every part of the schematic under its
reference, and every screw, foot and gram of the enclosure counted."""

import csv
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "hardware"))
sys.path.insert(0, os.path.join(ROOT, "hardware", "enclosure"))

import board  # noqa: E402
import mesh  # noqa: E402
import pinmap  # noqa: E402

COLUMNS = ["part", "refs", "quantity", "manufacturer", "mpn", "second_source", "distributor", "distributor_pn",
           "source", "date", "basis", "unit_price_eur", "total_eur", "notes"]
BUDGET_EUR = 60.00


def load():
    with open(os.path.join(ROOT, "hardware", "bom.csv"), newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == COLUMNS
        return list(reader)


def cents(text):
    whole, _, frac = text.partition(".")
    assert len(frac) == 2, text
    return int(whole) * 100 + int(frac)


def items():
    rows = load()
    assert rows[-1]["part"] == "TOTAL"
    return rows[:-1]


def test_line_totals_and_the_sum_add_up_to_at_most_60_eur():
    rows = load()
    total = 0
    for r in rows[:-1]:
        q = float(r["quantity"])
        assert q > 0
        assert abs(cents(r["total_eur"]) - q * cents(r["unit_price_eur"])) < 0.5, r["part"]
        total += cents(r["total_eur"])
    assert cents(rows[-1]["total_eur"]) == total
    assert total <= BUDGET_EUR * 100, "the clock costs %.2f EUR" % (total / 100)


def test_price_basis_and_date_are_stated():
    notes = load()[-1]["notes"]
    assert "quantity 10" in notes and "EUR" in notes and "VAT" in notes
    assert re.search(r"\b20\d\d-\d\d\b", notes)


def test_every_line_has_a_part_number_and_a_second_source():
    for r in items():
        if r["part"] == "Shipping share":
            continue
        assert r["manufacturer"].strip() and r["mpn"].strip(), r["part"]
        assert r["second_source"].strip() and r["second_source"] != r["mpn"], r["part"]


def test_every_line_names_where_to_buy_it_and_when_the_price_was_set():
    for r in items():
        assert r["distributor"].strip() and r["distributor_pn"].strip(), r["part"]
        assert re.match(r"^https://[a-z0-9.-]+\.[a-z]+/", r["source"]), (r["part"], r["source"])
        assert re.match(r"^20\d\d-\d\d-\d\d$", r["date"]), (r["part"], r["date"])
        assert r["basis"] in ("listing", "estimate"), (r["part"], r["basis"])
    names = [r["part"] for r in items()]
    assert "Shipping share" in names and "PETG filament" in names
    assert any(n.startswith("Carrier PCB") for n in names)
    assert any("1x8" in n and "keypad" in n for n in names)      # the keypad tail's header
    filament = next(r for r in items() if r["part"] == "PETG filament")
    assert "EUR/kg" in filament["notes"]


def test_every_netlist_part_is_in_the_bom_with_its_count():
    rows = pinmap.load()
    designators = board.designators(rows)
    parts = set(designators.values())
    listed = []
    for r in items():
        refs = r["refs"].split()
        if refs == ["-"]:
            continue
        assert float(r["quantity"]) == len(refs), r["part"]
        for ref in refs:
            assert ref in parts, "BOM names %s, which the board does not have" % ref
        listed.extend(refs)
    assert len(listed) == len(set(listed)), "a part is listed twice"
    assert set(listed) == set(parts), sorted(set(parts) ^ set(listed))


def test_resistor_and_capacitor_values_match_the_board():
    rows = pinmap.load()
    by_ref = dict((d, f) for f, d in board.designators(rows).items())
    parts = dict((d, board.parts(rows)[f]) for d, f in by_ref.items())
    for r in items():
        m = re.match(r"^(Resistor|Capacitor) ([\d.]+[kM]?)( ?[un]F)?\b", r["part"])
        if not m:
            continue
        value = m.group(2) + (m.group(3) or "").strip()
        for ref in r["refs"].split():
            assert parts[ref][0] == value, (ref, parts[ref][0], value)


def count_of(word):
    return sum(float(r["quantity"]) for r in items() if word in r["part"])


def test_power_parts_are_rated_for_the_load():
    line = next(r for r in items() if r["refs"] == "SW1")
    amps = float(re.search(r"([\d.]+) A\b", r"%s" % line["part"]).group(1))
    assert amps >= 1.0                                    # the cell delivers about 0.2 A
    fuse = next(r for r in items() if r["refs"] == "F1")
    assert "0.5 A hold" in fuse["part"]
    assert any("reverse-cell" in r["notes"] for r in items())


def test_the_enclosure_hardware_is_counted():
    p = mesh.scad_params()
    with open(mesh.SCAD, encoding="utf-8") as f:
        scad = f.read()
    joint_screws = len(re.findall(r"\[[^\[\]]+\]", re.search(r"joint_screws = \[(.*?)\];", scad, re.S).group(1)))
    assert count_of("M3 x 12 screw") == 2 * joint_screws             # two joints
    assert count_of("M3 heat-set insert") == 12 == count_of("M3 x 8 screw")   # 4 posts per body part
    assert count_of("M2 x 8 screw") == 3 * 4                           # four per display
    assert count_of("LED holder") == 3
    feet = re.search(r'for \(x = which == "centre" \? \[(.*?)\] : \[(.*?)\], sy = \[-1, 1\]\)', scad)
    per_end = len(feet.group(2).split(","))
    per_centre = len(feet.group(1).split(","))
    assert count_of("Rubber feet") == 2 * (per_centre + 2 * per_end) == 10      # one at each foot position
    # the filament covers the rendered parts (their solid volume, PETG 1.27 g/cm3)
    with open(os.path.join(ROOT, "hardware", "enclosure", "parts.csv"), newline="", encoding="utf-8") as f:
        grams = sum(float(r["petg_g"]) for r in csv.DictReader(f))
    assert count_of("PETG filament") * 1000 >= grams
    assert p["player_button_depth"] > 0
