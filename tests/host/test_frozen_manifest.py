"""The lean target's image freezes the firmware: the board's manifest
(boards/TILECLOCK_WROOM/manifest.py) and the firmware's (firmware/manifest.py), read by
MicroPython's own manifest loader (tools/manifestfile.py of ../shared/micropython), freeze
every module firmware/ holds (a new one without a change to the manifest), the WROOM's
pin map as hwconfig and the display driver; the memory tests' unix port freezes the same
(tests/unix_manifest.py), and `clockctl flash` looks for the same names in an image
(host_tools/image.py, frozen_names)."""

import shutil
import sys
from pathlib import Path

import pytest

from host_tools import image
from host_tools.drivers import driver_path
from tests import mpbuild

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
BOARD = REPO / "boards" / "TILECLOCK_WROOM"

pytestmark = pytest.mark.skipif(not mpbuild.available(),
                                reason="no MicroPython source at ../shared/micropython")


def frozen(manifest: Path, tmp_path: Path) -> dict[str, Path]:
    """Frozen path -> source file, as the port's build reads `manifest` (the port's own
    manifest an empty one)."""
    sys.path.insert(0, str(mpbuild.SOURCE / "tools"))
    try:
        import manifestfile
    finally:
        sys.path.pop(0)
    port = tmp_path / "port"
    for rel in ("boards/manifest.py", "variants/standard/manifest.py"):
        (port / rel).parent.mkdir(parents=True, exist_ok=True)
        (port / rel).write_text("")
    m = manifestfile.ManifestFile(manifestfile.MODE_FREEZE, {
        "PORT_DIR": str(port), "BOARD_DIR": str(BOARD), "MPY_DIR": str(mpbuild.SOURCE),
        "MPY_LIB_DIR": str(mpbuild.SOURCE / "lib" / "micropython-lib")})
    m.execute(str(manifest))
    return {f.target_path: Path(f.full_path) for f in m.files()}


def test_the_firmware_manifest_is_the_only_one_in_firmware():
    manifests = sorted(p.relative_to(FIRMWARE).as_posix() for p in FIRMWARE.rglob("manifest.py"))
    assert manifests == ["manifest.py"]         # none inside a package


def test_the_board_freezes_every_module_with_the_wroom_pins_and_the_driver(tmp_path):
    files = frozen(BOARD / "manifest.py", tmp_path)
    assert sorted(files) == image.frozen_names("wroom")
    assert {"clock/engine.py", "main.py", "boot.py"} <= set(files)
    assert not [f for f in files if f.startswith("hwconfig_") or f.endswith("manifest.py")]
    assert files["hwconfig.py"].read_bytes() == (FIRMWARE / "hwconfig_wroom.py").read_bytes()
    assert files["ssd1306.py"].read_bytes() == driver_path("ssd1306").read_bytes()
    for name, source in files.items():
        if name not in ("hwconfig.py", "ssd1306.py"):
            assert source == FIRMWARE / name


def test_the_memory_tests_freeze_the_same_firmware_and_the_harness(tmp_path):
    board = frozen(BOARD / "manifest.py", tmp_path / "board")
    unix = frozen(mpbuild.UNIX_MANIFEST, tmp_path / "unix")
    harness = {p.name for p in mpbuild.HARNESS}
    # and the hall's publisher, which the board leaves out (measured by the memory tests)
    assert {k: v.read_bytes() for k, v in unix.items()
            if k not in harness and k not in image.HALL_ONLY} == \
        {k: v.read_bytes() for k, v in board.items()}
    assert harness <= set(unix) and set(image.HALL_ONLY) <= set(unix)
    assert not set(image.HALL_ONLY) & set(board)


