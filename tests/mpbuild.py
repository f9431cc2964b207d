"""The chip-sized test interpreters: MicroPython's unix port built for 32 and 64 bits.

No package registry ships a 32-bit MicroPython, yet only a 32-bit build has the ESP32's
object sizes (4-byte words, 16-byte GC blocks) and its 31-bit small ints.  The source is
the trimmed MicroPython tree beside the repository (`../shared/micropython`, see its
SHARED-README.md); it is copied to `build/mp-src` (the shared tree is read-only) and
built there with `-m32` and without `-m32` (the 64-bit twin, so that both figures come
from one version).  Both builds carry our `romimage` module (tests/mpext/), which maps
a ROMFS image file outside the GC heap, as flash is mapped on the chip, and the ESP32
port's growing heap (MICROPY_GC_SPLIT_HEAP_AUTO; $TILECLOCK_HEAP_MAX bytes in all, else
the heap stays at -X heapsize).  The names of the chip's C modules (machine, esp32) are
static qstrs in them, as in the chip's firmware (chip_names(), from the ESP32 stubs);
the fakes that stand for those modules then leave the heap's qstr pools to the firmware.

    interpreter(32) -> Path of build/micropython-32 (built once, then cached)
    frozen_interpreter(32) -> Path of build/micropython-32-frozen: the same with the
        firmware frozen into it as the lean target's image freezes it, and the test
        harness (tests/unix_manifest.py); built again whenever either changes, from a
        copy of the first build's objects, so that only the frozen modules are compiled
    python -m tests.mpbuild [32|64|32-frozen ...]   build now and print the paths

Standard library only: the test bootstrap calls it before pytest starts.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO.parent / "shared" / "micropython"
BUILD = REPO / "build"
MODULES = REPO / "tests" / "mpext"
GENERATED = BUILD / "mpext"          # MODULES plus chipnames.c, what the build compiles
# The ESP32 API stubs the static check uses (host_tools/bootstrap.py puts them here).
STUBS = REPO / ".venv" / "stubs"          # one folder per target: .venv/stubs/<target>/
CHIP_MODULES = ("machine", "esp32")
# What the unix port must leave out to build without a 32-bit libffi or mbedTLS; the
# rest is the standard variant (asyncio frozen, VfsRom, VfsLfs2, framebuf).
MAKE_FLAGS = ("MICROPY_PY_FFI=0", "MICROPY_PY_BTREE=0", "MICROPY_PY_SSL=0",
              "MICROPY_SSL_MBEDTLS=0")
# The ESP32 port's heap: areas added as needed (ports/esp32/mpconfigport.h sets both);
# tests/mpext/romimage/heapgrow.c says how much the board gives.  py/gc.c's growing code
# calls malloc without <stdlib.h> and adds to a void pointer, which the esp32 port's
# compiler flags allow and the unix port's -Werror does not.
C_FLAGS = ("-DMICROPY_GC_SPLIT_HEAP=1", "-DMICROPY_GC_SPLIT_HEAP_AUTO=1",
           "-include", "stdlib.h", "-Wno-pointer-arith")


class BuildError(RuntimeError):
    pass


def available() -> bool:
    """True when the MicroPython source is beside the repository."""
    return (SOURCE / "py" / "mpconfig.h").exists()


def _say(message: str) -> None:
    print("[mpbuild] " + message, file=sys.stderr, flush=True)


def chip_names() -> list[str]:
    """The names of the chip's C modules `machine` and `esp32` (classes, functions,
    methods, constants, keyword arguments), from the ESP32 stubs.

    On the chip these are static qstrs, compiled into the firmware with the C code; in
    the test interpreters the same modules are Python fakes, whose names would otherwise
    take room in the heap's qstr pools.  chipnames.c makes them static here too."""
    import ast

    from host_tools.targets import TARGETS

    names = set()
    paths = [STUBS / target / (module + ".pyi") for target in sorted(TARGETS)
             for module in CHIP_MODULES]
    missing = [p for p in paths if not p.exists()]
    if missing:
        # Without them the fakes' names would be dynamic and the memory figures wrong.
        raise BuildError("the ESP32 API stubs are missing (%s): run `python3 -m tests`, "
                         "which installs them" % ", ".join(str(p) for p in missing))
    for path in paths:
        module = path.stem
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, (ast.AnnAssign, ast.Assign)):
                for target in ([node.target] if isinstance(node, ast.AnnAssign) else node.targets):
                    if isinstance(target, ast.Name):
                        names.add(target.id)
        names.add(module)
    return sorted(n for n in names if n.isidentifier() and n not in ("self", "cls"))


