# Freeze manifest for a custom MicroPython build with the firmware in flash:
#
#   make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/firmware/manifest.py
#
# Frozen bytecode, its constants and its qstrs live in the firmware image (memory-mapped
# flash), so only the objects the code creates take heap.  main.py stays on the
# filesystem (MicroPython starts it from there); config.json, lexicon.dawg and logs/ too.
# The packages' own manifest.py files are frozen along with them (never imported).
# `include`, `package`, `module` and `require` come from MicroPython's manifest loader
# (tools/manifestfile.py); this file is read on the host only, never on the chip.
# See docs/runtime.md, Memory.

# What the port freezes anyway (asyncio, the port's helpers).
include("$(PORT_DIR)/boards/manifest.py")

# The display driver: the same file the tests and the clockctl images use, PyPI's
# micropython-ssd1306 0.3 (a third-party repackaging of MicroPython's own 2020 driver,
# not micropython-lib's `ssd1306`, which require("ssd1306") would take; see
# host_tools/drivers.py).  Fetch it first: `python -m host_tools.drivers` puts it in
# build/drivers/ (paths here are relative to this file).
module("ssd1306.py", base_path="../build/drivers")

for name in ("app", "clock", "lexicon", "link", "render", "store", "terminal"):
    package(name)

for name in ("hal_battery", "hal_buttons", "hal_buzzer", "hal_display", "hal_keypad", "hal_link", "hal_power",
             "hwconfig", "i18n", "lazy", "selftest", "timebase", "version"):
    module(name + ".py")
