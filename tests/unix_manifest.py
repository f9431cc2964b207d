# The freeze manifest of the memory tests' unix port (tests/mpbuild.py,
# frozen_interpreter()).  Read by MicroPython's manifest loader, never imported.
#
# 1. What the unix port's standard variant freezes anyway (asyncio, mip).
# 2. The firmware as the lean target's image freezes it (boards/TILECLOCK_WROOM/manifest.py:
#    firmware/manifest.py with the WROOM's pin map), and the hall's publisher besides.
# 3. The test harness that stands for the chip's C modules (mpbuild.HARNESS: the fakes of
#    machine, esp32 and the panels, the game driver and its boot file).  On the chip that
#    code is C in flash: frozen here, so that only the objects it makes take heap, and
#    these are what the memory tests report apart as the fakes' share.

import os

include("$(PORT_DIR)/variants/standard/manifest.py")
# with the hall's publisher, which the lean image leaves out: the memory tests measure
# what it would take of the WROOM's heap (docs/hall.md, Memory); a clock without the
# hall settings never imports it, so the game's figures are the image's
include("../firmware/manifest.py", pins="hwconfig_wroom.py", hall=True)

for _name in sorted(os.listdir("../host_tools/fakes")):
    if _name.endswith(".py"):
        module(_name, base_path="../host_tools/fakes")
module("runtime_driver.py", base_path="host")
module("chipboot.py", base_path="host")