# The test harness that runs on the simulated chip: the fakes of the chip's C modules, the
# game driver and its boot file (tests/host/device_image.py puts them in the chip's ROM
# image).  The chip has none of it.
HARNESS = (sorted((REPO / "host_tools" / "fakes").glob("*.py"))
           + [REPO / "tests" / "host" / "runtime_driver.py", REPO / "tests" / "host" / "chipboot.py"])


def _names_in(paths) -> set[str]:
    """The identifiers a MicroPython build interns for these sources: names, attributes,
    functions, classes, arguments, imports and identifier-like string constants."""
    import ast

    names = set()
    for path in paths:
        for node in ast.walk(ast.parse(Path(path).read_text())):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.keyword) and node.arg:
                names.add(node.arg)
            elif isinstance(node, ast.alias):
                names.update(node.name.split("."))
                if node.asname:
                    names.add(node.asname)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((getattr(node, "module", None) or "").split("."))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names.add(node.value)
    return {n for n in names if n.isidentifier() and n.isascii()}


def _static_names() -> list[str]:
    return sorted(set(chip_names()) | set(harness_names()))


def harness_names() -> list[str]:
    """The names only the test harness uses (HARNESS less every name in firmware/).

    In the memory tests the harness runs beside the firmware in one heap; its names would
    take slots of the heap's qstr pools, which grow by doubling (20, 40, ... 640 entries,
    py/qstr.c), and move the point where the next pool (1,280 entries, about 9 KB on 32
    bits) is needed some 350 names earlier than on the chip.  Static here, they leave the
    pools to the firmware's own names, as on the chip.  A name the firmware also uses stays
    dynamic: the firmware's count is the chip's."""
    firmware = _names_in(sorted(p for p in (REPO / "firmware").rglob("*.py")
                                if p.name != "manifest.py"))      # the host's, not the chip's
    return sorted(_names_in(HARNESS) - firmware)


def _generate() -> Path:
    """build/mpext: our C modules and chipnames.c (the chip's module names as static
    qstrs), rewritten only when they change."""
    files = {}
    for path in sorted(MODULES.rglob("*")):
        if path.is_file():
            files[path.relative_to(MODULES).as_posix()] = path.read_bytes()
    names = _static_names()
    files["romimage/chipnames.c"] = (
        "// Generated by tests/mpbuild.py: the names of the chip's C modules (machine,\n"
        "// esp32; from the ESP32 stubs), static qstrs here as they are in the chip's\n"
        "// firmware, and the names only the test harness uses, which the chip has not.\n"
        "#include \"py/obj.h\"\n\n"
        "const qstr_short_t romimage_chip_names[] = {\n"
        + "".join("    MP_QSTR_%s,\n" % n for n in names)
        + "};\nconst size_t romimage_chip_names_len = %d;\n" % len(names)).encode()
    mk = files["romimage/micropython.mk"].decode()
    if "chipnames.c" not in mk:
        mk += "SRC_USERMOD_C += $(ROMIMAGE_MOD_DIR)/chipnames.c\n"
    files["romimage/micropython.mk"] = mk.encode()
    for rel, data in files.items():
        target = GENERATED / rel
        if not target.exists() or target.read_bytes() != data:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return GENERATED


