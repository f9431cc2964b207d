"""Power budget (hardware/power_budget.csv): the panel-current model from the SSD1309's segment
current, recomputed at the firmware's default contrast, gives a tournament day on a 2,500 mAh
cell; the README quotes the same figures and the run-down test's pass/fail numbers."""

import ast
import csv
import os
import re
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "hardware"))

import pinmap  # noqa: E402


def load():
    with open(os.path.join(ROOT, "hardware", "power_budget.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert {r["kind"] for r in rows} == {"load", "display", "param", "result"}
    params = dict((r["item"], float(r["value"])) for r in rows if r["kind"] == "param")
    results = dict((r["item"], float(r["result"])) for r in rows if r["kind"] == "result")
    return rows, params, results


def firmware_default_contrast():
    with open(os.path.join(ROOT, "firmware", "store", "config.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "DEFAULTS" for t in node.targets):
            defaults = ast.literal_eval(node.value)
            return defaults["contrast"]
    raise AssertionError("no DEFAULTS in firmware/store/config.py")


def display_ma(p, lit, contrast):
    """Module current from the 3.3 V rail: SSD1309 segment current (contrast/256 of its maximum)
    x 128 segments x lit fraction at the panel voltage, through the module's boost."""
    panel = lit * p["segments"] * p["segment current at contrast 255"] * (contrast + 1) / 256
    return p["display idle current"] + panel * p["panel voltage"] / (p["rail voltage"] * p["boost efficiency"])


def rail_ma(rows, p, contrast):
    total = 0.0
    for r in rows:
        if r["kind"] == "load":
            duty = float(r["duty"])
            assert 0 < duty <= 1
            total += float(r["value"]) * duty
        elif r["kind"] == "display":
            total += display_ma(p, float(r["value"]), contrast)
    return total


def hours(p, rail, capacity=None):
    return (capacity or p["cell capacity"]) * p["usable fraction"] / rail


def test_budget_uses_the_firmware_default_contrast():
    _rows, p, _r = load()
    assert p["contrast"] == firmware_default_contrast()


def test_rows_and_results_recompute():
    rows, p, results = load()
    c = p["contrast"]
    for r in rows:
        if r["kind"] == "load":
            assert abs(float(r["value"]) * float(r["duty"]) - float(r["result"])) < 0.0005, r["item"]
        if r["kind"] == "display":
            assert abs(display_ma(p, float(r["value"]), c) - float(r["result"])) < 0.0005, r["item"]
    rail = rail_ma(rows, p, c)
    assert abs(rail - results["rail current"]) < 0.001
    assert abs(results["cell current"] - rail) < 0.001          # an LDO passes the current through
    assert abs(hours(p, rail) - results["battery life"]) < 0.001
    assert abs(hours(p, rail, p["worn capacity"]) - results["battery life worn cell"]) < 0.001
    assert abs(hours(p, rail_ma(rows, p, 255)) - results["battery life at contrast 255"]) < 0.001


def test_a_tournament_day_on_a_2500_mah_cell_at_the_default_contrast():
    rows, p, _results = load()
    assert p["cell capacity"] == 2500 and p["required hours"] >= 12
    c = firmware_default_contrast()
    assert hours(p, rail_ma(rows, p, c)) >= p["required hours"]
    assert hours(p, rail_ma(rows, p, c), p["worn capacity"]) >= p["required hours"]
    # full contrast would not make it: the default is lowered for the day, not for looks
    assert hours(p, rail_ma(rows, p, 255)) < p["required hours"]


def test_the_panel_model_matches_the_displays_datasheet_scale():
    _rows, p, _r = load()
    full_white = display_ma(p, 1.0, 255)
    assert 150 <= full_white <= 250          # a fully lit 2.42 in panel at full contrast
    assert display_ma(p, 0.2, 255) == pytest.approx(40, abs=5)   # digits at full contrast


def test_every_part_that_draws_is_budgeted():
    rows, _p, _r = load()
    text = " ".join(r["item"] for r in rows if r["kind"] in ("load", "display")).lower()
    for word in ("esp32-s3", "left player's display", "right player's display", "terminal display",
                 "led", "buzzer", "pull-up", "ldo"):
        assert word in text, word


def test_thresholds_fit_the_ldo_and_the_cell():
    names = pinmap.build_names(pinmap.load())
    assert names["BATTERY_EMPTY_MV"] >= 3300           # the rail stays above 3.1 V; the cell keeps a reserve
    assert names["BATTERY_LOW_MV"] - names["BATTERY_EMPTY_MV"] >= 200
    assert names["BATTERY_ABSENT_MV"] < names["BATTERY_EMPTY_MV"]


def test_readme_quotes_the_budget_and_the_run_down_test():
    _rows, p, results = load()
    with open(os.path.join(ROOT, "hardware", "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert "**%.1f h**" % results["battery life"] in readme
    assert "%.1f mA" % results["cell current"] in readme
    assert "%.1f h" % results["battery life worn cell"] in readme
    section = readme.split("### Run-down test", 1)[1].split("\n## ", 1)[0]
    limit = p["cell capacity"] * p["usable fraction"] / p["required hours"]
    assert "%d mA" % int(limit) in section                 # the cell current that fails a build
    assert "12 h" in section and "PASS" in section and "FAIL" in section


def test_sleep_budget_adds_up_and_names_the_devkits_leds():
    """hardware/README.md "Sleep budget": the rows add up to the total it gives, the DevKit's
    LEDs are in it, and the clock without its power LED is the figure the text quotes."""
    with open(os.path.join(ROOT, "hardware", "README.md"), encoding="utf-8") as f:
        text = f.read()
    table = text.split("| load in deep sleep | µA |", 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^\| (.+?) \| (\d+|\?) \|$", table, re.M)
    loads = dict((name, int(v)) for name, v in rows if v != "?")
    assert any("power LED" in name for name in loads) and any("RGB LED" in name for name in loads)
    total = sum(loads.values())
    stated = int(re.search(r"\*\*about ([\d,]+)\*\*", table).group(1).replace(",", ""))
    assert abs(total - stated) <= 0.05 * stated, (total, stated)
    without_led = total - next(v for name, v in loads.items() if "power LED" in name)
    said = float(re.search(r"sleeping clock draws about ([\d.]+) mA", text).group(1))
    assert abs(without_led / 1000.0 - said) <= 0.1, (without_led, said)
    assert without_led < 2000 < total        # the power LED decides the 2 mA budget
