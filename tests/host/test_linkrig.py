"""The test rig's relay between the host's and the device's pseudo-terminals: it must
carry sustained traffic both ways at once (a host that writes a long stream of requests
before reading, while the device writes its replies) without either side stalling."""

import time

from host_tools import link as hl
from tests.host.linkrig import Rig


def test_the_relay_carries_sustained_traffic_both_ways(tmp_path):
    import serial

    requests = b"".join(hl.encode(hl.INFO, seq) for seq in range(1, 3201))
    assert len(requests) > 35000
    with Rig(tmp_path / "dev") as rig:
        port = serial.serial_for_url(rig.port, timeout=0.05, write_timeout=60)
        try:
            port.write(requests)             # all of it before reading a byte
            decoder = hl.Decoder()
            answered = set()
            deadline = time.monotonic() + 120
            while len(answered) < 3200 and time.monotonic() < deadline:
                for status, _, kind, seq, _ in decoder.feed(port.read(65536)):
                    if status == hl.OK and kind == hl.INFO | hl.REPLY:
                        answered.add(seq)
        finally:
            port.close()
        assert len(answered) == 3200, "%d of 3200 answered" % len(answered)
        assert rig.relay.to_device == len(requests) and rig.relay.to_host > 3200 * 100
        assert rig.alive()