def _stamp(bits: int) -> str:
    digest = hashlib.sha256()
    digest.update((SOURCE / "SHARED-README.md").read_bytes())
    for path in sorted(MODULES.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(MODULES).as_posix().encode())
            digest.update(path.read_bytes())
    digest.update(" ".join(MAKE_FLAGS + C_FLAGS).encode())
    digest.update(" ".join(_static_names()).encode())
    digest.update(str(bits).encode())
    return digest.hexdigest()


def binary(bits: int) -> Path:
    return BUILD / ("micropython-%d" % bits)


def _have_m32() -> bool:
    probe = subprocess.run(["gcc", "-m32", "-x", "c", "-o", os.devnull, "-"],
                           input=b"int main(void){return 0;}", capture_output=True)
    return probe.returncode == 0


def _ensure_multilib() -> None:
    if _have_m32():
        return
    if os.geteuid() != 0 or not Path("/usr/bin/apt-get").exists():
        raise BuildError("gcc cannot build 32-bit programs: install gcc-multilib "
                         "(apt-get install gcc-multilib)")
    _say("installing gcc-multilib with apt-get")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(["apt-get", "install", "-y", "-qq", "gcc-multilib"], env=env,
                      capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "gcc-multilib"], env=env,
                       capture_output=True)
    if not _have_m32():
        raise BuildError("gcc-multilib could not be installed: no 32-bit interpreter")


