"""`clockctl hall` and `clockctl sim --clocks 3 --broker ... --headless`: three simulated
clocks (the real firmware under MicroPython, network.WLAN faked, real sockets) are live
tables in /tables.json within 10 s, through the hall's embedded broker and through a real
Mosquitto; played through the simulator's API, a press reaches the table; a game finished
while its clock's Wi-Fi is gone reaches the hall once the Wi-Fi is back, and again with the
scores once they are typed and confirmed at its keypad; the referee key raises the alert."""

import json
import time
from pathlib import Path

import pytest

from tests.host.hall_helpers import Hall, wait_for
from tests.host.hall_sim import MOSQUITTO, Mosquitto, SimClocks


def _live(hall, n):
    tables = hall.tables()
    return tables if len(tables) == n and all(t["boot"] >= 1 for t in tables.values()) \
        else None


def _scenario(tmp_path, hall, broker):
    clocks = SimClocks(tmp_path / "sim", 3, broker)
    try:
        try:
            tables = wait_for(lambda: _live(hall, 3), "three live tables")
        except AssertionError:
            raise AssertionError("no three live tables: %s\nsimulator: %s\nhall: %s"
                                 % (hall.tables(), "\n".join(clocks.err[-40:]), hall.lines))
        took = time.monotonic() - clocks.ready_at
        print("three tables %.1f s after the simulator started the clocks (%.1f s after "
              "the command)" % (took, time.monotonic() - clocks.started))
        assert took < 10, "three tables took %.1f s from the clocks' start" % took
        assert sorted(tables) == ["1", "2", "3"]
        devices = {t["device"] for t in tables.values()}
        assert len(devices) == 3
        for t in tables.values():
            assert t["phase"] == 0 and t["left_ms"] == t["right_ms"] and t["list_name"]
        # played from a script: right's press starts the game, left's clock runs
        clocks.press(1, "right")
        wait_for(lambda: hall.tables()["1"]["running"] == 0, "table 1 running on the left")
        # the referee key (# on the idle screen)
        clocks.key(3, "#")
        wait_for(lambda: hall.tables()["3"]["referee"], "the referee called at table 3")
        assert any(a["text"].startswith("referee") for a in hall.tables()["3"]["alerts"])
        # table 2 loses its Wi-Fi, its game ends meanwhile; nothing reaches the hall ...
        clocks.wifi(2, False)
        wait_for(lambda: hall.tables()["2"]["last_seen_ms"] > 11000,
                 "table 2 silent (a heartbeat missed)", timeout=120)
        clocks.finish_game(2)
        assert hall.tables()["2"]["phase"] == 0
        assert not (tmp_path / "hall" / "results.jsonl").exists()
        # ... until it is back: the state as it is now and the result
        clocks.wifi(2, True)
        wait_for(lambda: hall.tables()["2"]["phase"] == 3, "table 2 over, once back")
        results = wait_for(lambda: (tmp_path / "hall" / "results.jsonl").exists()
                           and (tmp_path / "hall" / "results.jsonl").read_text(), "a result")
        record = json.loads(results.splitlines()[0])
        assert record["message"]["table"] == "2" and record["message"]["game"] == 1
        assert record["message"]["score"] is None      # no scores entered at the keypad yet
        # the scores typed and confirmed at the keypad: the same game again, with them
        wait_for(lambda: clocks.shows(2, "Score left:"), "table 2 asking for the scores")
        clocks.type_keys(2, "412#C380#C")
        results = wait_for(lambda: '"score": [412, 380]' in (tmp_path / "hall" /
                                                              "results.jsonl").read_text()
                           and (tmp_path / "hall" / "results.jsonl").read_text(),
                           "the result with the scores")
        record = json.loads(results.splitlines()[-1])
        assert record["message"]["game"] == 1 and record["message"]["score"] == [412, 380]
        msg = record["message"]
        assert msg["final"] == [412 - msg["penalty"][0] - msg["chal_penalty"][0],
                                380 - msg["penalty"][1] - msg["chal_penalty"][1]]
        assert hall.alerts() == []                     # nothing forged, nothing replayed
    finally:
        err = clocks.stop()
    assert "Traceback" not in err, err[-3000:]


@pytest.mark.slow
def test_three_simulated_clocks_through_the_embedded_broker(tmp_path):
    hall = Hall(tmp_path / "hall")
    try:
        _scenario(tmp_path, hall, "mqtt://127.0.0.1:%d" % hall.mqtt_port)
    finally:
        err = hall.stop()
    assert "Traceback" not in err, err


@pytest.mark.slow
@pytest.mark.skipif(not Path(MOSQUITTO).exists(),
                    reason="Mosquitto is not installed (python -m tests installs it as root)")
def test_three_simulated_clocks_through_mosquitto(tmp_path):
    broker = Mosquitto(tmp_path).start()
    try:
        url = "mqtt://127.0.0.1:%d" % broker.port
        hall = Hall(tmp_path / "hall", broker=url)
        try:
            _scenario(tmp_path, hall, url)
        finally:
            err = hall.stop()
        assert "Traceback" not in err, err
    finally:
        broker.stop()
