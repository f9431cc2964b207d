"""The target table (host_tools/targets.py), the lean target's board definition
(boards/TILECLOCK_WROOM) and docs/targets.md agree with each other."""

import re
from pathlib import Path

from host_tools import partitions, targets
from tests.host import esp_firmware

REPO = Path(__file__).resolve().parents[2]
BOARD = REPO / "boards" / "TILECLOCK_WROOM"


def test_each_target_names_what_clockctl_and_the_tests_need():
    assert targets.DEFAULT_TARGET == "s3" and targets.MIN_MICROPYTHON == (1, 26, 0)
    for name, t in targets.TARGETS.items():
        assert (REPO / "firmware" / t["hwconfig"]).is_file(), name
        assert t["code"] in ("littlefs", "frozen") and t["images"] and t["summary"]
        assert t["heap_initial"] <= t["heap_max"]
        assert name in targets.supported_text()
    s3 = targets.TARGETS["s3"]
    assert {m[1] for m in s3["modules"].values()} == {i["psram"] for i in s3["images"].values()}


def test_the_wroom_board_definition_builds_the_image_clockctl_takes():
    header = (BOARD / "mpconfigboard.h").read_text()
    name = re.search(r'#define MICROPY_HW_BOARD_NAME "([^"]+)"', header).group(1)
    assert name == targets.BOARD_NAME_WROOM and name in targets.TARGETS["wroom"]["images"]
    assert name != targets.TARGETS["wroom"]["stock_board"]
    cmake = (BOARD / "mpconfigboard.cmake").read_text()
    assert "set(IDF_TARGET esp32)" in cmake
    assert "set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/manifest.py)" in cmake
    assert ('CONFIG_PARTITION_TABLE_CUSTOM_FILENAME=\\"${MICROPY_BOARD_DIR}/'
            'partitions-tileclock.csv\\"' in cmake)
    # the table that CSV holds is the one the tests' WROOM firmware carries: the port's
    # partitions-4MiBplus.csv with a larger factory app for the frozen firmware, and the
    # filesystem where it was (1.875 MB for the word lists and the logs)
    ours = {p.label: p for p in esp_firmware.TABLE_TILECLOCK_WROOM}
    port = {p.label: p for p in esp_firmware.TABLE_4MIB_PLUS}
    assert set(ours) == set(port) == {"nvs", "phy_init", "factory"}
    assert ours["factory"].offset == port["factory"].offset
    assert ours["factory"].size == 0x210000 > port["factory"].size
    assert partitions.filesystem(esp_firmware.TABLE_TILECLOCK_WROOM, 4 * 1024 * 1024).size \
        == 0x1E0000


def test_docs_cite_the_oldest_accepted_version():
    text = (REPO / "docs" / "targets.md").read_text()
    assert "v%s" % targets.version_text() in text
    for fact in ("MICROPY_VFS_ROM", "partitions-4MiB-romfs.csv", "sdkconfig.spiram_sx",
                 "SPIRAM_OCT", "MICROPY_GC_INITIAL_HEAP_SIZE", "gc_get_max_new_split",
                 "TINYUSB_CDC", "mp_sched_schedule"):
        assert fact in text, fact
