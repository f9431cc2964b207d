"""The link's rate on the WROOM's UART: negotiated up, falling back on error, over the
chip's simulated wire (host_tools/sim/wire.py: rate, receive buffer, garbled bytes when
the two ends' rates differ)."""

import zlib

import pytest

from host_tools.link import Link
from tests.host.linkrig import Rig


def _push(link, size=20000):
    data = bytes((i * 37 + (i >> 7)) & 0xFF for i in range(size))
    # Not a word list: the device takes the bytes and refuses the commit (E_VERIFY);
    # what matters here is that every chunk crossed the wire intact.
    spec = {"size": len(data), "crc": zlib.crc32(data) & 0xFFFFFFFF, "force": True}
    link.request_json(0x10, spec)
    have = 0
    import struct

    while have < len(data):
        piece = data[have:have + 1000]
        _, reply = link.request(0x11, struct.pack("<IIB", have, zlib.crc32(piece) & 0xFFFFFFFF, 0)
                                + piece)
        have = struct.unpack_from("<I", reply)[0]
    return have


def test_the_link_moves_to_921600_baud_and_stays_there(tmp_path):
    with Rig(tmp_path / "dev", link="uart") as rig:
        with Link(rig.port, timeout=2.0) as link:
            assert link.info()["device"]
            assert link.switch_baud() == 921600
            assert rig.relay.end.device_baud() == 921600 and link.ser.baudrate == 921600
            assert _push(link) == 20000
            # Nothing garbled: both ends switched in step.  (A byte the firmware did not
            # take in time from the 259-byte buffer is lost and the chunk sent again.)
            assert rig.relay.end.garbled == 0


def test_a_bridge_that_cannot_keep_up_falls_back_to_a_rate_it_takes(tmp_path):
    # A bridge that tops out at 460800: 921600 garbles both ways, the device goes
    # back after its probation, the host tries the next rate.
    with Rig(tmp_path / "dev", link="uart", bridge_max=460800) as rig:
        with Link(rig.port, timeout=2.0) as link:
            assert link.switch_baud() == 460800
            assert rig.relay.end.garbled > 0
            assert rig.relay.end.device_baud() == 460800
            assert _push(link) == 20000


@pytest.mark.slow
def test_a_host_that_leaves_finds_the_device_at_115200_again(tmp_path):
    with Rig(tmp_path / "dev", link="uart") as rig:
        with Link(rig.port, timeout=2.0) as link:
            assert link.switch_baud() == 921600
        # The next host opens the port at the boot rate; the device went back after
        # IDLE_REVERT_MS without a good frame (link/server.py).
        with Link(rig.port, timeout=2.0, retries=8) as link:
            link.ser.baudrate = 115200
            deadline_info = None
            for _ in range(20):
                try:
                    deadline_info = link.info()
                    break
                except Exception:
                    continue
            assert deadline_info and rig.relay.end.device_baud() == 115200
