"""The simulator end to end over plain HTTP (no browser): the page's API, the
channel into the firmware process, the fakes inside it, restarts."""

import pytest

from tests.host.sim_helpers import FIXTURE_MAIN, Sim, bar, lit


@pytest.fixture
def sim(tmp_path):
    s = Sim(tmp_path / "device", main=FIXTURE_MAIN)
    yield s
    s.stop()


def booted(n):
    return lambda s: s["connected"] and s["boots"] == n and bar(s["panels"]["terminal"], 16) == 8 * n


def test_buttons_reach_the_irq_and_the_panels_show_it(sim):
    s = sim.wait_for(booted(1), what="first boot drawn")
    assert s["cause"] == "power on"
    assert bar(s["panels"]["terminal"], 8) == 8  # reset_cause() == PWRON_RESET
    assert s["leds"]["status"] == 1 and s["leds"]["left"] == 0
    for _ in range(3):
        assert sim.post("/api/button", {"name": "left", "down": True})["delivered"]
        sim.post("/api/button", {"name": "left", "down": False})
    s = sim.wait_for(lambda s: bar(s["panels"]["left"], 0) == 24, what="three left presses")
    assert bar(s["panels"]["right"], 0) == 0
    assert s["leds"]["left"] == 1  # toggled three times
    text = sim.get("/api/panel/left.txt")
    assert text.split("\n")[0].startswith("#" * 24 + ".")


def test_buzzer_follows_the_challenge_button(sim):
    sim.wait_for(booted(1), what="boot")
    sim.post("/api/button", {"name": "challenge", "down": True})
    s = sim.wait_for(lambda s: s["buzzer"]["on"], what="buzzer on")
    assert s["buzzer"]["freq"] == 2700 and s["buttons_down"] == ["challenge"]
    sim.post("/api/button", {"name": "challenge", "down": False})
    sim.wait_for(lambda s: not s["buzzer"]["on"], what="buzzer off")


def test_keypad_matrix_is_scanned_by_the_firmware(sim):
    sim.wait_for(booted(1), what="boot")
    for key in "12AB":
        sim.post("/api/key", {"key": key, "down": True})
        sim.wait_for(lambda s, k=key: k in s["keys_down"], what="key held")
        # Held long enough for a scan (the fixture scans every 10 ms): wait for the bar.
        n = "12AB".index(key) + 1
        sim.wait_for(lambda s, n=n: bar(s["panels"]["terminal"], 0) == 8 * n, what="key typed")
        sim.post("/api/key", {"key": key, "down": False})
    assert sim.state()["keys_down"] == []


def test_watchdog_bite_restarts_with_the_cause_and_nvs_survives(sim):
    sim.wait_for(booted(1), what="boot")
    sim.post("/api/key", {"key": "#", "down": True})  # the fixture stops feeding
    sim.wait_for(lambda s: bar(s["panels"]["terminal"], 0) == 8, what="# typed")
    sim.post("/api/key", {"key": "#", "down": False})
    s = sim.wait_for(booted(2), what="second boot after the watchdog")
    assert s["cause"] == "watchdog"
    assert bar(s["panels"]["terminal"], 8) == 8 * 3  # WDT_RESET
    assert s["resets"][-1]["why"] == "watchdog reset"


def test_machine_reset_and_power_cut(sim):
    sim.wait_for(booted(1), what="boot")
    sim.post("/api/key", {"key": "*", "down": True})  # held until the scan sees it
    s = sim.wait_for(booted(2), what="boot after machine.reset()")
    assert s["keys_down"] == []  # the new boot starts with the keypad released
    assert bar(s["panels"]["terminal"], 8) == 8 * 5  # SOFT_RESET, as the ESP32 reports it
    sim.post("/api/power-cut", {})
    s = sim.wait_for(booted(3), what="boot after the power cut")
    assert s["cause"] == "power on" and s["resets"][-1]["why"] == "power cut"


def test_battery_voltage_reaches_the_adc(sim):
    s = sim.wait_for(booted(1), what="boot")
    assert bar(s["panels"]["terminal"], 24) == 8 * (3900 // 250)
    assert sim.post("/api/battery", {"mv": 3000})["delivered"]
    s = sim.wait_for(lambda s: bar(s["panels"]["terminal"], 24) == 8 * 12, what="battery bar")
    assert s["battery_mv"] == 3000


def test_bad_requests_are_refused(sim):
    import urllib.error

    with pytest.raises(urllib.error.HTTPError) as err:
        sim.post("/api/key", {"key": "Q", "down": True})
    assert err.value.code == 400
    with pytest.raises(urllib.error.HTTPError) as err:
        sim.get("/api/panel/nothing.txt")
    assert err.value.code == 404


def test_panels_are_dark_until_the_firmware_draws(tmp_path):
    # A firmware that never touches the panels: they stay off, the page says so.
    main = tmp_path / "idle_main.py"
    main.write_text("import time\nwhile True:\n    time.sleep_ms(50)\n")
    s = Sim(tmp_path / "device", main=main)
    try:
        state = s.wait_for(lambda st: st["connected"], what="channel")
        assert all(not p["on"] and lit(p) == 0 for p in state["panels"].values())
    finally:
        s.stop()
