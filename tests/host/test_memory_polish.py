"""The whole firmware running a game with the full Polish word list in a 100 KB
MicroPython heap, its code running in place from a ROMFS image as on a chip whose code
sits in memory-mapped flash (host_tools/romfs.py: the image is built with mpremote's
ROMFS writer and held in memory outside MicroPython's heap; the interpreter runs in the
same process).  The fakes of the chip's C modules (machine, esp32, sim_*), the published
ssd1306 driver and the test driver are in the image too, and their objects count against
the same heap.

The game: presses, pauses, challenges of one to three words typed on the keypad through
the key matrix and judged by the device's word list, then the asyncio tasks of
app.tasks for two seconds of real time.

The ESP32 is a 32-bit chip: "100 KB" is its budget in 32-bit words.  The unix port here
is 64-bit, where every pointer, object header and GC block (32 bytes, not 16) is twice
as large, so the budget is given with MicroPython's own word-size adjusted form,
`-X heapsize=100wK` (100 KB scaled by the word size: 200 KB here, 100 KB on a 32-bit
build).  What that means in 64-bit figures: docs/runtime.md, Memory.

Prints the peak live heap (after gc.collect) sampled every 50 steps of 10 ms and after
every challenge, the highest heap use before collecting at those moments, and the fakes'
share.

The Polish image is built once by the packer into build/pl.dawg (about 60 s).
"""

import subprocess
import sys

import pytest

from tests import shared
from tests.host import runtime_proc

REPO = runtime_proc.REPO
IMAGE = REPO / "build" / "pl.dawg"
WORD_BYTES = 8 if sys.maxsize > 2**32 else 4
HEAP_100K_WORDS = 100 * 1024 * WORD_BYTES // 4     # what -X heapsize=100wK gives
# Regression guard for the figures run (64-bit unix port, code in ROM): the firmware's
# share of the live heap, challenges and asyncio tasks included.
FIRMWARE_BOUND = 120 * 1024


def _polish_image():
    if not IMAGE.exists():
        wordlist = shared.wordlist("pl")
        IMAGE.parent.mkdir(exist_ok=True)
        subprocess.run([sys.executable, "-m", "wordlist_packer", "build", str(wordlist),
                        "--language", "pl", "-o", str(IMAGE)], check=True, cwd=REPO)
    return IMAGE


def _rom_image(tmp_path):
    from host_tools.romfs import build_romfs

    data = build_romfs(extra_dirs=[REPO / "host_tools" / "fakes"],
                       extra_files=[runtime_proc.HERE / "runtime_driver.py"])
    rom = tmp_path / "rom.img"
    rom.write_bytes(data)
    return rom


def _run_game(tmp_path, heapsize):
    """(returncode, stdout, stderr) of a 60 s game with challenges, code from ROM."""
    image = _polish_image()
    rom = _rom_image(tmp_path)
    device = tmp_path / "device"
    device.mkdir()
    (device / "lexicon.dawg").symlink_to(image)
    env = runtime_proc.env_for(device, TC_ARGS="memory 9000")
    env["MICROPYPATH"] = ".frozen"        # nothing from files: /rom is put first
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.run([sys.executable, "-m", "host_tools.romfs", "run", str(rom),
                           "--heapsize", heapsize, "-c", "import runtime_driver"],
                          cwd=device, env=env, capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def _figures(out, err):
    lines = out.splitlines()
    lex = [line for line in lines if line.startswith("L ")]
    assert lex and lex[0].startswith("L pl "), (lex, err[-2000:])
    mem = [line.split() for line in lines if line.startswith("M ")]
    assert mem, err[-2000:]
    peak, total, challenges, words, acceptable, fakes, booted, raw = map(int, mem[0][1:9])
    origin = mem[0][9]
    print("\nheap %d: peak live %d (interpreter, fakes with the simulated panels, test driver: "
          "%d; the firmware: %d, %d after start-up); highest use before collecting %d; "
          "%d challenges of %d words, %d acceptable; code from %s"
          % (total, peak, fakes, peak - fakes, booted - fakes, raw, challenges, words,
             acceptable, origin))
    assert origin == "rom"
    assert challenges > 0 and words >= challenges and 0 < acceptable < challenges
    assert fakes < booted <= peak <= raw <= total
    return peak, total, fakes, booted


@pytest.mark.slow
def test_figures_of_a_game_with_the_polish_list_code_in_rom(tmp_path):
    rc, out, err = _run_game(tmp_path, "2M")
    assert rc == 0, (out[-1500:], err[-1500:])
    peak, _total, fakes, _booted = _figures(out, err)
    assert peak - fakes <= FIRMWARE_BOUND


@pytest.mark.slow
def test_game_with_polish_word_list_fits_a_100k_heap(tmp_path):
    rc, out, err = _run_game(tmp_path, "100wK")
    assert rc == 0, (out[-1500:], err[-1500:])
    peak, total, _fakes, _booted = _figures(out, err)
    assert total <= HEAP_100K_WORDS and peak <= total
