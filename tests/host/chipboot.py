# What a chip does between reset and main.py, for the memory tests and benchmarks
# (tests/host/device_image.py).  The chip's C modules are the fakes, in their own ROM
# image at /chip (outside the heap, as C code is).  As ports/esp32/modules/_boot.py
# does, mount the filesystem partition (esp32.Partition "vfs", here the fake's file of
# the image clockctl wrote), then run boot.py (frozen, else from it), then the test's driver
# (runtime_driver, TC_ARGS) in place of main.py.  The filesystem is mounted at /flash
# rather than / (the host's files stay reachable) and made the current directory: the
# firmware names its files relative to it.

import os
import vfs

import esp32

vfs.mount(esp32.Partition.find(esp32.Partition.TYPE_DATA, label="vfs")[0], "/flash")
os.chdir("/flash")
# boot.py: frozen, else from the filesystem, else none (shared/runtime/pyexec.c,
# pyexec_file_if_exists).  The lean target's image freezes it (the filesystem's folders
# are not on the module path here, so an import finds only a frozen one); the reference
# board's is on its filesystem.
import sys

try:
    import boot  # noqa: F401
except ImportError as e:
    if "boot" not in str(e):
        raise                       # boot.py is there, and an import of its failed
    try:
        f = open("boot.py")
    except OSError:
        f = None
    if f is not None:
        with f:
            exec(f.read(), {"__name__": "__main__"})
        del f
sys.modules.pop("boot", None)       # run as a script, not kept as a module
del os, vfs, sys
import runtime_driver  # noqa: E402,F401
