# Configuration, game state in NVS, game log files.

import json
import os

import esp32
import runtime_rig
from mpytest import raises
from store.config import Config
from store.files import exists
from store.gamelog import LogFile
from store.state import GameState


def _read(path):
    with open(path) as f:
        return f.read()


def test_config_rejects_a_bad_value_and_applies_nothing():
    runtime_rig.fresh_dir()
    try:
        c = Config()
        assert c.load() == []
        ok, msg = c.update({"lang": "en", "verdict_ms": 5000})
        assert ok and msg == ""
        stored = _read("config.json")
        ok, msg = c.update({"lang": "pl", "referee_pin": "12a4"})
        assert not ok and "referee_pin" in msg
        assert c.get("lang") == "en"                 # nothing half-applied
        assert _read("config.json") == stored        # file untouched
        for key, value in (("lang", "xx"), ("preset", "blitz"), ("sound_mute", 1),
                           ("sound_forfeit", "yes"), ("verdict_ms", True), ("colour", 1),
                           ("preset_edits", {"initial_ms": 10})):
            ok, msg = c.set(key, value)
            assert not ok and msg.startswith(key), (key, msg)
        assert not exists("config.json.tmp")
    finally:
        runtime_rig.leave()


def test_preset_edits_that_are_no_object_are_refused_with_the_preset_in_any_order():
    runtime_rig.fresh_dir()
    try:
        c = Config()
        assert c.update({"preset_edits": {"initial_ms": 1500000}})[0]
        stored = _read("config.json")
        for edits in (5, "abc", [1], None, True):
            for changes in ({"preset": "tso25", "preset_edits": edits},
                            {"preset_edits": edits, "preset": "tso25"},
                            {"preset_edits": edits}):
                ok, msg = c.update(changes)
                assert not ok and msg == "preset_edits: must be an object", (changes, msg)
        assert c.get("preset") == "tso30" and c.get("preset_edits") == {"initial_ms": 1500000}
        assert _read("config.json") == stored        # nothing changed
    finally:
        runtime_rig.leave()


def test_config_survives_a_reload_and_reports_bad_stored_values():
    runtime_rig.fresh_dir()
    try:
        c = Config()
        assert c.update({"preset": "custom", "preset_edits": {"initial_ms": 1500000}})[0]
        c2 = Config()
        assert c2.load() == []
        assert c2.preset()["initial_ms"] == 1500000 and c2.get("preset") == "custom"
        with open("config.json", "w") as f:
            f.write(json.dumps({"lang": "nb", "multitap_ms": 99, "preset": "tso25"}))
        c3 = Config()
        problems = c3.load()
        assert len(problems) == 1 and "multitap_ms" in problems[0]
        assert c3.get("lang") == "nb" and c3.get("multitap_ms") == 1000
        with open("config.json", "w") as f:
            f.write("{not json")
        c4 = Config()
        assert c4.load() and c4.get("lang") == "de"
    finally:
        runtime_rig.leave()


def test_preset_change_must_accept_the_stored_edits():
    runtime_rig.fresh_dir()
    try:
        c = Config()
        assert c.update({"preset_edits": {"challenge_window_ms": 30000}})[0]
        ok, msg = c.update({"preset_edits": {"overtime_cap_ms": -5}})
        assert not ok and "overtime_cap_ms" in msg
        assert c.preset()["challenge_window_ms"] == 30000
    finally:
        runtime_rig.leave()


def test_sounds_are_quiet_by_default_in_tournament_presets():
    runtime_rig.fresh_dir()
    try:
        c = Config()
        enabled, mute = c.sounds()
        assert not mute and not any(enabled[k] for k in enabled)
        assert c.update({"preset": "custom"})[0]
        enabled, _ = c.sounds()
        assert all(enabled[k] for k in enabled)
        assert c.update({"sound_overtime": False, "sound_mute": True})[0]
        enabled, mute = c.sounds()
        assert mute and not enabled["overtime"] and enabled["forfeit"]
    finally:
        runtime_rig.leave()


def test_game_state_is_written_only_when_it_changed():
    runtime_rig.fresh_dir()
    try:
        esp32.sim_nvs_forget()
        s = GameState(esp32.NVS("tileclock"))
        assert s.load() is None
        assert s.due(0)
        assert s.save(b"abc", 0)
        assert not s.save(b"abc", 100)        # same state: no flash write
        assert not s.due(500) and s.due(1000 - 100 + 100)
        assert s.save(b"abd", 1000)
        assert s.save(b"abd", 1100, b"term")  # the terminal's part is part of the state
        assert s.save(b"abd", 1200, b"term", b'{"seq": 4}')
        assert s.writes == 4
        esp32.sim_nvs_forget()                # power cut
        s2 = GameState(esp32.NVS("tileclock"))
        assert s2.load() == (b"abd", b"term", b'{"seq": 4}')
        assert not s2.save(b"abd", 0, b"term", b'{"seq": 4}')   # what is stored is known after load
        raises(ValueError, s2.save, bytes(2000), 0)
        s2.clear()
        assert GameState(esp32.NVS("tileclock")).load() is None
    finally:
        runtime_rig.leave()


def test_foreign_nvs_record_is_ignored():
    runtime_rig.fresh_dir()
    try:
        esp32.sim_nvs_forget()
        nvs = esp32.NVS("tileclock")
        nvs.set_blob("game", b"XX\x01\x02ab")
        nvs.commit()
        assert GameState(nvs).load() is None
    finally:
        runtime_rig.leave()


def test_game_log_rotates_and_keeps_torn_lines_apart():
    runtime_rig.fresh_dir()
    try:
        log = LogFile("logs/games.jsonl", max_bytes=200)
        assert log.append(['{"n": %d}' % i for i in range(5)]) == 5
        with open("logs/games.jsonl", "a") as f:
            f.write('{"torn')                  # a power cut mid-line
        log.append(['{"n": 5}'])
        lines = _read("logs/games.jsonl").split("\n")
        assert lines[5] == '{"torn' and lines[6] == '{"n": 5}'
        for i in range(30):
            log.append(['{"n": %d, "pad": "xxxxxxxxxxxxxxxxxxxxxxxx"}' % i])
        assert exists("logs/games.1.jsonl")
        assert os.stat("logs/games.jsonl")[6] < 300
        assert not exists("logs/games.2.jsonl")
    finally:
        runtime_rig.leave()
