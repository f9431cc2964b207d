# What a chip does between reset and main.py, for the memory tests and benchmarks
# (tests/host/device_image.py).  The chip's C modules are the fakes, in their own ROM
# image at /chip (outside the heap, as C code is).  As ports/esp32/modules/_boot.py
# does, mount the filesystem partition (esp32.Partition "vfs", here the fake's file of
# the image clockctl wrote), then run boot.py from it if it has one, then the test's driver
# (runtime_driver, TC_ARGS) in place of main.py.  The filesystem is mounted at /flash
# rather than / (the host's files stay reachable) and made the current directory: the
# firmware names its files relative to it.

import os
import vfs

import esp32

vfs.mount(esp32.Partition.find(esp32.Partition.TYPE_DATA, label="vfs")[0], "/flash")
os.chdir("/flash")
# boot.py: frozen, else from the filesystem, else none (shared/runtime/pyexec.c,
# pyexec_file_if_exists); the lean target's image freezes none and its filesystem holds
# no code
try:
    f = open("boot.py")
except OSError:
    f = None
if f is not None:
    with f:
        exec(f.read(), {"__name__": "__main__"})
del f, os, vfs
import runtime_driver  # noqa: E402,F401
