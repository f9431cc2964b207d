"""Power budget (hardware/power_budget.csv): recompute it and check a tournament day."""

import csv
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "hardware"))

import pinmap  # noqa: E402


def load():
    with open(os.path.join(ROOT, "hardware", "power_budget.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    loads = [r for r in rows if r["kind"] == "load"]
    params = dict((r["item"], float(r["value"])) for r in rows if r["kind"] == "param")
    results = dict((r["item"], float(r["result"])) for r in rows if r["kind"] == "result")
    assert {r["kind"] for r in rows} == {"load", "param", "result"}
    return loads, params, results


def compute(loads, params):
    rail = 0.0
    for r in loads:
        duty = float(r["duty"])
        assert 0 < duty <= 1
        rail += float(r["value"]) * duty
    cell = rail * params["rail voltage"] / (params["regulator efficiency"] * params["cell mean voltage"])
    hours = params["cell capacity"] * params["usable fraction"] / cell
    return rail, cell, hours


def test_rows_and_results_recompute():
    loads, params, results = load()
    for r in loads:
        assert abs(float(r["value"]) * float(r["duty"]) - float(r["result"])) < 0.0005, r["item"]
    rail, cell, hours = compute(loads, params)
    assert abs(rail - results["rail current"]) < 0.001
    assert abs(cell - results["cell current"]) < 0.001
    assert abs(hours - results["battery life"]) < 0.001


def test_a_tournament_day_on_one_cell():
    loads, params, results = load()
    assert params["required hours"] >= 12
    assert compute(loads, params)[2] >= params["required hours"]
    # and with a worn 2000 mAh cell
    worn = dict(params, **{"cell capacity": 2000.0})
    assert compute(loads, worn)[2] >= 12


def test_every_part_that_draws_is_budgeted():
    loads, _params, _results = load()
    text = " ".join(r["item"] for r in loads).lower()
    for word in ("esp32", "left player's display", "right player's display", "terminal display",
                 "led", "buzzer", "pull-up"):
        assert word in text, word


def test_thresholds_sit_inside_the_regulator_range():
    names = pinmap.build_names(pinmap.load())
    # the buck-boost regulates down to 2.7 V in; the empty threshold must leave margin above it
    assert names["BATTERY_EMPTY_MV"] >= 3000
    assert names["BATTERY_LOW_MV"] - names["BATTERY_EMPTY_MV"] >= 150
    assert names["BATTERY_ABSENT_MV"] < names["BATTERY_EMPTY_MV"]


def test_readme_quotes_the_budget():
    _loads, _params, results = load()
    with open(os.path.join(ROOT, "hardware", "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert "**%.1f h**" % results["battery life"] in readme
    assert "%.1f mA" % results["cell current"] in readme
