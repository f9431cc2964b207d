"""A Ctrl-C (0x03) on the clock's serial port during a game, and at every moment of boot.

On the chip the UART/USB driver turns 0x03 into KeyboardInterrupt in the running program
unless micropython.kbd_intr(-1) was called; the simulated port does the same
(host_tools/sim/wire.py).  The firmware's link task turns Ctrl-C off while it owns stdin
(firmware/link/server.py), so the game goes on; a firmware that leaves it on stops.
Before the link task starts, boot.py and main.py turn it off at their first lines
(MicroPython turns it on for each of them: the simulator runs them as the chip does,
host_tools/fakes/sim_board.py)."""

from __future__ import annotations

import threading
import time

import pytest
import serial

from tests.host.sim_helpers import Sim
from tests.host.test_sim_link import clockctl, clockctl_until_ok, table_row


def _game_on(port):
    r = clockctl("devices", "--port", port)
    # the devices table's "game" column: "playing" once a clock has run
    return r.returncode == 0 and "playing" in table_row(r.stdout, port)


def _start_game(sim):
    sim.wait_for(lambda s: s["connected"], what="the firmware's channel")
    clockctl_until_ok("devices", "--port", sim.link_port, what="the link")
    sim.post("/api/button", {"name": "left", "down": True})     # held past the debounce
    sim.wait_for(lambda s: _game_on(sim.link_port), what="the game to start")
    sim.post("/api/button", {"name": "left", "down": False})


def _ctrl_c(sim):
    """Send 0x03 and keep the port open until the simulated port has taken it."""
    before = sim.state()["link"]

    def taken(state):
        link = state["link"]
        return (link["to_device"] > before["to_device"]
                or link["interrupts"] > before["interrupts"])

    with serial.serial_for_url(sim.link_port, baudrate=115200, timeout=0.1) as ser:
        ser.write(b"\x03")
        ser.flush()
        sim.wait_for(taken, what="the byte to reach the chip")


def _ctrl_c_until_it_interrupts(sim, tries=20):
    """Send 0x03 until the firmware takes one as Ctrl-C (KeyboardInterrupt).

    The firmware under test turns Ctrl-C on every 20 ms, and the link turns it off again
    when a host speaks (link/listen.py, link/server.py): a byte that comes in between is
    data, as on the chip.  How often that happens depends on how the processes are
    scheduled, so the byte is sent again until one is taken; a firmware that never takes
    one fails."""
    for _ in range(tries):
        before = sim.state()["link"]["interrupts"]
        _ctrl_c(sim)
        if sim.state()["link"]["interrupts"] > before:
            return
    raise AssertionError("no Ctrl-C of %d was taken as one" % tries)


def _redraws(state):
    return state["panels"]["left"]["frames"] + state["panels"]["right"]["frames"]


@pytest.fixture
def device_dir(tmp_path):
    return tmp_path / "device"


def test_ctrl_c_on_the_link_does_not_stop_the_game(device_dir, tmp_path):
    sim = Sim(device_dir, extra=["--link-pty", str(tmp_path / "usb")])
    try:
        _start_game(sim)
        before = sim.state()
        _ctrl_c(sim)
        # The running clock keeps redrawing its time; the chip did not restart.
        after = sim.wait_for(lambda s: _redraws(s) >= _redraws(before) + 3,
                             what="the clock to go on counting")
        assert after["boots"] == 1 and after["status"] == "running", after["log"]
        assert after["link"]["interrupts"] == 0
        assert not any("KeyboardInterrupt" in line for line in after["log"]), after["log"]
        r = clockctl_until_ok("devices", "--port", sim.link_port, what="the link after Ctrl-C")
        assert table_row(r.stdout, sim.link_port)[1] == "ok" and r.stdout.split()[-1] != "", r.stdout
        assert "playing" in table_row(r.stdout, sim.link_port), r.stdout
    finally:
        sim.stop()


def test_without_kbd_intr_a_ctrl_c_stops_the_firmware(device_dir, tmp_path):
    # A firmware that gives Ctrl-C back while the game runs: what the chip then does.
    # (It keeps giving it back: the link's server turns it off when a host first speaks.)
    main = tmp_path / "ctrl_c_main.py"
    main.write_text("import asyncio, micropython, app\n"
                    "async def ctrl_c_on():\n"
                    "    await asyncio.sleep_ms(200)\n"
                    "    print('Ctrl-C is on')\n"
                    "    while True:\n"
                    "        micropython.kbd_intr(3)\n"
                    "        await asyncio.sleep_ms(20)\n"
                    "app.run(extra=(ctrl_c_on(),))\n")
    sim = Sim(device_dir, main=main, extra=["--link-pty", str(tmp_path / "usb")])
    try:
        _start_game(sim)
        sim.wait_for(lambda s: "Ctrl-C is on" in s["log"], what="the firmware to turn Ctrl-C on")
        _ctrl_c_until_it_interrupts(sim)
        state = sim.wait_for(lambda s: s["boots"] == 2, what="the firmware to stop and restart")
        assert any("KeyboardInterrupt" in line for line in state["log"]), state["log"]
        assert state["link"]["interrupts"] == 1
    finally:
        sim.stop()


BOOTS = 5


def test_ctrl_c_at_every_moment_of_boot_does_not_stop_the_clock(device_dir, tmp_path):
    from tests.host.test_link_stalled_host import _info

    sim = Sim(device_dir, extra=["--link-pty", str(tmp_path / "usb")])
    stop = threading.Event()
    sent = [0]

    def burst():
        # 0x03 every millisecond from before the first boot to after the last
        with serial.serial_for_url(sim.link_port, baudrate=115200, timeout=0.1) as ser:
            while not stop.is_set():
                ser.write(b"\x03")
                sent[0] += 1
                time.sleep(0.001)

    sender = threading.Thread(target=burst, daemon=True)
    try:
        sender.start()
        for boot in range(1, BOOTS + 1):
            sim.wait_for(lambda s: s["boots"] == boot and s["link"]["device"],
                         what="boot %d" % boot)
            taken = sim.state()["link"]["to_device"]
            info = _info(sim.link_port)          # the link task owns stdin
            assert info["proto"] == 1
            state = sim.state()
            assert state["link"]["to_device"] > taken + 20, state["link"]  # 0x03 all along
            assert state["boots"] == boot and state["link"]["interrupts"] == 0, state["log"]
            if boot < BOOTS:
                sim.post("/api/power-cut", {})
        stop.set()
        sender.join(timeout=5)
        state = sim.state()
        assert state["boots"] == BOOTS and state["status"] == "running", state["log"]
        assert state["link"]["interrupts"] == 0
        assert [r["why"] for r in state["resets"]] == ["power cut"] * (BOOTS - 1), state["resets"]
        assert not any("KeyboardInterrupt" in line for line in state["log"]), state["log"]
    finally:
        stop.set()
        sim.stop()
