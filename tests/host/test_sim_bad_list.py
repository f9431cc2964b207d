"""A word list can never stop a clock: the real firmware in the simulator (firmware's
main.py under MicroPython) starts with a crafted list (a header whose length byte was
lowered by one, its CRC recomputed), runs without the judge, its terminal saying the
list is bad, and its link answers and takes a new list (docs/challenge-terminal.md)."""

from __future__ import annotations

import json
import struct
import zlib

from tests.host.lexicon_fixtures import DATA, link_image
from tests.host.sim_helpers import Sim, panel_lines
from tests.host.test_sim_link import clockctl, clockctl_until_ok, table_row


def crafted(good: bytes) -> bytes:
    """The header length's high byte lowered by one, the header CRC recomputed where
    the shorter header ends: every checksum passes, the tables run past the header."""
    data = bytearray(good)
    hlen = struct.unpack_from("<H", data, 6)[0]
    assert hlen >= 256
    data[7] -= 1
    hlen -= 256
    data[hlen - 4:hlen] = struct.pack("<I", zlib.crc32(bytes(data[:hlen - 4])))
    return bytes(data)


def terminal_says(text):
    return lambda s: any(text in line for line in panel_lines(s["panels"]["terminal"]))


def test_a_crafted_list_leaves_a_running_clock_whose_link_takes_a_new_list(tmp_path):
    device = tmp_path / "device"
    device.mkdir()
    (device / "config.json").write_text(json.dumps({"lang": "en"}))
    # (on this list the tables then run past the shorter header: the reader used to
    # raise ValueError there, which stopped the firmware at every start)
    (device / "lexicon.dawg").write_bytes(crafted((DATA / "lexicon_de.dawg").read_bytes()))
    sim = Sim(device, extra=["--link-pty", str(tmp_path / "tileclock-usb")])
    try:
        state = sim.wait_for(terminal_says("Bad word list"), timeout=60,
                             what="the terminal saying the list is bad")
        assert state["boots"] == 1
        port = sim.link_port
        r = clockctl_until_ok("devices", "--port", port, what="clockctl devices")
        assert table_row(r.stdout, port)[1] == "ok", r.stdout
        image = tmp_path / "new.dawg"
        image.write_bytes(link_image("list"))
        r = clockctl("push-lexicon", str(image), "--port", port, "--timeout", "2")
        assert r.returncode == 0, r.stdout + r.stderr
        assert table_row(r.stdout, port)[1:3] == ["ok", "list"], r.stdout
        sim.wait_for(terminal_says("list 7"), what="the new list named on the terminal")
        assert (device / "lexicon.dawg").read_bytes() == image.read_bytes()
        # the crafted list again, over the link: refused, the good one stays
        bad = tmp_path / "bad.dawg"
        bad.write_bytes(crafted(link_image("new")))
        r = clockctl("push-lexicon", str(bad), "--port", port, "--timeout", "2")
        assert r.returncode != 0
        assert (device / "lexicon.dawg").read_bytes() == image.read_bytes()
        assert sim.state()["boots"] == 1
    finally:
        err = sim.stop()
    assert "Traceback" not in err, err[-3000:]
