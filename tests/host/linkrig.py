"""Test rig for the link: the firmware's link task in the real MicroPython
interpreter on one pseudo-terminal, the host tools on another, and a relay
thread between the two that can pull the cable or damage a byte.  The relay is
the chip's serial port (host_tools/sim/wire.py): Ctrl-C handling always, and with
`link="uart"` / `"usb"` the wire's speed, the chip's receive buffer and its rate.

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

from host_tools.sim.wire import DeviceEnd, tty_baud
from tests.host.drain import Drain

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

    One thread per direction, so that neither direction ever waits on the other (a
    device writing replies while the host keeps sending requests would otherwise fill
    both ptys and stop both sides), and the chip's wire (`end`, host_tools/sim/wire.py:
    Ctrl-C, speed, receive buffer) may hold one direction back without stopping the
    other.  Hooks for the fault tests act at the exact byte offset drawn: pull the cable
    (cut_after), damage a byte (corrupt_at), or call a function (at_offset, e.g. to kill
    a process).
    """

    QUEUE_MAX = 1 << 20          # stop reading the device while this much waits for the host

    def __init__(self, device_fd: int, host_fd: int, end: DeviceEnd | None = None,
                 device_slave: int | None = None, host_slave: int | None = None):
        super().__init__(daemon=True)
        self.device_fd = device_fd
        self.host_fd = host_fd
        self.end = end or DeviceEnd(paced=False)
        self.device_slave = device_slave
        self.host_slave = host_slave
        self.stop = threading.Event()
        self.cut = False                 # the cable is pulled: nothing gets through
        self.cut_after: int | None = None  # pull it once this many bytes went to the device
        self.at_offset: tuple[int, object] | None = None  # (offset, callable) towards the device
        self.corrupt_at: list[int] = []  # flip one byte at (or after) these offsets to the device
        self.corrupted = 0
        # take(bytes) -> bool: a stand-in for the chip that takes the host's bytes
        # instead of the firmware (the ROM loader of tests/host/bootrig.py)
        self.intercept = None
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

    def _from_host(self, data: bytes, out: list) -> None:
        """Apply the hooks to bytes from the host; what gets through is appended to out."""
        if self.at_offset is not None and self.to_device + len(data) >= self.at_offset[0]:
            # pass on exactly the bytes before the offset, then act
            offset, action = self.at_offset
            self.at_offset = None
            head = max(0, offset - self.to_device)
            if head:
                self._from_host(data[:head], out)
                self._deliver(out)
            action()
            data = data[head:]
            if not data:
                return
        if self.cut_after is not None and self.to_device + len(data) >= self.cut_after:
            head = max(0, self.cut_after - self.to_device)
            self.cut_after = None
            if head:
                self._from_host(data[:head], out)
            data = data[head:]
            self.cut = True
        if self.cut:
            self.dropped += data
            return
        data = self._damage(data)
        self.to_device += len(data)
        out.append(data)

    def _deliver(self, out: list) -> None:
        host_baud = tty_baud(self.host_slave) if self.host_slave else None
        for data in out:
            if self.intercept is not None and self.intercept(data):
                continue
            try:
                self.end.host_to_device(data, lambda piece: _write_all(self.device_fd, piece,
                                                                       self.stop),
                                        self.device_slave, host_baud, self.stop)
            except OSError:
                pass
        del out[:]

    def _host_to_device(self):
        out: list = []
        while not self.stop.is_set():
            data = _read(self.host_fd, self.stop)
            if data is None:
                return
            with self.lock:
                self._from_host(data, out)
            self._deliver(out)

    def _device_to_host(self):
        # The device's replies are queued here (up to QUEUE_MAX) while the host is not
        # reading, so that the device never blocks on its stdout and always goes on
        # reading its stdin.
        queue = bytearray()
        alive = True
        while not self.stop.is_set() and (alive or queue):
            readers = [self.device_fd] if alive and len(queue) < self.QUEUE_MAX else []
            writers = [self.host_fd] if queue else []
            try:
                readable, writable, _ = select.select(readers, writers, [], 0.05)
            except (OSError, ValueError):
                return
            if readable:
                try:
                    data = os.read(self.device_fd, 65536)
                except BlockingIOError:
                    data = None
                except OSError:
                    data = b""
                if data == b"":
                    alive = False       # the device went away (a killed process)
                elif data:
                    with self.lock:
                        cut = self.cut
                        if not cut:
                            self.to_host += len(data)
                    if not cut:
                        host_baud = tty_baud(self.host_slave) if self.host_slave else None
                        queue += self.end.device_to_host(data, host_baud)
            if writable:
                with self.lock:
                    if self.cut:
                        queue.clear()
                        continue
                try:
                    n = os.write(self.host_fd, queue)
                except BlockingIOError:
                    continue
                except OSError:
                    queue.clear()
                    continue
                del queue[:n]

    def run(self):
        for fd in (self.device_fd, self.host_fd):
            try:
                os.set_blocking(fd, False)
            except OSError:
                pass
        back = threading.Thread(target=self._device_to_host, daemon=True)
        back.start()
        self._host_to_device()
        back.join()


def _read(fd: int, stop: threading.Event) -> bytes | None:
    """The next bytes from fd; None once stop is set or the other end is gone."""
    while not stop.is_set():
        try:
            readable, _, _ = select.select([fd], [], [], 0.05)
        except (OSError, ValueError):
            return None
        if not readable:
            continue
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            continue
        except OSError:
            return None
        return data or None
    return None


def _write_all(fd: int, data: bytes, stop: threading.Event | None = None):
    view = memoryview(data)
    while view:
        if stop is not None and stop.is_set():
            return
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
                 link: str | None = None, env: dict[str, str] | None = None,
                 bridge_max: int | None = None):
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
        self.link = link                # None: no speed limit; "uart" / "usb": the chip's wire
        self.env = env or {}
        self.bridge_max = bridge_max
        self.proc: subprocess.Popen | None = None

    def start(self):
        self.dev_master, dev_slave, _ = _raw_pty()
        self.host_master, host_slave, self.port = _raw_pty()
        self._host_slave = host_slave   # kept open so that the pty stays up between opens
        self._dev_slave = dev_slave     # kept: the relay reads its input queue, and a reboot
        #                                 starts the device on the same pty
        self.end = DeviceEnd(self.link or "uart", self.folder, paced=self.link is not None,
                             bridge_max=self.bridge_max)
        self._spawn()
        self.relay = Relay(self.dev_master, self.host_master, self.end, dev_slave, host_slave)
        self.relay.start()
        return self

    def _spawn(self):
        env = dict(os.environ, MICROPYPATH=self.mpypath or micropypath(self.path_extra),
                   TILECLOCK_DEVICE_DIR=str(self.folder), **self.env)
        self.proc = subprocess.Popen([micropython_binary(), str(self.script), *self.args],
                                     stdin=self._dev_slave, stdout=self._dev_slave,
                                     stderr=subprocess.PIPE, cwd=str(self.folder), env=env)
        self._err = Drain(self.proc.stderr)
        self.end.attach(self.proc.pid)

    def reboot(self) -> str:
        """Start the device process again on the same pty (after a reset or a power cut:
        the host's port stays); returns what the old one wrote to stderr."""
        err = ""
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            err = self._err.text()
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
            err = self._err.text()
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
