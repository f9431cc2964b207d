"""Parts list (hardware/bom.csv): totals add up and every part of the netlist is in it."""

import csv
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "hardware"))

import board  # noqa: E402
import pinmap  # noqa: E402

COLUMNS = ["part", "refs", "quantity", "example_part_numbers", "unit_price_eur", "total_eur", "alternatives"]


def load():
    with open(os.path.join(ROOT, "hardware", "bom.csv"), newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == COLUMNS
        return list(reader)


def cents(text):
    whole, _, frac = text.partition(".")
    assert len(frac) == 2, text
    return int(whole) * 100 + int(frac)


def test_line_totals_and_grand_total_add_up():
    rows = load()
    assert rows[-1]["part"] == "TOTAL"
    items = rows[:-1]
    for r in items:
        q = int(r["quantity"])
        assert q > 0
        assert cents(r["total_eur"]) == q * cents(r["unit_price_eur"]), r["part"]
        assert r["example_part_numbers"] and r["alternatives"], r["part"]
    assert cents(rows[-1]["total_eur"]) == sum(cents(r["total_eur"]) for r in items)


def test_every_netlist_part_is_in_the_bom_with_its_count():
    rows = load()[:-1]
    parts = board.parts(pinmap.load())
    listed = set()
    for r in rows:
        refs = r["refs"].split()
        if refs == ["-"]:
            continue
        assert int(r["quantity"]) == len(refs), r["part"]
        for ref in refs:
            assert ref in parts, "BOM names %s, which the board does not have" % ref
        listed.update(refs)
    assert listed == set(parts), sorted(set(parts) - listed)


def test_resistor_values_match_the_board():
    rows = load()[:-1]
    parts = board.parts(pinmap.load())
    for r in rows:
        if not r["part"].startswith("Resistor "):
            continue
        value = r["part"].split()[1]
        for ref in r["refs"].split():
            assert parts[ref][0] == value.replace("R", ""), (ref, parts[ref][0], value)
