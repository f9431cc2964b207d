"""The lean target's firmware in ROM: the ROMFS image (host_tools/romfs.py) mapped
outside the heap on the 32-bit interpreter, and the firmware's manifest."""

import subprocess
from pathlib import Path

from host_tools import image, romfs
from tests import shared

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
MODULES = ("clock.engine", "terminal.flow", "lexicon.reader", "store.config", "render.player")

# Imports the modules and prints "F <first module's file> <live heap growth>".
IMPORT_CODE = """
import gc
gc.collect()
before = gc.mem_alloc()
%s
gc.collect()
print("F", clock.engine.__file__, gc.mem_alloc() - before)
""" % "\n".join("import " + m for m in MODULES)


def _run(interpreter, prelude, cwd):
    proc = subprocess.run([str(interpreter), "-X", "heapsize=1M", "-c", prelude + IMPORT_CODE],
                          cwd=cwd, env={"PATH": "/usr/bin:/bin", "MICROPYPATH": ".frozen"},
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    line = [x for x in proc.stdout.splitlines() if x.startswith("F ")][0].split()
    return line[1], int(line[2])


def test_rom_image_holds_the_wroom_firmware_without_main_boot_and_manifests():
    files = romfs.rom_files("wroom")
    assert "clock/engine.mpy" in files and "lib/ssd1306.mpy" in files
    assert not [f for f in files if f.split("/")[-1] in ("main.mpy", "boot.mpy", "manifest.mpy")]
    assert "hwconfig_wroom.mpy" not in files
    assert all(data[:1] == b"M" for data in files.values())    # .mpy
    assert romfs.firmware_romfs("wroom").startswith(romfs.ROMFS_HEADER)


def test_code_imported_from_rom_stays_out_of_the_heap(tmp_path):
    """On the 32-bit interpreter, the same modules cost far less heap imported in place
    from the ROM image (mapped outside the heap, as flash is) than from .mpy files
    (bytecode copied into the heap)."""
    interpreter = shared.micropython(32)
    rom = tmp_path / "rom.img"
    rom.write_bytes(romfs.firmware_romfs("wroom"))
    mpy = tmp_path / "mpy"
    for rel, data in image.firmware_tree("wroom").items():
        (mpy / rel).parent.mkdir(parents=True, exist_ok=True)
        (mpy / rel).write_bytes(data)
    where, from_rom = _run(interpreter, "import romimage, sys, vfs\n"
                           "vfs.mount(vfs.VfsRom(romimage.map(%r)), '/rom')\n"
                           "sys.path.extend(('/rom', '/rom/lib'))\n" % str(rom), tmp_path)
    assert where == "/rom/clock/engine.mpy"
    where, from_files = _run(interpreter, "import sys\nsys.path[:0] = [%r, %r]\n"
                             % (str(mpy), str(mpy / "lib")), tmp_path)
    assert where.startswith(str(mpy))
    print("\nimporting %s on 32 bits: %d bytes of heap from ROM, %d from .mpy files"
          % (", ".join(MODULES), from_rom, from_files))
    assert from_rom < 0.5 * from_files


def _manifest_calls(path):
    calls = []
    names = ("include", "package", "module", "require", "metadata")
    env = {n: (lambda *a, _n=n, **k: calls.append((_n,) + a)) for n in names}
    exec(compile(path.read_text(), str(path), "exec"), env)
    return calls


def test_the_manifest_sits_beside_the_packages_and_names_every_module():
    manifests = sorted(p.relative_to(FIRMWARE).as_posix() for p in FIRMWARE.rglob("manifest.py"))
    assert manifests == ["manifest.py"]         # none inside a package
    calls = _manifest_calls(FIRMWARE / "manifest.py")
    assert ("include", "$(PORT_DIR)/boards/manifest.py") in calls
    # The driver the tests and images use (host_tools/drivers.py), not micropython-lib's.
    assert ("module", "ssd1306.py") in calls and not any(c[0] == "require" for c in calls)
    packages = {c[1] for c in calls if c[0] == "package"}
    modules = {c[1] for c in calls if c[0] == "module"}
    assert packages == {p.name for p in FIRMWARE.iterdir() if (p / "__init__.py").exists()}
    for name in packages:                        # package("clock") is firmware/clock/
        assert (FIRMWARE / name).is_dir()
    # hwconfig_<target>.py files are the other boards' pin maps: an image carries one
    # of them as hwconfig (host_tools/targets.py)
    assert modules - {"ssd1306.py"} == {p.name for p in FIRMWARE.glob("*.py")
                       if p.name not in ("main.py", "boot.py", "manifest.py")
                       and not p.name.startswith("hwconfig_")}
