# The freeze manifest of the lean target's image (mpconfigboard.cmake names it): what the
# ESP32 port freezes anyway (asyncio, _boot.py and the port's helpers), then the whole
# firmware with the WROOM's pin map as `hwconfig` (firmware/manifest.py, which also
# freezes the display driver from build/drivers/: run `python -m host_tools.drivers`
# first).  The memory tests freeze the same firmware, with the same options, into the
# 32-bit unix port (tests/unix_manifest.py).

include("$(PORT_DIR)/boards/manifest.py")
# Without the hall's publisher: the game leaves no room for it in the lean target's heap
# (docs/hall.md, Memory).
include("../../firmware/manifest.py", pins="hwconfig_wroom.py", hall=False)
