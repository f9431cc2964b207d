"""The reference board (ESP32-S3 with PSRAM, stock ESP32_GENERIC_S3 image) runs the game
with the full Polish list from exactly what `clockctl image --target s3` writes: the
LittleFS image, mounted as the port mounts its filesystem partition, boot.py putting
firmware slot fw/a on the path, the firmware's .mpy files loaded into the heap.  The
heap is the stock image's on that board: a first area of 64 KB
(MICROPY_GC_INITIAL_HEAP_SIZE) growing into the PSRAM as py/gc.c grows it, up to the
N8R2's 2 MB (host_tools/targets.py, docs/targets.md).  On the 32-bit interpreter, with
the chip's object sizes (tests/host/device_image.py)."""

import pytest

from host_tools.targets import TARGETS
from tests.host import device_image
from tests.host.memory_game import figures, hall_config, hall_figures, play, report
from tests.host.mqtt_sink import MqttSink

HEAP_MAX = TARGETS["s3"]["heap_max"]


@pytest.mark.slow
def test_s3_game_with_the_polish_list_on_the_stock_heap(tmp_path):
    images, proc = play("s3", tmp_path, bits=32)
    f = figures(proc)
    print("\n" + report("s3, 32-bit, heap from 64 KB growing to 2 MB", f))
    print("headroom: %d B of the %d B the board gives" % (HEAP_MAX - f.peak, HEAP_MAX))
    assert f.origin == "fw/a"                   # the slot clockctl wrote, via boot.py
    assert f.heap <= HEAP_MAX
    assert f.peak < HEAP_MAX // 4               # room to spare
    assert proc.booted["vfs"] == device_image.sha256(images["vfs"])
    assert proc.booted["rom"] is None


@pytest.mark.slow
def test_s3_game_with_wifi_and_the_hall_publishing(tmp_path):
    """The same game with Wi-Fi (network.WLAN, faked) and the hall's publisher on: the
    network thread, umqtt.simple and its socket to a broker on this computer, a state at
    every press, heartbeats (docs/hall.md)."""
    sink = MqttSink()
    try:
        images, proc = play("s3", tmp_path, bits=32, config=hall_config(tmp_path, sink.port))
    finally:
        sink.close()
    f = figures(proc)
    status, sent, connects, failures, error = hall_figures(proc)
    print("\n" + report("s3, 32-bit, the hall publishing", f))
    print("hall: %s, %d messages acknowledged, %d connections, %d failures; the broker "
          "got %s" % (status, sent, connects, failures, dict(sink.topics)))
    assert status == "up" and connects == 1 and failures == 0, error
    assert sink.topics["tileclock/memtest/12/state"] >= 10 and sent >= 10
    assert f.heap <= HEAP_MAX
    assert f.peak < HEAP_MAX // 4
