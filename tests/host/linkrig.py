"""Test rig for the link: the firmware's link task in the real MicroPython
interpreter on one pseudo-terminal, the host tools on another, and a relay
thread between the two that can pull the cable or damage a byte.

    with Rig(tmp_path) as rig:          # starts micropython tests/host/link_device.py
        link = Link(rig.port)           # pyserial opens the relay's pty
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEVICE_SCRIPT = REPO / "tests" / "host" / "link_device.py"


def micropython_binary() -> str:
    candidate = Path(sys.executable).parent / "micropython"
    return str(candidate) if candidate.exists() else "micropython"


def micropypath(extra=()) -> str:
    return ":".join([str(REPO / "firmware"), str(REPO / "host_tools" / "fakes"), *map(str, extra),
                     ".frozen"])


class Relay(threading.Thread):
    """Copies bytes between the device's pty master and the host's pty master."""

    def __init__(self, device_fd: int, host_fd: int):
        super().__init__(daemon=True)
        self.device_fd = device_fd
        self.host_fd = host_fd
        self.stop = threading.Event()
        self.cut = False                 # the cable is pulled: nothing gets through
        self.cut_after: int | None = None  # pull it once this many bytes went to the device
        self.corrupt_at: list[int] = []  # flip one byte at (or after) these offsets to the device
        self.corrupted = 0
        self.to_device = 0
        self.dropped = bytearray()       # what the host sent while the cable was out
        self.to_host = 0
        self.lock = threading.Lock()

    def _damage(self, data: bytes) -> bytes:
        if not self.corrupt_at:
            return data
        out = bytearray(data)
        start = self.to_device
        for i in range(len(out)):
            pos = start + i
            if self.corrupt_at and pos >= self.corrupt_at[0] and 0x20 <= out[i] <= 0x7B:
                out[i] ^= 0x01
                self.corrupt_at.pop(0)
                self.corrupted += 1
        return bytes(out)

    def run(self):
        fds = [self.device_fd, self.host_fd]
        while not self.stop.is_set():
            try:
                ready, _, _ = select.select(fds, [], [], 0.05)
            except (OSError, ValueError):
                return
            for fd in ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    continue
                with self.lock:
                    if fd == self.host_fd:
                        if self.cut_after is not None and self.to_device + len(data) >= self.cut_after:
                            self.cut = True
                            self.cut_after = None
                        if self.cut:
                            self.dropped += data
                            continue
                        data = self._damage(data)
                        self.to_device += len(data)
                        target = self.device_fd
                    else:
                        if self.cut:
                            continue
                        self.to_host += len(data)
                        target = self.host_fd
                try:
                    _write_all(target, data)
                except OSError:
                    pass


def _write_all(fd: int, data: bytes):
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
        except BlockingIOError:
            select.select([], [fd], [], 0.05)
            continue
        view = view[n:]


def _raw_pty() -> tuple[int, int, str]:
    master, slave = pty.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


class Rig:
    """One simulated device: a folder, a micropython process, a relay and a host port."""

    def __init__(self, folder: Path, args: tuple[str, ...] = (), script: Path = DEVICE_SCRIPT,
                 files: dict[str, bytes] | None = None, path_extra=(), mpypath: str | None = None,
                 env: dict | None = None):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        for name, data in (files or {}).items():
            path = self.folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        self.args = args
        self.script = script
        self.path_extra = path_extra
        self.mpypath = mpypath          # MICROPYPATH instead of firmware/ + fakes + extras
        self.env = env or {}
        self.proc: subprocess.Popen | None = None

    def start(self):
        self.dev_master, dev_slave, _ = _raw_pty()
        self.host_master, host_slave, self.port = _raw_pty()
        self._host_slave = host_slave   # kept open so that the pty stays up between opens
        self._dev_slave = dev_slave     # kept: a reboot starts the device on the same pty
        self._spawn()
        self.relay = Relay(self.dev_master, self.host_master)
        self.relay.start()
        return self

    def _spawn(self):
        env = dict(os.environ, MICROPYPATH=self.mpypath or micropypath(self.path_extra),
                   TILECLOCK_DEVICE_DIR=str(self.folder), **self.env)
        self.proc = subprocess.Popen([micropython_binary(), str(self.script), *self.args],
                                     stdin=self._dev_slave, stdout=self._dev_slave,
                                     stderr=subprocess.PIPE, cwd=str(self.folder), env=env)

    def reboot(self) -> str:
        """Start the device process again on the same pty (after a reset or a power cut:
        the host's port stays); returns what the old one wrote to stderr."""
        err = ""
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
        self._spawn()
        return err

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> str:
        """Stop the device; returns what it wrote to stderr."""
        err = ""
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
            self.proc = None
        if hasattr(self, "relay"):
            self.relay.stop.set()
            self.relay.join(timeout=2)
            for fd in (self.dev_master, self.host_master, self._host_slave, self._dev_slave):
                try:
                    os.close(fd)
                except OSError:
                    pass
        return err

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def wait_for(predicate, timeout: float = 10.0, what: str = "condition"):
    """Poll predicate until it is true; fail after a deadline (no fixed sleeps)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        select.select([], [], [], 0.02)
    raise AssertionError("timed out waiting for " + what)
