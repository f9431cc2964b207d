// The tileclock's lean target (docs/targets.md): the generic ESP32 board with the
// firmware frozen into the image (manifest.py beside this file).  The board name is the
// one `clockctl flash --target wroom` looks for in the image's banner
// (host_tools/targets.py, BOARD_NAME_WROOM): a stock ESP32_GENERIC image is refused.
#define MICROPY_HW_BOARD_NAME "Tileclock ESP32-WROOM"
#define MICROPY_HW_MCU_NAME "ESP32"
