"""Opening the full Polish image on the simulated chip (the real MicroPython interpreter,
the fakes' esp32.Partition and the device's files): the full check runs once, when the
image is installed, and every later start reads the header and the pages the header
names resident (the ones most lookups read, kept in RAM from then on) only.

The Polish image is built once by the packer into build/pl.dawg (about 12 s; the memory
test uses the same file) and built again when it is not of the current format.
"""

import os
import subprocess

import pytest

from tests import shared
from tests.host import runtime_proc
from tests.host.memory_game import polish_image, polish_sample
from wordlist_packer.image import Image

REPO = runtime_proc.REPO
MAX_OPEN_READS = 2 + 32      # the prefix, the header, the resident pages

SCRIPT = r"""
import sys, time
import esp32
from lexicon import open_partition
from lexicon.reader import read_record, write_record

class Counting:                     # the partition, counting the reads of the flash
    def __init__(self, part):
        self.part = part
        self.reads = 0
    def info(self):
        return self.part.info()
    def ioctl(self, op, arg):
        return self.part.ioctl(op, arg)
    def readblocks(self, block, buf, offset=0):
        self.reads += 1
        return self.part.readblocks(block, buf, offset)

part = Counting(esp32.Partition.find(esp32.Partition.TYPE_DATA, label="lexicon")[0])
t = time.ticks_us()
lex = open_partition(part, verified=read_record("lexicon.ok"))
us = time.ticks_diff(time.ticks_us(), t)
print("first", lex.verified_now, part.reads, us)
if lex.verified_now:
    write_record("lexicon.ok", lex.digest)
part.reads = 0
t = time.ticks_us()
lex = open_partition(part, verified=read_record("lexicon.ok"))
us = time.ticks_diff(time.ticks_us(), t)
print("again", lex.verified_now, part.reads, us)
print("word", lex.check("żółw"), lex.check("ŻÓŁWIA"), lex.check("ŻÓŁWQ"))

# lookups allocate nothing on a 32-bit chip either (small integers only), misses too;
# measured on the file (the fake partition's reads are Python code that allocates)
import gc
from lexicon import open_file
lex = open_file("lexicon.dawg", verified=lex.digest)
with open("words.txt", encoding="utf-8") as f:
    words = [lex.parse(w) for w in f.read().split()]
for w in words:
    lex.lookup(w)
gc.collect()
before = gc.mem_alloc()
reads = lex.reads
for i in range(3):
    for w in words:
        lex.lookup(w)
print("alloc", gc.mem_alloc() - before, lex.reads - reads)
"""


@pytest.mark.slow
def test_opening_the_polish_list_reads_the_header_and_resident_pages(tmp_path):
    data = polish_image().read_bytes()
    size = (len(data) + 0xFFFF) & ~0xFFFF
    device = tmp_path / "dev"
    device.mkdir()
    (device / "partitions.csv").write_text(
        "nvs, data, nvs, 0x9000, 0x6000\nfactory, app, factory, 0x10000, 0x1F0000\n"
        "lexicon, data, 0x40, 0x200000, 0x%x\n" % size)
    (device / "flash-lexicon.bin").write_bytes(data)
    (device / "lexicon.dawg").write_bytes(data)
    script = tmp_path / "open.py"
    script.write_text(SCRIPT, encoding="utf-8")
    env = dict(os.environ, TILECLOCK_DEVICE_DIR=str(device), MICROPYPATH=os.pathsep.join(
        [str(REPO / "firmware"), str(REPO / "host_tools" / "fakes")]))
    img = Image(data)
    words = polish_sample(10007)
    (device / "words.txt").write_text("\n".join(words), encoding="utf-8")
    proc = subprocess.run([str(shared.micropython(32)), str(script)], cwd=device, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = dict((line.split()[0], line.split()[1:]) for line in proc.stdout.splitlines())
    pages = Image(data).header()["pages"]
    first, again = out["first"], out["again"]
    assert first[0] == "True" and int(first[1]) > pages          # the one full check
    assert again[0] == "False" and int(again[1]) <= MAX_OPEN_READS
    assert int(again[1]) == 2 + len(img.resident)                # and the resident pages
    assert out["word"] == ["1", "1", "0"]
    alloc, reads = map(int, out["alloc"])
    assert reads > 100 and alloc == 0       # pages read and checked, nothing allocated
    print("\nopen, Polish list, simulated chip (32-bit unix port): full check %s reads, "
          "%.1f ms; with the recorded digest %s reads, %.2f ms"
          % (first[1], int(first[2]) / 1000, again[1], int(again[2]) / 1000))
