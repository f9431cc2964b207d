"""`clockctl hall --broker mqtt://HOST:PORT` against a real Mosquitto (Debian's
mosquitto, installed by host_tools/bootstrap.py): the same three clocks, forged and
replayed messages and result as with the embedded broker."""

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.host.drain import Drain
from tests.host.hall_helpers import HANG_S, PAIRINGS, Hall, free_port, three_tables

MOSQUITTO = os.environ.get("TILECLOCK_MOSQUITTO") or shutil.which("mosquitto") \
    or "/usr/sbin/mosquitto"

if not Path(MOSQUITTO).exists():
    pytest.skip("Mosquitto is not installed (apt-get install -y mosquitto; python -m tests "
                "installs it as root)", allow_module_level=True)


@pytest.fixture
def mosquitto(tmp_path):
    """Mosquitto on a free port of 127.0.0.1 with its own configuration, nothing kept."""
    port = free_port()
    conf = tmp_path / "mosquitto.conf"
    conf.write_text("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n"
                    "log_dest stderr\n" % port)
    proc = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    log = Drain(proc.stderr)        # a line per connection: read, never left to fill
    deadline = time.monotonic() + HANG_S
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                proc.wait()
                raise RuntimeError("mosquitto did not start: %s" % log.text())
            time.sleep(0.05)
    yield port
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def test_three_tables_through_mosquitto(tmp_path, mosquitto):
    (tmp_path / "pairings.csv").write_text(PAIRINGS, encoding="utf-8")
    hall = Hall(tmp_path / "hall", broker="mqtt://127.0.0.1:%d" % mosquitto,
                pairings=tmp_path / "pairings.csv")
    try:
        assert "broker mqtt://127.0.0.1:%d;" % mosquitto in hall.lines[0]
        three_tables(hall, mosquitto)
    finally:
        err = hall.stop()
    assert "Traceback" not in err, err
