"""The lean target (ESP32-WROOM, no PSRAM) runs the whole game with the full Polish list
in a 96 KB heap on the 32-bit interpreter, its firmware in ROM exactly as `clockctl image
--target wroom` writes it: the ROMFS image mapped outside the heap and mounted at /rom,
the LittleFS image (boot.py, main.py, the word list) mounted as the port mounts its
filesystem partition (tests/host/device_image.py).  The chip's C modules are the fakes,
whose objects count against the same heap as a margin for the chip's own.

The 64-bit twin, built from the same MicroPython source, gives the figures in 64-bit
objects.  Figures: docs/runtime.md, Memory; the README; the smallest heap the game
completes in: bench/bench_memory.py --target wroom --down-to 90."""

import pytest

from tests.host import device_image
from tests.host.memory_game import WROOM_HEAP, figures, play, report

KB = 1024
FIRMWARE_PEAK = 60 * KB                    # the firmware's share of the heap, at most


@pytest.mark.slow
def test_wroom_game_with_the_polish_list_fits_96k_on_32_bits(tmp_path):
    images, proc = play("wroom", tmp_path, bits=32, heap=["-X", "heapsize=%d" % WROOM_HEAP])
    f = figures(proc)
    print("\n" + report("wroom, 32-bit, -X heapsize=96K", f))
    assert WROOM_HEAP == 96 * KB
    assert f.origin == "rom"
    assert f.heap <= WROOM_HEAP and f.areas == 1
    assert f.firmware_peak <= FIRMWARE_PEAK
    # no host spoke during the game: the link listened, its server and handler never loaded
    loaded = [line.split()[1:] for line in proc.stdout.splitlines() if line.startswith("K")]
    assert loaded == [["link", "link.listen"]], loaded
    # what the game booted is what clockctl wrote
    assert proc.booted["vfs"] == device_image.sha256(images["vfs"])
    assert proc.booted["rom"] == images["romfs"]


@pytest.mark.slow
def test_wroom_figures_of_the_64_bit_twin(tmp_path):
    _images, proc = play("wroom", tmp_path, bits=64, heap=["-X", "heapsize=2M"])
    f = figures(proc)
    print("\n" + report("wroom, 64-bit twin, -X heapsize=2M", f))
    assert f.origin == "rom"
    assert f.firmware_peak <= 2 * FIRMWARE_PEAK
