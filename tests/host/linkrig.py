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
    """Copies bytes between the device's pty master and the host's pty master.

    Never blocks on one direction while the other has bytes: both masters are
    non-blocking, each direction has its own queue, and select() waits for whatever
    can move (a device writing replies while the host keeps sending requests would
    otherwise fill both ptys and stop both sides).  Hooks for the fault tests act in
    this thread at the exact byte offset drawn: pull the cable (cut_after), damage a
    byte (corrupt_at), or call a function (at_offset, e.g. to kill a process).
    """

    QUEUE_MAX = 1 << 20          # stop reading a side while this much waits for the other

    def __init__(self, device_fd: int, host_fd: int):
        super().__init__(daemon=True)
        self.device_fd = device_fd
        self.host_fd = host_fd
        self.stop = threading.Event()
        self.cut = False                 # the cable is pulled: nothing gets through
        self.cut_after: int | None = None  # pull it once this many bytes went to the device
        self.at_offset: tuple[int, object] | None = None  # (offset, callable) towards the device
        self.corrupt_at: list[int] = []  # flip one byte at (or after) these offsets to the device
        self.corrupted = 0
        self.to_device = 0
        self.dropped = bytearray()       # what the host sent while the cable was out
        self.to_host = 0
        self.lock = threading.Lock()
        self._queues = {device_fd: bytearray(), host_fd: bytearray()}   # what waits for fd
        self._dead: set[int] = set()

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

    def _from_host(self, data: bytes) -> None:
        if self.at_offset is not None and self.to_device + len(data) >= self.at_offset[0]:
            # pass on exactly the bytes before the offset, then act
            offset, action = self.at_offset
            self.at_offset = None
            head = max(0, offset - self.to_device)
            if head:
                self._from_host(data[:head])
            action()
            data = data[head:]
            if not data:
                return
        if self.cut_after is not None and self.to_device + len(data) >= self.cut_after:
            head = max(0, self.cut_after - self.to_device)
            self.cut_after = None
            if head:
                self._from_host(data[:head])
            data = data[head:]
            self.cut = True
        if self.cut:
            self.dropped += data
            self._queues[self.device_fd].clear()     # what was in the cable is gone too
            return
        data = self._damage(data)
        self.to_device += len(data)
        self._queues[self.device_fd] += data

    def _from_device(self, data: bytes) -> None:
        if self.cut:
            self._queues[self.host_fd].clear()
            return
        self.to_host += len(data)
        self._queues[self.host_fd] += data

    def run(self):
        for fd in (self.device_fd, self.host_fd):
            try:
                os.set_blocking(fd, False)
            except OSError:
                pass
        other = {self.device_fd: self.host_fd, self.host_fd: self.device_fd}
        while not self.stop.is_set():
            queues = self._queues
            readers = [fd for fd in (self.device_fd, self.host_fd)
                       if fd not in self._dead and len(queues[other[fd]]) < self.QUEUE_MAX]
            writers = [fd for fd in (self.device_fd, self.host_fd) if queues[fd]
                       and fd not in self._dead]
            try:
                readable, writable, _ = select.select(readers, writers, [], 0.05)
            except (OSError, ValueError):
                return
            for fd in readable:
                try:
                    data = os.read(fd, 65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    # the other end went away (a killed device): stop polling it
                    if fd == self.device_fd:
                        self._dead.add(fd)
                    continue
                with self.lock:
                    if fd == self.host_fd:
                        self._from_host(data)
                    else:
                        self._from_device(data)
            for fd in writable:
                with self.lock:
                    queue = queues[fd]
                    try:
                        n = os.write(fd, queue)
                    except BlockingIOError:
                        continue
                    except OSError:
                        queue.clear()
                        continue
                    del queue[:n]


def _raw_pty() -> tuple[int, int, str]:
    master, slave = pty.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


class Rig:
    """One simulated device: a folder, a micropython process, a relay and a host port."""

    def __init__(self, folder: Path, args: tuple[str, ...] = (), script: Path = DEVICE_SCRIPT,
                 files: dict[str, bytes] | None = None, path_extra=()):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        for name, data in (files or {}).items():
            path = self.folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        self.args = args
        self.script = script
        self.path_extra = path_extra
        self.proc: subprocess.Popen | None = None

    def start(self):
        self.dev_master, dev_slave, _ = _raw_pty()
        self.host_master, host_slave, self.port = _raw_pty()
        self._host_slave = host_slave   # kept open so that the pty stays up between opens
        env = dict(os.environ, MICROPYPATH=micropypath(self.path_extra),
                   TILECLOCK_DEVICE_DIR=str(self.folder))
        self.proc = subprocess.Popen([micropython_binary(), str(self.script), *self.args],
                                     stdin=dev_slave, stdout=dev_slave, stderr=subprocess.PIPE,
                                     cwd=str(self.folder), env=env)
        os.close(dev_slave)
        self.relay = Relay(self.dev_master, self.host_master)
        self.relay.start()
        return self

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
            for fd in (self.dev_master, self.host_master, self._host_slave):
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
