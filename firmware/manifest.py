# The firmware's manifest, in the form of micropython-lib's manifests: beside the
# packages it names (a package("clock") here means firmware/clock/), read on the host
# only and never put onto a clock (host_tools/image.py leaves every manifest.py out).
#
# It is the freeze manifest of a custom build with the firmware in the image itself:
#
#   make -C ports/esp32 BOARD=ESP32_GENERIC_S3 FROZEN_MANIFEST=/path/to/firmware/manifest.py
#
# Frozen bytecode, its constants and qstrs live in the firmware image (memory-mapped
# flash), so only the objects the code creates take heap.  main.py and boot.py stay on
# the filesystem (MicroPython starts them from there); config.json, lexicon.dawg and
# logs/ too.  The pin map frozen is hwconfig.py, the reference board's; the lean target
# (ESP32-WROOM) runs its firmware from a ROMFS partition instead (docs/targets.md).
# `metadata`, `include`, `require`, `package` and `module` come from MicroPython's
# manifest loader (tools/manifestfile.py).

metadata(description="Tileclock: tournament clock and challenge terminal firmware.",
         version="0.1.0")

# What the port freezes anyway (asyncio, the port's helpers).
include("$(PORT_DIR)/boards/manifest.py")

# The display driver: the same file the tests and the clockctl images use, PyPI's
# micropython-ssd1306 0.3 (a third-party repackaging of MicroPython's own 2020 driver,
# not micropython-lib's `ssd1306`, which require("ssd1306") would take; see
# host_tools/drivers.py).  Fetch it first: `python -m host_tools.drivers` puts it in
# build/drivers/ (paths here are relative to this file).
module("ssd1306.py", base_path="../build/drivers")

# clock: game clock engine (count-down, overtime, challenge window, presets, game log);
# lexicon: reader of the word graph image (docs/wordlist-format.md); terminal: keypad
# word entry, challenge flow, referee menu, challenge log.
for name in ("app", "clock", "lexicon", "link", "render", "store", "terminal"):
    package(name)

for name in ("hal_battery", "hal_buttons", "hal_buzzer", "hal_display", "hal_keypad", "hal_link", "hal_power",
             "hal_rtc",
             "hwconfig", "i18n", "lazy", "selftest", "timebase", "version"):
    module(name + ".py")
