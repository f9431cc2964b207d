# The firmware's freeze manifest, in the form of micropython-lib's manifests: beside the
# packages it names (a package("clock") here is firmware/clock/), read on the host only
# and never put onto a clock (host_tools/image.py leaves every manifest.py out).
#
# It freezes whatever this folder holds when the image is built: every package (a
# folder with an __init__.py) and every module, boot.py and main.py included (the port
# runs a frozen boot.py and main.py as it runs them from the filesystem), less this
# manifest, which only the host reads.  Frozen bytecode, its constants and all its names
# (qstrs) live in the firmware image, in flash: only the objects the code creates take
# heap.
#
# It is included by a board's manifest, which adds what the port freezes anyway:
#
#   boards/TILECLOCK_WROOM/manifest.py    the lean target's image (docs/targets.md)
#   tests/unix_manifest.py                the memory tests' 32-bit unix port (tests/mpbuild.py)
#
# Options (include(..., pins=...)):
#   pins   the board's pin map in this folder (hwconfig.py: the reference board's;
#          hwconfig_wroom.py: the lean target's), frozen as the module `hwconfig`
#
# The pin map of another board than the reference board is frozen from a copy named
# hwconfig.py in build/frozen-pins/<its name>/ (the manifest loader names a module by its
# file), written only when it differs, so that the build's mpy-cross cache holds.
# The display driver is PyPI's micropython-ssd1306 0.3, the one file the tests and the
# clockctl images use (not micropython-lib's `ssd1306`, which require("ssd1306") would
# take; host_tools/drivers.py): fetch it first with `python -m host_tools.drivers`,
# which puts it in build/drivers/.  `metadata`, `options`, `package` and `module` come
# from MicroPython's manifest loader (tools/manifestfile.py), which runs this file with
# this folder as the current directory.

import os

options.defaults(pins="hwconfig.py", hall=True)

# The hall's publisher (docs/hall.md, The clock's side): the network thread, the outbox
# and the device's task, and the MQTT client.  An image without the hall (the lean
# target: boards/TILECLOCK_WROOM, whose heap has no room for it) leaves them out.
HALL_ONLY = ("app/hall.py", "hall/net.py", "hall/outbox.py")

metadata(description="Tileclock: tournament clock and challenge terminal firmware.",
         version="0.1.0")

_HOST_ONLY = ("manifest.py",)


def _pin_map(name):
    """The folder holding `name` as hwconfig.py."""
    if name == "hwconfig.py":
        return "."
    with open(name, "rb") as f:
        data = f.read()
    folder = os.path.join("..", "build", "frozen-pins", name[:-3])
    target = os.path.join(folder, "hwconfig.py")
    try:
        with open(target, "rb") as f:
            same = f.read() == data
    except OSError:
        same = False
    if not same:
        os.makedirs(folder, exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)
    return folder


if not os.path.isfile(options.pins) or not options.pins.startswith("hwconfig"):
    raise ValueError("pins=%r: no pin map of that name in firmware/" % options.pins)

for _entry in sorted(os.listdir(".")):
    if _entry.startswith("."):
        continue                    # an editor's or a tool's file, not the firmware's
    if os.path.isfile(os.path.join(_entry, "__init__.py")):
        if options.hall:
            package(_entry)
        else:
            _files = []
            for _dir, _, _names in os.walk(_entry):
                for _name in _names:
                    _rel = os.path.relpath(os.path.join(_dir, _name), ".").replace(os.sep, "/")
                    if _name.endswith(".py") and _rel not in HALL_ONLY:
                        _files.append(_rel[len(_entry) + 1:])
            package(_entry, files=sorted(_files))
    elif (_entry.endswith(".py") and _entry not in _HOST_ONLY
          and not _entry.startswith("hwconfig")):
        module(_entry)

module("hwconfig.py", base_path=_pin_map(options.pins))
module("ssd1306.py", base_path=os.path.join("..", "build", "drivers"))
# micropython-lib's MQTT client (PyPI micropython-umqtt.simple 1.3.4), the hall's publisher
if options.hall:
    module("umqtt/simple.py", base_path=os.path.join("..", "build", "drivers"))
