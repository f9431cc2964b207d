# MicroPython board definition of the tileclock's lean target: ESP32_GENERIC with ROMFS
# (docs/targets.md).  Build from a MicroPython v1.26.0 (or later) checkout with ESP-IDF
# v5.4.2 sourced:
#
#   make -C ports/esp32 BOARD_DIR=/path/to/tileclock/boards/TILECLOCK_WROOM submodules
#   make -C ports/esp32 BOARD_DIR=/path/to/tileclock/boards/TILECLOCK_WROOM
#
# and pass build-TILECLOCK_WROOM/firmware.bin to `clockctl flash --target wroom`.
set(IDF_TARGET esp32)

set(SDKCONFIG_DEFAULTS
    boards/sdkconfig.base
    boards/sdkconfig.ble
    ${MICROPY_BOARD_DIR}/sdkconfig.board
)
