"""The simulated clock's USB serial port: a pseudo-terminal the host tools open like
/dev/ttyUSB0, bridged to the firmware's stdin/stdout (docs/simulator.md).

Like the USB-serial bridge of a real board, the port stays (same path) while the
chip resets: every firmware process gets fresh ports of its own, and a relay
thread copies bytes unchanged between the stable host pty and the current
process's ones.  Bytes sent while no firmware runs are lost (the chip is booting);
what the firmware writes while no program has the port open is dropped, as a
serial driver does with a closed port.  Text the firmware writes that is not a
link frame (prints, a REPL) is also handed to `log` line by line.  A Ctrl-C from the
host does what it does on the chip (host_tools/sim/wire.py): KeyboardInterrupt in the
firmware unless it called micropython.kbd_intr(-1).

A host that holds the port open and does not read: on the chip (native USB) a write
waits up to 500 ms for room in TinyUSB's transmit FIFO, then returns what fitted
(shared/tinyusb/mp_usbd_cdc.c, mp_usbd_cdc_tx_strn); with no program on the port it
never waits.  The firmware's stdin is a raw pty, but its stdout is a Unix socket whose
writes wait at most WRITE_TIMEOUT_S (SO_SNDTIMEO) and then return what fitted, as
the chip's do.  The relay takes the firmware's bytes only as fast as the host takes
them while a program has the port open (the socket's buffer, a few KB, and the
host's tty buffer stand for TinyUSB's FIFO and the host's USB driver), and takes and
drops them at once while none has.
"""

from __future__ import annotations

import os
import pty
import select
import socket
import struct
import termios
import threading
import tty
from pathlib import Path

from host_tools.link import MAX_RAW, OK, parse
from host_tools.sim.wire import ChipInput

FLAG = 0x7E
_WRITE_GRACE_S = 0.5     # how long a full pty may hold up the relay before bytes are dropped
WRITE_TIMEOUT_S = 0.5    # MICROPY_HW_USB_CDC_TX_TIMEOUT (ports/esp32/usb.h at v1.26.0)
_OUT_BUFFER = 1024       # SO_SNDBUF asked for (the kernel doubles it, to a few KB at least)


def raw_pty() -> tuple[int, int, str]:
    """(master, slave, slave path) of a new pty in raw mode: frames pass unchanged."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


class NoiseFilter:
    """Picks the text out of the firmware's output: every piece between flags that is
    a valid link frame is dropped, everything else becomes text lines.  A frame body
    never holds a byte below 0x20, so a newline ends any piece as text at once."""

    def __init__(self, emit):
        self.emit = emit
        self.piece = bytearray()     # bytes since the last flag (maybe a frame)
        self.after_flag = False      # the piece follows a flag
        self.text = bytearray()      # text of the current line

    def feed(self, data: bytes) -> None:
        parts = bytes(data).split(b"\x7e")
        for i, part in enumerate(parts):
            self.piece += part
            nl = self.piece.rfind(b"\n")
            if nl >= 0 or len(self.piece) > MAX_RAW:
                cut = nl + 1 if nl >= 0 else len(self.piece)
                self._text(self.piece[:cut])
                del self.piece[:cut]
            if i < len(parts) - 1:
                self._flag()

    def _flag(self) -> None:
        if self.after_flag and self.piece and parse(bytes(self.piece))[0] == OK:
            self.after_flag = False      # a frame: its closing flag is used up
        else:
            self._text(self.piece)
            if self.after_flag:          # "~~": the first flag was text
                self.text += b"~"
            self.after_flag = True
        self.piece = bytearray()

    def _text(self, data) -> None:
        if self.after_flag and data:
            self.text += b"~"   # the flag that started the piece was text too
            self.after_flag = False
        self.text += data
        while b"\n" in self.text:
            line, _, rest = bytes(self.text).partition(b"\n")
            self.text = bytearray(rest)
            self._emit(line)

    def idle(self) -> None:
        """No output for a while: show a line that has no end yet (a prompt)."""
        if self.piece and not self.after_flag:
            self._text(self.piece)
            self.piece = bytearray()
        if self.text:
            self._emit(bytes(self.text))
            self.text = bytearray()

    def end(self) -> None:
        """The process is gone: whatever is left is text."""
        if self.piece:
            self._text(self.piece)
            self.piece = bytearray()
        self.after_flag = False
        self.idle()

    def _emit(self, line: bytes) -> None:
        text = line.rstrip(b"\r").decode("utf-8", "replace")
        if text.strip():
            self.emit(text)


def chip_output() -> tuple[socket.socket, socket.socket]:
    """(relay's end, firmware's end) of the firmware's stdout: a write on the firmware's
    end waits at most WRITE_TIMEOUT_S for room, then returns what fitted (or EAGAIN)."""
    relay, chip = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    chip.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, _OUT_BUFFER)
    sec = int(WRITE_TIMEOUT_S)
    chip.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO,
                    struct.pack("ll", sec, int((WRITE_TIMEOUT_S - sec) * 1e6)))
    relay.setblocking(False)
    return relay, chip


class _Device:
    """One firmware process's ports, as the relay sees them: the master of its stdin's
    pty, the relay's end of its stdout."""

    def __init__(self, inp: int, out: socket.socket):
        self.inp = inp
        self.out = out

    def close(self) -> None:
        os.close(self.inp)
        self.out.close()


