"""The provisioning filesystem image: built with littlefs-python from the firmware
compiled by mpy-cross and the published driver, mounted by the real MicroPython."""

import os
import subprocess
from pathlib import Path

import pytest

from host_tools import image
from tests.host.linkrig import micropython_binary
from wordlist_packer.normalise import Profile
from wordlist_packer.pipeline import build_from_lines

REPO = Path(__file__).resolve().parents[2]
SIZE = 0x200000   # the vfs partition of MicroPython's ESP32_GENERIC build


@pytest.fixture(scope="module")
def lexicon():
    return build_from_lines(["ala", "kot", "ma", "pies", "żółw"], Profile.builtin("pl"),
                            name="mini", version="1", date=1700000000)


@pytest.fixture(scope="module")
def fs_image(lexicon, tmp_path_factory):
    data = image.build_image(SIZE, lexicon=lexicon, config={"lang": "pl"})
    path = tmp_path_factory.mktemp("img") / "fs.bin"
    path.write_bytes(data)
    return path


def test_image_is_exactly_the_partition_size_and_holds_the_device_files(fs_image, lexicon):
    data = fs_image.read_bytes()
    assert len(data) == SIZE
    files = image.list_image(data)
    assert files["main.py"] == (REPO / "firmware" / "main.py").read_bytes()
    assert files["lexicon.dawg"] == lexicon
    assert files["config.json"] == b'{"lang": "pl"}'
    assert files["link/handler.mpy"][:1] == b"M" and files["lib/ssd1306.mpy"][:1] == b"M"
    assert "link/handler.py" not in files
    sources = {p.relative_to(REPO / "firmware").as_posix()[:-3]
               for p in (REPO / "firmware").rglob("*.py") if "__pycache__" not in p.parts}
    compiled = {k[:-4] for k in files if k.endswith(".mpy") and not k.startswith("lib/")}
    assert compiled | {"main"} == sources


def test_micropython_mounts_the_image_and_imports_the_firmware_from_it(fs_image, tmp_path):
    modules = ["link.handler", "link.server", "link.files", "clock.engine", "store.config",
               "timebase", "lexicon", "terminal.flow", "app.services", "ssd1306"]
    env = dict(os.environ, MICROPYPATH=".frozen")
    proc = subprocess.run([micropython_binary(), str(REPO / "tests" / "host" / "image_boot.py"),
                           str(fs_image), *modules], capture_output=True, text=True,
                          env=env, cwd=str(tmp_path), timeout=60)
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    for name in modules:
        line = [l for l in out.splitlines() if l.startswith("IMPORTED " + name + " ")]
        assert line and line[0].endswith(".mpy"), out   # loaded from the image, compiled
    assert "VERSION 0.1.0" in out
    assert any(l.startswith("LEXICON ") and int(l.split()[1]) > 0 for l in out.splitlines())
    files = [l for l in out.splitlines() if l.startswith("FILES ")][0].split()[1:]
    assert {"main.py", "lexicon.dawg", "config.json", "lib", "link", "logs"} <= set(files)


def test_a_damaged_word_list_is_never_put_into_an_image(lexicon):
    from wordlist_packer.image import ImageError

    bad = bytearray(lexicon)
    bad[-1] ^= 0xFF
    with pytest.raises(ImageError):
        image.device_files(lexicon=bytes(bad), drivers=())


def test_an_image_that_does_not_fit_is_refused(lexicon):
    with pytest.raises(image.ImageBuildError):
        image.build_image(16 * 4096, lexicon=lexicon)
    with pytest.raises(image.ImageBuildError):
        image.build_filesystem({}, 4096 * 10 + 1)
