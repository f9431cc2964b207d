# Presets as data, their validation, and each federation's differences
# from the TSO, played out on the engine.

from mpytest import raises
from clock_helpers import MIN, SEC, Table, game
from clock.presets import (DEFAULT_PRESET, FIELDS, PRESETS, PRESET_NAMES, edit_preset,
                           fingerprint_bytes, get_preset, validate_preset)
from clock.engine import CUE_FORFEIT, PHASE_OVER


def test_every_builtin_preset_is_valid_and_complete():
    assert DEFAULT_PRESET == "tso30"
    assert sorted(PRESETS) == sorted(PRESET_NAMES)
    for name in PRESET_NAMES:
        ok, message = validate_preset(PRESETS[name])
        assert ok, name + ": " + message
        assert PRESETS[name]["name"] == name
        for key in FIELDS:
            assert key in PRESETS[name]


def test_get_preset_returns_a_copy():
    preset = get_preset("tso30")
    preset["initial_ms"] = 1000
    assert PRESETS["tso30"]["initial_ms"] == 30 * MIN
    raises(KeyError, get_preset, "blitz")


def test_validation_names_the_bad_field():
    def message(changes):
        preset = get_preset("custom")
        for key in changes:
            preset[key] = changes[key]
        ok, text = validate_preset(preset)
        assert not ok
        return text

    assert message({"initial_ms": 0}).startswith("initial_ms")
    assert message({"initial_ms": True}).startswith("initial_ms")
    assert message({"initial_ms": "30"}).startswith("initial_ms")
    assert message({"overtime_penalty_per": "minute"}).startswith("overtime_penalty_per")
    assert message({"overtime_cap_consequence": "lose"}).startswith("overtime_cap_consequence")
    assert message({"challenge_penalty_kind": "double"}).startswith("challenge_penalty_kind")
    assert message({"challenge_window_ms": -1}).startswith("challenge_window_ms")
    assert message({"name": ""}).startswith("name")
    assert message({"colour": "red"}).startswith("colour")
    assert message({"move_ms": 30 * SEC}).startswith("move_ms")
    incomplete = get_preset("custom")
    del incomplete["late_forfeit_ms"]
    assert validate_preset(incomplete) == (False, "late_forfeit_ms: missing")
    assert not validate_preset([])[0]


def test_an_invalid_edit_is_never_half_applied():
    preset = get_preset("custom")
    error = raises(ValueError, edit_preset, preset, {"initial_ms": 20 * MIN, "overtime_cap_ms": -5})
    assert "overtime_cap_ms" in str(error)
    assert preset == PRESETS["custom"]
    edited = edit_preset(preset, {"initial_ms": 20 * MIN, "name": "club"})
    assert edited["initial_ms"] == 20 * MIN and preset["initial_ms"] == 30 * MIN
    assert Table("custom", {"initial_ms": 45 * SEC}).text(0) == " 00:45"


def test_engine_refuses_an_invalid_preset():
    from timebase import ManualClock
    from clock.engine import Engine

    bad = get_preset("tso30")
    bad["challenge_penalty_points"] = -10
    raises(ValueError, Engine, bad, ManualClock())


def test_fingerprint_changes_with_every_field():
    base = fingerprint_bytes(get_preset("custom"))
    for key, value in (("initial_ms", 1000), ("overtime_penalty_points", 5),
                       ("overtime_penalty_per", "full"), ("overtime_cap_ms", 0),
                       ("overtime_cap_consequence", "none"), ("challenge_window_ms", 0),
                       ("challenge_penalty_kind", "none"), ("challenge_penalty_points", 1),
                       ("late_forfeit_ms", 0), ("name", "other")):
        assert fingerprint_bytes(edit_preset(get_preset("custom"), {key: value})) != base, key
    base = fingerprint_bytes(get_preset("duplicate"))
    for key, value in (("move_ms", 2 * MIN), ("name", "dup")):
        assert fingerprint_bytes(edit_preset(get_preset("custom"), {key: value})) != base, key


def test_nsf_play_can_be_challenged_until_the_opponent_moves():
    table = game("nsf")
    table.press(0)
    table.wait(5 * MIN)
    d = table.show(1)
    assert d.window_open and d.window_s == 0  # no timer: shown as open
    assert table.engine.hold(table.now(), 1) and table.show(0).hold
    table.wait(1 * MIN)
    assert table.show(0).hold  # hold stays until decided
    table.press(1)
    assert not table.engine.start_challenge(table.now(), 1)
    assert not table.show(0).hold


def test_nsf_wrong_challenge_costs_10_points_per_play_and_the_challenger_keeps_the_turn():
    table = game("nsf")
    table.press(0)
    table.engine.start_challenge(table.now(), 1)
    outcome = table.engine.challenge_verdict(table.now(), True, 4)
    assert outcome.penalty_points == 10 and outcome.runs == 1 and not outcome.lost_turn


def test_nsf_overtime_as_tso_10_per_started_minute_forfeit_after_5():
    table = game("nsf")
    table.wait(30 * MIN + 1)
    assert table.show(0).overtime_penalty == 10
    assert table.wait(5 * MIN) & CUE_FORFEIT


def test_naspa_nwl_double_challenge_the_challenger_loses_the_turn():
    table = game("naspa_nwl")
    assert table.text(0) == " 25:00"
    table.wait(10 * SEC)
    table.press(0)
    table.engine.start_challenge(table.now(), 1)
    outcome = table.engine.challenge_verdict(table.now(), True, 2)
    assert outcome.lost_turn and outcome.penalty_points == 0 and outcome.runs == 0
    assert table.engine.on_turn == 0 and table.show(0).running


def test_naspa_csw_wrong_challenge_costs_5_points_per_word():
    table = game("naspa_csw")
    table.press(0)
    table.engine.start_challenge(table.now(), 1)
    outcome = table.engine.challenge_verdict(table.now(), True, 3)
    assert outcome.penalty_points == 15 and outcome.runs == 1


def test_naspa_overtime_cap_is_10_minutes():
    table = game("naspa_csw")
    table.wait(35 * MIN)
    assert table.show(0).overtime_penalty == 100 and not table.show(0).forfeit
    assert table.wait(1) & CUE_FORFEIT


def test_wespa_counts_full_minutes_of_overtime():
    table = game("wespa")
    table.wait(25 * MIN + 59999)
    assert table.show(0).overtime_penalty == 0 and table.show(0).overtime
    table.wait(1)
    assert table.show(0).overtime_penalty == 10


def test_a_cap_without_consequence_never_forfeits():
    table = game("custom", {"overtime_cap_consequence": "none"})
    table.wait(30 * MIN + 95 * MIN)
    assert table.engine.phase != PHASE_OVER and table.show(0).running
    assert table.show(0).overtime_penalty == 950
    assert table.text(0) == "-95:00"
    table.wait(10 * MIN)
    assert table.text(0) == "-99:59"  # the display's limit; the time itself goes on
    assert table.show(0).overtime_ms == 105 * MIN


def test_challenge_kind_none_costs_nothing():
    table = game("custom", {"challenge_penalty_kind": "none"})
    table.press(0)
    table.engine.start_challenge(table.now(), 1)
    outcome = table.engine.challenge_verdict(table.now(), True, 5)
    assert outcome.penalty_points == 0 and outcome.runs == 1


def test_clock_texts_exist_in_every_language():
    from i18n import check_package, tr

    assert check_package("clock") == []
    assert tr("clock", "overtime", "de") == "ZEITÜBERSCHREITUNG" and tr("clock", "forfeit", "en") == "FORFEIT"
