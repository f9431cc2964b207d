"""The target table (host_tools/targets.py), the lean target's board definition
(boards/TILECLOCK_WROOM) and docs/targets.md agree with each other."""

import re
from pathlib import Path

from host_tools import targets
from tests.host import esp_firmware

REPO = Path(__file__).resolve().parents[2]
BOARD = REPO / "boards" / "TILECLOCK_WROOM"


def test_each_target_names_what_clockctl_and_the_tests_need():
    assert targets.DEFAULT_TARGET == "s3" and targets.MIN_MICROPYTHON == (1, 26, 0)
    for name, t in targets.TARGETS.items():
        assert (REPO / "firmware" / t["hwconfig"]).is_file(), name
        assert t["code"] in ("littlefs", "romfs") and t["images"] and t["summary"]
        assert t["heap_initial"] <= t["heap_max"]
        assert name in targets.supported_text()
    s3 = targets.TARGETS["s3"]
    assert {m[1] for m in s3["modules"].values()} == {i["psram"] for i in s3["images"].values()}


def test_the_wroom_board_definition_builds_the_image_clockctl_takes():
    header = (BOARD / "mpconfigboard.h").read_text()
    assert re.search(r"#define MICROPY_VFS_ROM \(1\)", header)
    name = re.search(r'#define MICROPY_HW_BOARD_NAME "([^"]+)"', header).group(1)
    assert name in targets.TARGETS["wroom"]["images"]
    assert "set(IDF_TARGET esp32)" in (BOARD / "mpconfigboard.cmake").read_text()
    sdk = (BOARD / "sdkconfig.board").read_text()
    assert 'CONFIG_PARTITION_TABLE_CUSTOM_FILENAME="partitions-4MiB-romfs.csv"' in sdk
    # the table that CSV holds (ports/esp32/partitions-4MiB-romfs.csv, v1.26.0) is the
    # one the tests' WROOM firmware carries, with the partition clockctl writes
    labels = {p.label: p for p in esp_firmware.TABLE_4MIB_ROMFS}
    assert labels[targets.TARGETS["wroom"]["romfs_label"]].subtype == 0x8F


def test_docs_cite_the_oldest_accepted_version():
    text = (REPO / "docs" / "targets.md").read_text()
    assert "v%s" % targets.version_text() in text
    for fact in ("MICROPY_VFS_ROM", "partitions-4MiB-romfs.csv", "sdkconfig.spiram_sx",
                 "SPIRAM_OCT", "MICROPY_GC_INITIAL_HEAP_SIZE", "gc_get_max_new_split",
                 "TINYUSB_CDC", "mp_sched_schedule"):
        assert fact in text, fact
