// The tileclock's lean target (docs/targets.md): the generic ESP32 board with ROMFS.
// The board name is ESP32_GENERIC's, which `clockctl flash --target wroom` expects in
// the image's banner; the ROMFS partition is what tells this image from the stock one.
#define MICROPY_HW_BOARD_NAME "Generic ESP32 module"
#define MICROPY_HW_MCU_NAME "ESP32"

// Mount the "romfs" partition at /rom at start-up and run .mpy files from it in place
// (py/mpconfig.h defaults this to 0, and no stock ESP32 board sets it).
#define MICROPY_VFS_ROM (1)
