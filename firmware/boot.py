# Run by MicroPython at every start, before main.py.  On the reference board the
# firmware lives in a slot folder, fw/a or fw/b, and fw/slot names the slot in use:
# put it first on the module path.  `clockctl push-firmware` fills the other slot
# and switches by renaming a new fw/slot over the old one (link/fwupdate.py), so a
# power cut leaves one whole firmware or the other.  A board with the firmware in
# its image (the lean target) has no fw/ folder and no boot.py: this file is not frozen.
import sys


def _slot():
    # fw/slot.tmp: a switch cut between its two steps on a filesystem that cannot
    # rename over a file (LittleFS can; store/files.write_atomic)
    for name in ("fw/slot", "fw/slot.tmp"):
        try:
            with open(name) as f:
                slot = f.read().strip()
        except OSError:
            continue
        if slot in ("a", "b"):
            return slot
    return None


_s = _slot()
if _s:
    sys.path[:0] = ["fw/" + _s, "fw/" + _s + "/lib"]
del _slot, _s
