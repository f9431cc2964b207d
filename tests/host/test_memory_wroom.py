"""The lean target (ESP32-WROOM, no PSRAM) runs the whole game with the full Polish list
in a 96 KB heap on the 32-bit interpreter, its firmware in ROM exactly as `clockctl image
--target wroom` writes it: the ROMFS image mapped outside the heap and mounted at /rom,
the LittleFS image (boot.py, main.py, the word list) mounted as the port mounts its
filesystem partition (tests/host/device_image.py).  The chip's C modules are the fakes,
whose objects count against the same heap as a margin for the chip's own.

The 64-bit twin, built from the same MicroPython source, gives the figures in 64-bit
objects.  Figures: docs/runtime.md, Memory; the README."""

import pytest

from host_tools.targets import TARGETS
from tests.host import device_image
from tests.host.memory_game import WROOM_REACHED, figures, play, report

KB = 1024
HEAP = TARGETS["wroom"]["heap_max"]        # 96 KB
FIRMWARE_PEAK = 60 * KB                    # the firmware's share of it, at most

# What the lean target reaches today, held so that it does not get worse: the whole game
# completes in a 104 KB heap (it does from 98 KB) and the firmware's peak stays within
# 64 KB.
REACHED = WROOM_REACHED
REACHED_FIRMWARE_PEAK = 64 * KB


@pytest.mark.slow
@pytest.mark.xfail(strict=False, reason=(
    "the budget is not met: the game's peak live heap is 89.6 KB (firmware 60.6 KB, "
    "with the link's listening task and asyncio as app.run() holds them; "
    "bench/bench_memory.py --target wroom), but the 96 KB heap fragments and an "
    "allocation of a few hundred bytes fails; the game completes from 98 KB (test below); "
    "docs/runtime.md, Memory"))
def test_wroom_game_with_the_polish_list_fits_96k_on_32_bits(tmp_path):
    images, proc = play("wroom", tmp_path, bits=32)
    f = figures(proc)
    print("\n" + report("wroom, 32-bit, -X heapsize=96K", f))
    assert f.origin == "rom"
    assert f.heap <= HEAP and f.areas == 1
    assert f.firmware_peak <= FIRMWARE_PEAK
    # what the game booted is what clockctl wrote
    assert proc.booted["vfs"] == device_image.sha256(images["vfs"])
    assert proc.booted["rom"] == images["romfs"]


@pytest.mark.slow
def test_wroom_figures_of_the_64_bit_twin(tmp_path):
    _images, proc = play("wroom", tmp_path, bits=64, heap=["-X", "heapsize=2M"])
    f = figures(proc)
    print("\n" + report("wroom, 64-bit twin, -X heapsize=2M", f))
    assert f.origin == "rom"
    assert f.firmware_peak <= 2 * REACHED_FIRMWARE_PEAK



@pytest.mark.slow
def test_wroom_game_completes_in_104k_with_the_firmware_within_64k(tmp_path):
    images, proc = play("wroom", tmp_path, bits=32, heap=["-X", "heapsize=%d" % REACHED])
    f = figures(proc)
    print("\n" + report("wroom, 32-bit, -X heapsize=104K", f))
    assert f.origin == "rom"
    assert f.heap <= REACHED and f.areas == 1
    assert f.firmware_peak <= REACHED_FIRMWARE_PEAK
    # no host spoke during the game: the link listened, its server and handler never loaded
    loaded = [line.split()[1:] for line in proc.stdout.splitlines() if line.startswith("K")]
    assert loaded == [["link", "link.listen"]], loaded
    assert proc.booted["vfs"] == device_image.sha256(images["vfs"])
    assert proc.booted["rom"] == images["romfs"]
