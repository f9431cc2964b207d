# Run by the real MicroPython: mount a LittleFS image file through a block
# device, run its boot.py as the chip does at start-up (it puts the firmware
# slot on the path, if the image has one), import the firmware and report.
# argv: image path, then the modules to import.
import sys
import os
import vfs


class FileBlockDevice:
    def __init__(self, path, block_size=4096):
        self.f = open(path, "r+b")
        self.block_size = block_size
        self.f.seek(0, 2)
        self.blocks = self.f.tell() // block_size

    def readblocks(self, n, buf, offset=0):
        self.f.seek(n * self.block_size + offset)
        self.f.readinto(buf)

    def writeblocks(self, n, buf, offset=None):
        if offset is None:
            offset = 0
            # a write of whole blocks is preceded by their erase
        self.f.seek(n * self.block_size + offset)
        self.f.write(buf)
        self.f.flush()

    def ioctl(self, op, arg):
        if op == 4:   # block count
            return self.blocks
        if op == 5:   # block size
            return self.block_size
        if op == 6:   # erase
            self.f.seek(arg * self.block_size)
            self.f.write(b"\xff" * self.block_size)
            return 0
        return 0


image = sys.argv[1]
fs = vfs.VfsLfs2(FileBlockDevice(image))
vfs.mount(fs, "/flash")
os.chdir("/flash")
print("FILES", " ".join(sorted(os.listdir("/flash"))))
sys.path[:] = ["", ".frozen", "/lib"] + [p for p in sys.path[1:] if p.startswith("/") and "fakes" in p]
with open("boot.py") as f:
    exec(f.read(), {"__name__": "__main__"})
for name in sys.argv[2:]:
    __import__(name)
    mod = sys.modules[name]
    f = getattr(mod, "__file__", "?")
    print("IMPORTED", name, f)
import version
print("VERSION", version.VERSION)
with open("lexicon.dawg", "rb") as f:
    print("LEXICON", len(f.read()))
