"""The lean target (ESP32-WROOM, no PSRAM) runs the whole game with the full Polish list,
to its end and both scores typed and confirmed (tests/host/memory_game.py), in 80 KB of
heap on the 32-bit interpreter (the chip gives 96 KB and more), with its firmware frozen as the TILECLOCK_WROOM image freezes it: the unix port built with the
same firmware manifest (tests/mpbuild.py, frozen_interpreter(); tests/unix_manifest.py),
code, constants and names outside the heap; the images `clockctl image --target wroom`
writes: the word list in its partition, the LittleFS filesystem (the name of that
partition, logs/: no code) mounted as the port mounts it (tests/host/device_image.py).  The chip's C modules are the fakes,
whose objects take the same heap: their share (FAKES) is given beside the 80 KB and
reported apart.

The game must not depend on where the next qstr pool starts: it completes after 300
names of no use were interned first, in 80 KB beside the fakes' share (FAKES: the fakes
of the chip's C modules and the simulated panels, which the chip has none of; the
interpreter's own start-up objects count with the 80 KB).  The 64-bit twin's figures
(the same game in 64-bit objects): bench/bench_memory.py --target wroom --bits 64.  Figures: docs/runtime.md,
Memory; the README; the smallest heap the game completes in:
bench/bench_memory.py --target wroom --down-to 70."""

import pytest

from host_tools import image
from tests.host import device_image
from tests.host.memory_game import figures, play, report

KB = 1024
BUDGET = 80 * KB                           # the whole game, the fakes apart
# The fakes' share of the heap (Figures.fakes: the fakes of the chip's C modules, the
# simulated panels and keypad, the interpreter's start-up objects), which the chip has
# none of, given beside the 80 KB; pinned, so that the firmware has exactly its 80 KB.
FAKES = 21 * KB
FIRMWARE_PEAK = 60 * KB                    # the firmware's share of the heap, at most
EXTRA_NAMES = 300
DYNAMIC_QSTRS = 100                        # names the firmware interns while it runs, at most


def _check(images, proc, f, budget=BUDGET):
    assert f.origin == "frozen"
    assert f.heap <= budget and f.areas == 1
    assert f.firmware_peak <= FIRMWARE_PEAK
    # every name of the firmware's code is in the image: only names made while it runs
    # (and the extra ones) take the heap's pools
    assert f.qstrs <= f.extra_names + DYNAMIC_QSTRS, f.qstrs
    # no host spoke during the game: the link listened, its server and handler never loaded
    loaded = [line.split()[1:] for line in proc.stdout.splitlines() if line.startswith("K")]
    assert loaded == [["link", "link.listen"]], loaded
    # what the game booted is what clockctl wrote: a filesystem without code, naming the
    # word list's partition and the record of the list's full check, made by clockctl
    # with the firmware's own check (host_tools/listcheck.py): the first start opens the
    # list by its header, as after an install
    assert proc.booted["vfs"] == device_image.sha256(images["vfs"])
    assert proc.booted["rom"] is None
    files = image.list_image(images["vfs"].read_bytes())
    assert sorted(files) == ["lexicon.ok", "lexicon.slot"] and files["lexicon.slot"] == b"lexa"
    data = images["lexa"].read_bytes()
    hlen = data[6] | data[7] << 8
    assert files["lexicon.ok"] == b"%08x %d" % (int.from_bytes(data[hlen - 4:hlen], "little"),
                                                len(data))


@pytest.mark.slow
def test_wroom_game_with_the_polish_list_fits_80k_beside_the_fakes_on_32_bits(tmp_path):
    images, proc = play("wroom", tmp_path, bits=32, heap=["-X", "heapsize=%d" % (BUDGET + FAKES)])
    f = figures(proc)
    print("\n" + report("wroom, 32-bit, frozen, -X heapsize=80K+fakes", f))
    assert FAKES - KB <= f.fakes <= FAKES, f.fakes
    _check(images, proc, f, BUDGET + FAKES)


@pytest.mark.slow
def test_wroom_game_fits_80k_beside_the_fakes_after_300_other_names(tmp_path):
    images, proc = play("wroom", tmp_path, bits=32,
                        heap=["-X", "heapsize=%d" % (BUDGET + FAKES)], extra_names=EXTRA_NAMES)
    f = figures(proc)
    print("\n" + report("wroom, 32-bit, frozen, -X heapsize=80K+fakes", f))
    assert f.extra_names == EXTRA_NAMES and f.qstrs >= EXTRA_NAMES
    # the fakes took their allowance, no less: the firmware had 80 KB, not more
    assert FAKES - KB <= f.fakes <= FAKES, f.fakes
    _check(images, proc, f, BUDGET + FAKES)