def _make(args: list[str], log: Path) -> None:
    with log.open("ab") as out:
        result = subprocess.run(["make", "-j%d" % max(2, os.cpu_count() or 2), *args],
                                stdout=out, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        tail = log.read_text(errors="replace")[-3000:]
        raise BuildError("building MicroPython failed (%s):\n%s" % (log, tail))


def _source_copy() -> Path:
    src = BUILD / "mp-src"
    marker = src / ".copied-from"
    wanted = hashlib.sha256((SOURCE / "SHARED-README.md").read_bytes()).hexdigest()
    if marker.exists() and marker.read_text() == wanted:
        return src
    if src.exists():
        for folder, _dirs, _files in os.walk(src):
            os.chmod(folder, 0o755)
        shutil.rmtree(src)
    _say("copying %s to %s" % (SOURCE, src))
    shutil.copytree(SOURCE, src, symlinks=True)
    for folder, _dirs, _files in os.walk(src):
        os.chmod(folder, 0o755)         # the shared tree is read-only; the build writes here
    marker.write_text(wanted)
    return src


def interpreter(bits: int) -> Path:
    """The unix-port MicroPython for `bits` (32 or 64), built on first use."""
    if bits not in (32, 64):
        raise ValueError("bits must be 32 or 64")
    if not available():
        raise BuildError("no MicroPython source at %s (see the README: ../shared)" % SOURCE)
    out = binary(bits)
    stamp_file = out.with_name(out.name + ".stamp")
    stamp = _stamp(bits)
    if out.exists() and stamp_file.exists() and stamp_file.read_text() == stamp:
        return out
    BUILD.mkdir(exist_ok=True)
    with open(BUILD / ".mpbuild.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if out.exists() and stamp_file.exists() and stamp_file.read_text() == stamp:
            return out
        if bits == 32:
            _ensure_multilib()
        src = _source_copy()
        log = BUILD / ("mpbuild-%d.log" % bits)
        log.write_text("")
        _say("building the %d-bit MicroPython unix port (about a minute)" % bits)
        _make(["-C", str(src / "mpy-cross")], log)
        variant_build = "build-%d" % bits
        # from scratch: generated files (the frozen modules' qstrs) depend on the names
        # that are static, which chipnames.c changes
        shutil.rmtree(src / "ports" / "unix" / variant_build, ignore_errors=True)
        flags = ["BUILD=" + variant_build, "USER_C_MODULES=" + str(_generate()), *MAKE_FLAGS]
        cflags = list(C_FLAGS)
        if bits == 32:
            cflags.append("-m32")
            flags.append("LDFLAGS_EXTRA=-m32")
        flags.append("CFLAGS_EXTRA=" + " ".join(cflags))
        _make(["-C", str(src / "ports" / "unix"), *flags], log)
        built = src / "ports" / "unix" / variant_build / "micropython"
        shutil.copy2(built, out)
        stamp_file.write_text(stamp)
    return out


# The firmware frozen into the test interpreter: the manifest (the same firmware manifest,
# with the same options, as boards/TILECLOCK_WROOM/manifest.py) and what it reads.
UNIX_MANIFEST = REPO / "tests" / "unix_manifest.py"
FIRMWARE = REPO / "firmware"


def _frozen_inputs() -> list[Path]:
    """Every file the frozen build reads besides MicroPython's own: the manifests, all of
    firmware/ (the manifest freezes whatever it holds), the display driver and the test
    harness (tests/unix_manifest.py freezes it too: it stands for the chip's C code)."""
    from host_tools.drivers import driver_dir

    files = [UNIX_MANIFEST, REPO / "boards" / "TILECLOCK_WROOM" / "manifest.py"]
    files += sorted(p for p in FIRMWARE.rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts)
    files += sorted(driver_dir().rglob("*.py")) + list(HARNESS)
    return files


def _frozen_stamp(bits: int) -> str:
    """The base interpreter's stamp and a hash of the frozen build's inputs."""
    digest = hashlib.sha256(_stamp(bits).encode())
    for path in _frozen_inputs():
        digest.update(os.path.relpath(path, REPO).encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def frozen_binary(bits: int) -> Path:
    return BUILD / ("micropython-%d-frozen" % bits)


def frozen_interpreter(bits: int = 32) -> Path:
    """The unix port for `bits` with the firmware frozen (tests/unix_manifest.py), built
    when firmware/ or the manifests changed.

    The first build's objects (interpreter(bits)) are copied with their times and built
    again with FROZEN_MANIFEST: make then compiles only frozen_content.c (the frozen
    modules, their constants and their names in a qstr pool of their own) and links.
    The copy stays for the next firmware change; it is made again only when the base
    interpreter is."""
    interpreter(bits)
    out = frozen_binary(bits)
    stamp_file = out.with_name(out.name + ".stamp")
    stamp = _frozen_stamp(bits)
    if out.exists() and stamp_file.exists() and stamp_file.read_text() == stamp:
        return out
    with open(BUILD / ".mpbuild.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if out.exists() and stamp_file.exists() and stamp_file.read_text() == stamp:
            return out
        src = _source_copy()
        unix = src / "ports" / "unix"
        base_build = unix / ("build-%d" % bits)
        frozen_build = unix / ("build-%d-frozen" % bits)
        base_marker = frozen_build / ".base-stamp"
        base_stamp = _stamp(bits)
        if not (base_marker.exists() and base_marker.read_text() == base_stamp):
            shutil.rmtree(frozen_build, ignore_errors=True)
            if base_build.is_dir():
                shutil.copytree(base_build, frozen_build, symlinks=True)   # times kept
            else:           # the binary was kept without its objects: make builds them all
                frozen_build.mkdir(parents=True)
            base_marker.write_text(base_stamp)
        log = BUILD / ("mpbuild-%d-frozen.log" % bits)
        log.write_text("")
        _say("freezing the firmware into the %d-bit unix port" % bits)
        flags = ["BUILD=" + frozen_build.name, "USER_C_MODULES=" + str(_generate()),
                 "FROZEN_MANIFEST=" + str(UNIX_MANIFEST), *MAKE_FLAGS]
        cflags = list(C_FLAGS)
        if bits == 32:
            cflags.append("-m32")
            flags.append("LDFLAGS_EXTRA=-m32")
        flags.append("CFLAGS_EXTRA=" + " ".join(cflags))
        _make(["-C", str(unix), *flags], log)
        shutil.copy2(frozen_build / "micropython", out)
        stamp_file.write_text(stamp)
    return out


def main(argv: list[str]) -> int:
    for arg in argv or ["32", "64"]:
        bits, _, frozen = arg.partition("-")
        print(frozen_interpreter(int(bits)) if frozen else interpreter(int(bits)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
