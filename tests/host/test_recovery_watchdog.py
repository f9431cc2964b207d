"""A hung task under the real main program (asyncio, hardware watchdog): the
watchdog resets the device, which comes back paused, says it recovered after
a restart, and keeps the time charged up to the last save (under 1 s before
the hang began)."""

import pytest

from tests.host import runtime_proc

LAUNCHER = str(runtime_proc.HERE / "runtime_launcher.py")
DRIVER = str(runtime_proc.HERE / "runtime_driver.py")


@pytest.mark.slow
def test_hung_task_resets_through_the_watchdog_and_the_game_recovers(tmp_path):
    device = tmp_path / "device"
    device.mkdir()
    code, out, err = runtime_proc.run([LAUNCHER], device, timeout=60, TILECLOCK_SIM=1,
                                      TC_HANG_MS=1200, TC_WDT_MS=1000)
    assert "@@tileclock-reset wdt" in err, (code, out, err)
    assert (device / ".sim-reset").read_text() == "wdt"
    hang = [line.split() for line in out.splitlines() if line.startswith("H ")]
    assert hang, out
    left_at_hang = int(hang[0][1])
    assert hang[0][3] == "1" and left_at_hang < 1800000        # the left clock was running
    code, out, err = runtime_proc.run([DRIVER, "check"], device, timeout=60,
                                      TILECLOCK_RESET_CAUSE=3)
    assert code == 0, err
    boot = [line.split() for line in out.splitlines() if line.startswith("B ")][0]
    recovered, paused, restored = boot[1] == "1", boot[2] == "1", int(boot[4])
    assert recovered and paused and boot[6] == "recovered_wdt", boot
    # Saved at least once a second until the loop hung: what was charged
    # before the hang is kept within 1 s; the hang itself (<= the watchdog
    # timeout) is charged to nobody.
    assert 0 <= restored - left_at_hang <= 1000, (left_at_hang, restored)
