"""Start the firmware under MicroPython with the fakes (for the host tests)."""

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def micropython():
    candidate = Path(sys.executable).parent / "micropython"
    return str(candidate) if candidate.exists() else "micropython"


def mpy_path():
    from host_tools.drivers import driver_dir

    return ":".join([str(REPO / "firmware"), str(REPO / "host_tools" / "fakes"),
                     str(driver_dir()), ".frozen"])


def env_for(device_dir, **extra):
    env = dict(os.environ)
    env["MICROPYPATH"] = mpy_path()
    env["TILECLOCK_DEVICE_DIR"] = str(device_dir)
    env.update({k: str(v) for k, v in extra.items()})
    return env


def start(args, device_dir, heapsize=None, **extra):
    cmd = [micropython()]
    if heapsize:
        cmd += ["-X", "heapsize=" + heapsize]
    cmd += args
    return subprocess.Popen(cmd, cwd=str(device_dir), env=env_for(device_dir, **extra),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def run(args, device_dir, timeout=120, heapsize=None, **extra):
    proc = start(args, device_dir, heapsize, **extra)
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")
