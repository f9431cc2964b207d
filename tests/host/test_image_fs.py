"""The filesystem images of each target (host_tools/image.py): built with littlefs-python
from the firmware compiled by mpy-cross and the published driver, mounted by the real
MicroPython, which runs boot.py from them and imports the firmware the way the target
does."""

import os
import subprocess
from pathlib import Path

import pytest

from host_tools import image
from tests.host.linkrig import micropython_binary
from wordlist_packer.normalise import Profile
from wordlist_packer.pipeline import build_from_lines

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
SIZE = 0x200000


@pytest.fixture(scope="module")
def lexicon():
    return build_from_lines(["ala", "kot", "ma", "pies", "żółw"], Profile.builtin("pl"),
                            name="mini", version="1", date=1700000000)


def _device_sources(target):
    """Module paths a device of `target` must get: every firmware module but main/boot,
    the freeze manifests and the other boards' pin maps."""
    out = set()
    for p in FIRMWARE.rglob("*.py"):
        rel = p.relative_to(FIRMWARE).as_posix()
        if "__pycache__" in p.parts or rel in ("main.py", "boot.py") or p.name == "manifest.py":
            continue
        if "/" not in rel and rel.startswith("hwconfig_"):
            continue
        out.add(rel[:-3])
    return out


def test_s3_image_holds_the_firmware_in_slot_a_and_the_data_beside_it(lexicon):
    data = image.build_image(SIZE, "s3", lexicon=lexicon, config={"lang": "pl"})
    assert len(data) == SIZE
    files = image.list_image(data)
    assert files["main.py"] == (FIRMWARE / "main.py").read_bytes()
    assert files["boot.py"] == (FIRMWARE / "boot.py").read_bytes()
    assert files["fw/slot"] == b"a"
    assert files["lexicon.dawg"] == lexicon and files["config.json"] == b'{"lang": "pl"}'
    slot = {k[len("fw/a/"):-4] for k in files if k.startswith("fw/a/") and k.endswith(".mpy")}
    assert slot == _device_sources("s3") | {"lib/ssd1306", "lib/umqtt/simple"}
    assert all(v[:1] == b"M" for k, v in files.items() if k.endswith(".mpy"))
    assert not [k for k in files if k.endswith(".py") and k not in ("main.py", "boot.py")]
    # the pin map of the image's board, compiled as hwconfig
    assert files["fw/a/hwconfig.mpy"] == image.compile_mpy(FIRMWARE / "hwconfig.py",
                                                           "hwconfig.mpy")


def test_wroom_image_has_no_code_on_the_filesystem_the_image_freezes_it(lexicon):
    files = image.list_image(image.build_image(SIZE, "wroom", lexicon=lexicon,
                                               config={"lang": "pl"}))
    # the list, and the record of its full check (host_tools/listcheck.py)
    assert set(files) == {"config.json", "lexicon.dawg", "lexicon.ok"}
    # what the TILECLOCK_WROOM image must freeze instead (tests/host/test_frozen_manifest.py)
    # (without the hall's publisher and its MQTT client: docs/hall.md, Memory)
    assert {n[:-3] for n in image.frozen_names("wroom")} == \
        (_device_sources("wroom") | {"boot", "main", "ssd1306"}) - \
        {n[:-3] for n in image.HALL_ONLY}


def test_micropython_mounts_the_s3_image_and_boot_py_puts_slot_a_on_the_path(lexicon, tmp_path):
    fs = tmp_path / "fs.bin"
    fs.write_bytes(image.build_image(SIZE, "s3", lexicon=lexicon, config={"lang": "pl"}))
    modules = ["link.handler", "link.fwupdate", "clock.engine", "store.config", "timebase",
               "lexicon", "terminal.flow", "app.services", "hwconfig", "ssd1306",
               "umqtt.simple", "app.hall", "hall.net"]
    env = dict(os.environ, MICROPYPATH=".frozen")
    proc = subprocess.run([micropython_binary(), str(REPO / "tests" / "host" / "image_boot.py"),
                           str(fs), *modules], capture_output=True, text=True,
                          env=env, cwd=str(tmp_path), timeout=60)
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    for name in modules:
        line = [l for l in out.splitlines() if l.startswith("IMPORTED " + name + " ")]
        assert line and line[0].split()[2].startswith("fw/a/"), out   # from the slot
        assert line[0].endswith(".mpy"), out
    assert "VERSION 0.1.0" in out
    assert any(l.startswith("LEXICON ") and int(l.split()[1]) > 0 for l in out.splitlines())
    files = [l for l in out.splitlines() if l.startswith("FILES ")][0].split()[1:]
    assert set(files) == {"boot.py", "main.py", "fw", "lexicon.dawg", "lexicon.ok", "config.json",
                          "logs"}


def test_a_damaged_word_list_is_never_put_into_an_image(lexicon):
    from wordlist_packer.image import ImageError

    bad = bytearray(lexicon)
    bad[-1] ^= 0xFF
    with pytest.raises(ImageError):
        image.data_files(lexicon=bytes(bad))


def test_an_image_that_does_not_fit_is_refused(lexicon):
    with pytest.raises(image.ImageBuildError, match="cannot hold"):
        image.build_image(16 * 4096, "s3", lexicon=lexicon)
    with pytest.raises(image.ImageBuildError):
        image.build_filesystem({}, 4096 * 10 + 1)
