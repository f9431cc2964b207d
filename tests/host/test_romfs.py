"""The firmware's code outside the heap: the ROMFS image (host_tools/romfs.py) and the
freeze manifest (firmware/manifest.py)."""

import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import romfs

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


def _run(args, cwd, env_path):
    env = {"PATH": "/usr/bin:/bin", "MICROPYPATH": env_path, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    line = [x for x in proc.stdout.splitlines() if x.startswith("F ")][0].split()
    return line[1], int(line[2])


def test_rom_image_holds_the_firmware_without_main_and_manifests():
    files = romfs.rom_files()
    assert "clock/engine.mpy" in files and "lib/ssd1306.mpy" in files
    assert "main.mpy" not in files and "main.py" not in files
    assert not [f for f in files if f.endswith("manifest.mpy")]
    sources = [p for p in FIRMWARE.rglob("*.py") if "__pycache__" not in p.parts
               and p.name not in ("main.py", "boot.py", "manifest.py")]
    assert len(files) == len(sources) + 1                      # + the driver
    assert all(data[:1] == b"M" for data in files.values())    # .mpy
    assert romfs.build_romfs().startswith(romfs.ROMFS_HEADER)


def test_code_imported_from_rom_stays_out_of_the_heap(tmp_path):
    """The same modules cost far less heap imported in place from the ROM image than
    from .mpy files (bytecode copied into the heap)."""
    rom = tmp_path / "rom.img"
    rom.write_bytes(romfs.build_romfs())
    mpy = tmp_path / "mpy"
    for rel, data in romfs.rom_files().items():
        (mpy / rel).parent.mkdir(parents=True, exist_ok=True)
        (mpy / rel).write_bytes(data)
    where, from_rom = _run([sys.executable, "-m", "host_tools.romfs", "run", str(rom),
                            "--heapsize", "100K", "-c", IMPORT_CODE], tmp_path, ".frozen")
    assert where == "/rom/clock/engine.mpy"
    micropython = Path(sys.executable).parent / "micropython"
    where, from_files = _run([str(micropython), "-X", "heapsize=1M", "-c", IMPORT_CODE],
                             tmp_path, str(mpy) + ":.frozen")
    assert where.startswith(str(mpy))
    print("\nimporting %s: %d bytes of heap from ROM, %d from .mpy files"
          % (", ".join(MODULES), from_rom, from_files))
    assert from_rom < 0.7 * from_files


def test_rom_run_refuses_what_is_not_a_romfs_image():
    with pytest.raises(ValueError):
        romfs.run(b"not an image", ["-c", "pass"])


def _manifest_calls():
    calls = []
    names = ("include", "package", "module", "require")
    env = {n: (lambda *a, _n=n, **k: calls.append((_n,) + a)) for n in names}
    exec(compile((FIRMWARE / "manifest.py").read_text(), "manifest.py", "exec"), env)
    return calls


def test_freeze_manifest_freezes_every_firmware_module():
    calls = _manifest_calls()
    assert calls[0] == ("include", "$(PORT_DIR)/boards/manifest.py")
    # The driver the tests and images use (host_tools/drivers.py), not micropython-lib's.
    assert ("module", "ssd1306.py") in calls and not any(c[0] == "require" for c in calls)
    packages = {c[1] for c in calls if c[0] == "package"}
    modules = {c[1] for c in calls if c[0] == "module"}
    assert packages == {p.name for p in FIRMWARE.iterdir() if (p / "__init__.py").exists()}
    # hwconfig_<target>.py files are the other boards' pin maps: an image carries one
    # of them as hwconfig (host_tools/targets.py)
    assert modules - {"ssd1306.py"} == {p.name for p in FIRMWARE.glob("*.py")
                       if p.name not in ("main.py", "boot.py", "manifest.py")
                       and not p.name.startswith("hwconfig_")}
