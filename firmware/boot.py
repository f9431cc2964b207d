# Run by MicroPython at every start, before main.py.
#
# Ctrl-C first: while MicroPython runs boot.py and main.py it turns the interrupt
# character on (shared/runtime/pyexec.c, parse_compile_execute, at v1.26.0), and a 0x03
# arriving on the REPL's UART or USB then raises KeyboardInterrupt (ports/esp32/uart.c,
# shared/tinyusb/mp_usbd_cdc.c): the clock would stop at the REPL, with no watchdog armed
# yet to restart it.  Off from the first line here; main.py turns it off again at its
# first line (MicroPython turns it on for main.py), and the link task keeps it off while it
# owns stdin (link/listen.py, server.py): a 0x03 is then data.
import micropython

micropython.kbd_intr(-1)

# On the reference board the
# firmware lives in a slot folder, fw/a or fw/b, and fw/slot names the slot in use:
# put it first on the module path.  `clockctl push-firmware` fills the other slot
# and switches by renaming a new fw/slot over the old one (link/fwupdate.py), so a
# power cut leaves one whole firmware or the other.  A board with the firmware frozen
# in its image (the lean target) runs this file from the image and has no fw/ folder.
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
del _slot, _s, micropython
