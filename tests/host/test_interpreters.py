"""The chip-sized interpreters built from ../shared/micropython (tests/mpbuild.py)."""

import subprocess

import pytest

from tests import shared


def _run(bits, code, heap="256K"):
    exe = shared.micropython(bits)
    proc = subprocess.run([str(exe), "-X", "heapsize=" + heap, "-c", code],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


@pytest.mark.parametrize("bits,maxsize", [(32, 2**31 - 1), (64, 2**63 - 1)])
def test_word_size(bits, maxsize):
    assert _run(bits, "import sys; print(sys.maxsize)") == [str(maxsize)]


def test_small_ints_are_31_bit_on_the_32_bit_build():
    # 2**30 - 1 is the largest small int on the chip: one more allocates a big int.
    code = ("import gc\n"
            "def f(x):\n"
            "    gc.collect(); a = gc.mem_alloc(); y = x + 1; b = gc.mem_alloc()\n"
            "    z = y + 1; c = gc.mem_alloc()\n"
            "    return b - a, c - b\n"
            "print(*f((1 << 30) - 2))")
    small, big = map(int, _run(32, code))
    assert small == 0 and big > 0


def test_romimage_maps_a_file_outside_the_heap(tmp_path):
    blob = tmp_path / "blob.bin"
    blob.write_bytes(bytes(range(256)) * 1024)
    code = ("import gc, romimage\n"
            "gc.collect(); a = gc.mem_alloc()\n"
            "m = romimage.map(%r)\n"
            "gc.collect(); b = gc.mem_alloc()\n"
            "print(len(m), m[255], b - a)" % str(blob))
    size, last, grown = map(int, _run(32, code, heap="64K"))
    assert size == 256 * 1024 and last == 255 and grown < 256