def test_a_new_module_is_frozen_without_a_change_to_the_manifest(tmp_path):
    copy = tmp_path / "tileclock"
    shutil.copytree(FIRMWARE, copy / "firmware",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "build" / "drivers").mkdir(parents=True)
    shutil.copy(driver_path("ssd1306"), copy / "build" / "drivers")
    (copy / "boards").mkdir()
    shutil.copytree(BOARD, copy / "boards" / "TILECLOCK_WROOM")
    (copy / "firmware" / "hal_extra.py").write_text("X = 1\n")
    (copy / "firmware" / "clock" / "turns.py").write_text("Y = 2\n")
    (copy / "firmware" / "alarms").mkdir()
    (copy / "firmware" / "alarms" / "__init__.py").write_text("")
    files = frozen(copy / "boards" / "TILECLOCK_WROOM" / "manifest.py", tmp_path)
    assert {"hal_extra.py", "clock/turns.py", "alarms/__init__.py"} <= set(files)
    assert sorted(files) == image.frozen_names("wroom", copy / "firmware")


def test_a_missing_pin_map_is_a_clear_error(tmp_path):
    manifest = tmp_path / "manifest.py"
    manifest.write_text('include(%r, pins="hwconfig_nowhere.py")\n'
                        % str(FIRMWARE / "manifest.py"))
    with pytest.raises(Exception, match="hwconfig_nowhere.py.: no pin map"):
        frozen(manifest, tmp_path)


def test_the_frozen_interpreter_has_the_firmware_out_of_the_heap_and_the_wroom_pins():
    """Importing the firmware's largest modules from the frozen interpreter takes only
    their objects: no code and no name lands in the heap's qstr pools."""
    import subprocess

    exe = mpbuild.frozen_interpreter(32)
    code = ("import gc, micropython\n"
            "gc.collect(); a = gc.mem_alloc()\n"
            "import boot, clock.engine, terminal.flow, app.device, hwconfig\n"
            "gc.collect(); print(gc.mem_alloc() - a, clock.engine.__file__, "
            "hwconfig.PIN_BUTTON_LEFT)\n"
            "micropython.qstr_info()\n")
    proc = subprocess.run([str(exe), "-X", "heapsize=256K", "-c", code], capture_output=True,
                          text=True, timeout=60, env={"MICROPYPATH": ".frozen"})
    assert proc.returncode == 0, proc.stderr
    heap, where, pin = proc.stdout.split()[:3]
    assert where == "clock/engine.py"                       # the manifest's path
    wroom = {}
    exec((FIRMWARE / "hwconfig_wroom.py").read_text().replace("from micropython import const",
                                                              "const = int"), wroom)
    assert int(pin) == wroom["PIN_BUTTON_LEFT"]
    qstrs = int(proc.stdout.split("n_qstr=")[1].split(",")[0])
    assert qstrs < 20, proc.stdout          # the -c program's own names, not the firmware's
    assert int(heap) < 16 * 1024, heap      # module dicts, classes and functions only


def test_the_frozen_build_follows_firmware_and_manifests(tmp_path, monkeypatch):
    copy = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(mpbuild, "FIRMWARE", copy)
    monkeypatch.setattr(mpbuild, "REPO", tmp_path)
    manifest = tmp_path / "unix_manifest.py"
    manifest.write_text(mpbuild.UNIX_MANIFEST.read_text())
    monkeypatch.setattr(mpbuild, "UNIX_MANIFEST", manifest)
    (tmp_path / "boards" / "TILECLOCK_WROOM").mkdir(parents=True)
    shutil.copy(BOARD / "manifest.py", tmp_path / "boards" / "TILECLOCK_WROOM")
    monkeypatch.setattr(mpbuild, "HARNESS", [])
    first = mpbuild._frozen_stamp(32)
    assert mpbuild._frozen_stamp(32) == first
    (copy / "clock" / "turns.py").write_text("Y = 2\n")          # a new module
    second = mpbuild._frozen_stamp(32)
    assert second != first
    (copy / "timebase.py").write_text((copy / "timebase.py").read_text() + "\n")
    assert mpbuild._frozen_stamp(32) not in (first, second)
    manifest.write_text(manifest.read_text() + "\n")
    assert mpbuild._frozen_stamp(32) != second
