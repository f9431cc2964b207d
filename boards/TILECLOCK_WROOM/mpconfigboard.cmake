# MicroPython board definition of the tileclock's lean target: ESP32_GENERIC with the
# firmware frozen into the image (docs/targets.md).  Build from a MicroPython v1.26.0 (or
# later) checkout with ESP-IDF v5.4.2 sourced, after `python -m host_tools.drivers`
# (the display driver the manifest freezes, into build/drivers/):
#
#   make -C ports/esp32 BOARD_DIR=/path/to/tileclock/boards/TILECLOCK_WROOM submodules
#   make -C ports/esp32 BOARD_DIR=/path/to/tileclock/boards/TILECLOCK_WROOM
#
# and pass build-TILECLOCK_WROOM/firmware.bin to `clockctl flash --target wroom`.
set(IDF_TARGET esp32)

# What the image freezes: the port's own modules and the whole firmware
# (manifest.py beside this file, which includes firmware/manifest.py).
set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/manifest.py)

# The partition table lives beside this file, outside the port's tree: ESP-IDF takes an
# absolute CONFIG_PARTITION_TABLE_CUSTOM_FILENAME as it is, so the setting is written
# with this folder's path into the build folder (ports/esp32/CMakeLists.txt then merges
# every SDKCONFIG_DEFAULTS file into sdkconfig.combined).
set(TILECLOCK_PARTITIONS ${CMAKE_BINARY_DIR}/sdkconfig.tileclock_partitions)
file(WRITE ${TILECLOCK_PARTITIONS}
     "CONFIG_PARTITION_TABLE_CUSTOM_FILENAME=\"${MICROPY_BOARD_DIR}/partitions-tileclock.csv\"\n")

set(SDKCONFIG_DEFAULTS
    boards/sdkconfig.base
    boards/sdkconfig.ble
    ${MICROPY_BOARD_DIR}/sdkconfig.board
    ${TILECLOCK_PARTITIONS}
)