def _write_all(fd: int, data: bytes, stop: threading.Event) -> bool:
    """Write to a non-blocking fd; False if it stayed full (the bytes are dropped)."""
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
        except BlockingIOError:
            _, ready, _ = select.select([], [fd], [], _WRITE_GRACE_S)
            if not ready or stop.is_set():
                return False
            continue
        except OSError:
            return False
        view = view[n:]
    return True


class LinkPort:
    """The stable host pty and the relay to the current firmware process."""

    def __init__(self, log=None, alias: Path | None = None):
        self._log = log
        self.master, slave, self.path = raw_pty()
        # Nobody keeps the slave open: the master then reports a hang-up while no
        # program has the port open, which is how the relay knows to drop output.
        os.close(slave)
        os.set_blocking(self.master, False)
        self.alias = Path(alias) if alias else None
        if self.alias is not None:
            self._make_alias(self.alias)
        self._lock = threading.Lock()
        self._pending: _Device | None = None   # a new process's ports, not yet taken over
        self._device: _Device | None = None    # the relay thread's; only it closes it
        self._to_host = b""                    # the firmware's bytes the host has yet to take
        self.chip = ChipInput()            # Ctrl-C for the current firmware process
        self._filter = NoiseFilter(self._say)
        self._stop = threading.Event()
        self.host_open = False
        self.stats = {"to_device": 0, "to_host": 0, "dropped_to_device": 0, "dropped_to_host": 0,
                      "opens": 0}
        self._thread = threading.Thread(target=self._run, name="link-pty", daemon=True)
        self._thread.start()

    # -- alias ------------------------------------------------------------------------

    def _make_alias(self, a: Path) -> None:
        if a.is_symlink():
            a.unlink()
        elif a.exists():
            raise FileExistsError("%s exists and is not a symbolic link" % a)
        a.parent.mkdir(parents=True, exist_ok=True)
        a.symlink_to(self.path)

    # -- the firmware side ------------------------------------------------------------

    def new_device_ports(self) -> tuple[int, int]:
        """The ports of the next firmware process: (stdin, stdout) file descriptors (give
        them to the process, then close them here): a raw pty's slave, and the
        firmware's end of its output socket (chip_output)."""
        master, slave, _ = raw_pty()
        os.set_blocking(master, False)
        relay, chip = chip_output()
        out = os.dup(chip.fileno())
        chip.close()
        with self._lock:
            old, self._pending = self._pending, _Device(master, relay)
        if old is not None:      # never taken over: no process ran on it
            old.close()
        return slave, out

    def attach_process(self, pid: int) -> None:
        """The firmware process now running on the newest device pty."""
        self.chip.pid = pid

    def _say(self, line: str) -> None:
        if self._log:
            self._log(line)

    # -- relay --------------------------------------------------------------------------

    def _take_pending(self) -> None:
        with self._lock:
            new, self._pending = self._pending, None
        if new is not None:
            self._drop_device()
            self._device = new

    def _drop_device(self) -> None:
        if self._device is not None:
            try:
                self._filter.feed(self._device.out.recv(65536))
            except OSError:
                pass
            self._filter.end()
            self._device.close()
            self._device = None

    def _host_state(self, events: int) -> None:
        now_open = not events & select.POLLHUP
        if now_open and not self.host_open:
            self.stats["opens"] += 1
        if self.host_open and not now_open:
            # Closed: what it did not read is gone, as with a real serial port.
            try:
                termios.tcflush(self.master, termios.TCOFLUSH)
            except termios.error:
                pass
            self.stats["dropped_to_host"] += len(self._to_host)
            self._to_host = b""
        self.host_open = now_open

    def _run(self) -> None:
        host_probe = select.poll()
        host_probe.register(self.master, select.POLLIN)
        while not self._stop.is_set():
            self._take_pending()
            probe = host_probe.poll(0)
            self._host_state(probe[0][1] if probe else 0)
            poller = select.poll()
            device = self._device
            if self.host_open:
                poller.register(self.master,
                                select.POLLIN | (select.POLLOUT if self._to_host else 0))
            if device is not None and not self._to_host:
                # the firmware's bytes only as fast as the host takes them
                poller.register(device.out, select.POLLIN)
            events = poller.poll(50)
            if not events and device is not None:
                self._filter.idle()
            for fd, ev in events:
                if fd == self.master:
                    if ev & select.POLLOUT:
                        self._to_host_now()
                    if ev & ~select.POLLOUT:
                        self._from_host(ev)
                elif device is not None and fd == device.out.fileno():
                    self._from_device(ev)

    def _from_host(self, ev: int) -> None:
        try:
            data = os.read(self.master, 65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:          # EIO: the last program closed the port
            self._host_state(select.POLLHUP)
            return
        if not data:
            return
        data = self.chip.filter(data)
        if not data:
            return
        if self._device is None or not _write_all(self._device.inp, data, self._stop):
            self.stats["dropped_to_device"] += len(data)
            return
        self.stats["to_device"] += len(data)

    def _from_device(self, ev: int) -> None:
        if self._device is None:
            return
        try:
            data = self._device.out.recv(4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as e:
            self._say("link: %s" % e)
            data = b""
        if not data:             # the process is gone (reset, power cut)
            self._drop_device()
            return
        self._filter.feed(data)
        if self.host_open:
            self._to_host = data
            self._to_host_now()
        else:
            self.stats["dropped_to_host"] += len(data)

    def _to_host_now(self) -> None:
        """As much of the firmware's bytes as the host's side takes now."""
        data = self._to_host
        try:
            n = os.write(self.master, data)
        except BlockingIOError:
            return
        except OSError:          # EIO: the last program closed the port
            self._host_state(select.POLLHUP)
            return
        self.stats["to_host"] += n
        self._to_host = data[n:]

    # -- end ----------------------------------------------------------------------------

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._take_pending()
        self._drop_device()
        os.close(self.master)
        if self.alias is not None and self.alias.is_symlink():
            try:
                if os.readlink(self.alias) == self.path:
                    self.alias.unlink()
            except OSError:
                pass

    def snapshot(self) -> dict:
        return {"path": self.path, "alias": str(self.alias) if self.alias else None,
                "open": self.host_open, "device": self._device is not None,
                "interrupts": self.chip.interrupts, **self.stats}
