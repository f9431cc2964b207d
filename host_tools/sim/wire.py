"""What the chip's serial port does to the bytes between the host and the firmware, for
the simulated link (host_tools/sim/linkpty.py, the test rig tests/host/linkrig.py).

Ctrl-C.  The ESP32 port's UART and USB drivers look at every byte that arrives: the
interrupt character (0x03 unless `micropython.kbd_intr()` changed it) is not stored but
raises KeyboardInterrupt in the running program (ports/esp32/uart.c:108-116,
shared/tinyusb/mp_usbd_cdc.c:76-85, usb_serial_jtag.c:56-62 at v1.26.0).  A pty passes
0x03 as data.  The unix port implements `kbd_intr(3)` by catching SIGINT and
`kbd_intr(-1)` by giving SIGINT back to the system (ports/unix/unix_mphal.c:75-96), so
`ChipInput` reads from /proc whether the firmware process catches SIGINT: if it does,
0x03 is taken out of the stream and the process gets SIGINT (KeyboardInterrupt, as on the
chip); if not, 0x03 is ordinary data.

Speed.  `Pacer` holds bytes back so that they arrive no faster than the link's rate
(`LINKS`): the WROOM's UART at its baud rate (10 bits per byte, 8N1), the S3's native USB
at the rate of a full-speed CDC bulk endpoint.
"""

from __future__ import annotations

import os
import signal
import threading
import time

INTERRUPT_CHAR = 0x03

# Bytes per second of each kind of link (host_tools/targets.py "link").
# A full-speed USB bulk endpoint moves at most 19 packets of 64 bytes per 1 ms frame
# (USB 2.0 specification, table 5-9): 1,216,000 B/s; the S3's CDC stays below that.
USB_FS_BULK_BYTES_PER_S = 19 * 64 * 1000


def uart_bytes_per_s(baud: int) -> float:
    return baud / 10.0      # start bit, 8 data bits, stop bit


def catches_sigint(pid: int) -> bool:
    """True if the process has a SIGINT handler (the unix port's kbd_intr(3))."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) & (1 << (signal.SIGINT - 1)))
    except (OSError, ValueError):
        pass
    return False


class ChipInput:
    """The chip's receive path: Ctrl-C handling for one firmware process."""

    def __init__(self, pid: int | None = None):
        self.pid = pid
        self.interrupts = 0      # KeyboardInterrupts raised in the firmware

    def filter(self, data: bytes) -> bytes:
        if INTERRUPT_CHAR not in data or self.pid is None:
            return data
        if not catches_sigint(self.pid):
            return data          # kbd_intr(-1): the byte is data for the program
        self.interrupts += 1
        try:
            os.kill(self.pid, signal.SIGINT)
        except OSError:
            pass
        return bytes(data).replace(bytes((INTERRUPT_CHAR,)), b"")


class Pacer:
    """Lets bytes through no faster than `rate` bytes per second (None: no limit).

    Bytes that keep coming follow one schedule, as on a wire that is never idle
    between them: a wait that overslept (the system's timer slack, the relay thread
    waiting for a CPU) is made up by the next ones instead of adding up, so a long
    transfer takes its bytes' time on the wire and no more.  The schedule starts
    afresh when the sender fell behind it by more than CATCH_UP_S (the line was idle):
    bytes are never delivered faster than that much ahead of their time.
    """

    CATCH_UP_S = 0.001

    def __init__(self, rate: float | None = None):
        self.rate = rate
        self._free_at = time.monotonic()
        self._lock = threading.Lock()

    def set_rate(self, rate: float | None) -> None:
        with self._lock:
            self.rate = rate

    def wait(self, nbytes: int) -> None:
        """Block until `nbytes` more bytes have had time to cross the wire."""
        if not self.rate or nbytes <= 0:
            return
        with self._lock:
            now = time.monotonic()
            start = max(self._free_at, now - self.CATCH_UP_S)
            self._free_at = start + nbytes / self.rate
            done = self._free_at
        delay = done - time.monotonic()
        if delay > 0:
            time.sleep(delay)


# The chip's stdin ring buffer (ports/esp32/mphalport.c:57): 260 bytes, one kept free.
# On native USB TinyUSB's CDC receive FIFO holds another 256 (full speed,
# shared/tinyusb/tusb_config.h:80-81) before the host is held back.
RX_BUFFER = 259
USB_RX_BUFFER = RX_BUFFER + 256
BOOT_BAUD = 115200


def unread(fd: int) -> int:
    """Bytes waiting in a tty's input queue (TIOCINQ)."""
    import fcntl
    import struct
    import termios

    try:
        return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]
    except OSError:
        return 0


def process_state(pid: int) -> str | None:
    """The state letter of a process (/proc/PID/stat: R running or runnable, S
    sleeping, ...), or None if it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def run_delay(pid: int) -> int | None:
    """Nanoseconds the process has spent runnable but waiting for a CPU
    (/proc/PID/schedstat, second field; Linux with scheduler statistics)."""
    try:
        with open("/proc/%d/schedstat" % pid) as f:
            return int(f.read().split()[1])
    except (OSError, IndexError, ValueError):
        return None


def tty_baud(fd: int) -> int | None:
    """The rate a program set on a tty (pyserial's `baudrate`), or None."""
    import termios

    try:
        speed = termios.tcgetattr(fd)[5]
    except (termios.error, OSError):
        return None
    for name in dir(termios):
        if name.startswith("B") and name[1:].isdigit() and getattr(termios, name) == speed:
            return int(name[1:])
    return None


class DeviceEnd:
    """The chip's side of the serial link, between a relay and one firmware process.

    kind "uart" (the WROOM): bytes cross at the UART's rate; while the host's rate
    (the pty's, as pyserial set it) differs from the chip's (machine.UART(0), written by
    the fake to the device folder) they arrive garbled; what does not fit the chip's
    259-byte receive buffer is lost.  kind "usb" (the S3): full-speed bulk rate, and a
    full buffer (515 bytes with TinyUSB's FIFO) holds the host back (USB flow control)
    instead of losing bytes.
    """

    def __init__(self, kind: str = "uart", device_dir=None, paced: bool = True,
                 bridge_max: int | None = None):
        self.kind = kind
        self.bridge_max = bridge_max   # the USB-UART bridge's fastest rate (None: any)
        self.device_dir = device_dir
        self.paced = paced
        self.chip = ChipInput()
        self.to_device = Pacer()
        self.to_host = Pacer()
        self.lost = 0          # bytes lost to a full receive buffer
        self.held = 0.0        # seconds bytes were held back while the chip's process
        #                        waited for this machine's CPU (see _uart_room)
        self.garbled = 0       # bytes sent while the two ends' rates differed
        self._baud = (None, BOOT_BAUD)

    def attach(self, pid: int | None) -> None:
        self.chip.pid = pid
        self._baud = (None, BOOT_BAUD)

    def device_baud(self) -> int:
        if self.device_dir is None:
            return BOOT_BAUD
        path = os.path.join(str(self.device_dir), ".sim-uart0")
        try:
            stamp = os.stat(path).st_mtime_ns
        except OSError:
            return BOOT_BAUD
        if stamp != self._baud[0]:
            try:
                with open(path) as f:
                    self._baud = (stamp, int(f.read().split()[0]))
            except (OSError, ValueError, IndexError):
                pass
        return self._baud[1]

    def rate(self, baud: int) -> float | None:
        if not self.paced:
            return None
        return USB_FS_BULK_BYTES_PER_S if self.kind == "usb" else uart_bytes_per_s(baud)

    def piece(self, rate: float | None) -> int:
        """Bytes handed over at a time: about half a millisecond's worth, small against
        the chip's receive buffer (a UART's 259 bytes are 2.8 ms at 921600 baud); on
        USB four full-speed packets, well under the 515 bytes the device takes before
        flow control holds the host."""
        if self.kind == "usb":
            return 256
        if not rate:
            return 64
        return max(16, min(128, int(rate * 0.0005)))

    def host_to_device(self, data: bytes, write, slave_fd: int | None, host_baud: int | None,
                       stop: threading.Event | None = None) -> None:
        """Deliver host bytes to the firmware through `write(bytes)`."""
        data = self.chip.filter(data)
        if not data:
            return
        baud = self.device_baud()
        data = self._garble(data, host_baud, baud)
        self.to_device.set_rate(self.rate(host_baud or baud))
        step = self.piece(self.to_device.rate)
        for i in range(0, len(data), step):
            piece = data[i:i + step]
            self.to_device.wait(len(piece))
            if not self.paced or slave_fd is None:
                pass
            elif self.kind == "uart":
                room = self._uart_room(slave_fd, len(piece), stop)
                if room < len(piece):
                    self.lost += len(piece) - max(room, 0)
                    piece = piece[:max(room, 0)]
            else:
                while USB_RX_BUFFER - unread(slave_fd) < len(piece):
                    if stop is not None and stop.is_set():
                        return
                    time.sleep(0.0005)
            if piece:
                write(piece)

    def _uart_room(self, slave_fd: int, need: int, stop: threading.Event | None) -> int:
        """Room in the chip's receive buffer for `need` bytes.  When it is full the
        bytes are lost if the firmware did not read in time of its own doing (busy,
        or asleep); but a simulated chip's process may also have been waiting for one
        of this machine's CPUs, which a chip, with its own CPU, never does: then the
        wire holds the bytes back until the process has run (the time is counted in
        `held`) instead of losing them."""
        room = RX_BUFFER - unread(slave_fd)
        pid = self.chip.pid
        if room >= need or pid is None:
            return room
        start = time.monotonic()
        delay0 = run_delay(pid)
        room0 = room
        while room < need and not (stop and stop.is_set()):
            held = time.monotonic() - start
            # runnable (computing, or waiting for a CPU): wait up to a second; asleep
            # (a wait of its own, e.g. the flash): a moment, for a wake-up under way
            if held > 1.0 or (held > 0.002 and process_state(pid) != "R"):
                break
            time.sleep(0.0002)
            room = RX_BUFFER - unread(slave_fd)
        waited = time.monotonic() - start
        waited_cpu = (run_delay(pid) - delay0) / 1e9 if delay0 is not None else 0.0
        if waited > 0 and waited_cpu >= waited / 2:
            self.held += waited       # the process waited for a CPU: not the chip's loss
            return max(RX_BUFFER - unread(slave_fd), need)
        return room0                  # what did not fit when the bytes came is lost

    def _garble(self, data: bytes, host_baud: int | None, baud: int) -> bytes:
        if not (self.paced and self.kind == "uart" and host_baud):
            return data
        if host_baud == baud and (self.bridge_max is None or baud <= self.bridge_max):
            return data
        # A UART sampling at the wrong rate reads framing errors, not the bytes.
        self.garbled += len(data)
        return bytes(((b * 7 + 0x5A) & 0xFF) for b in data)

    def device_to_host(self, data: bytes, host_baud: int | None = None) -> bytes:
        """The device's bytes as the host receives them, after their time on the wire."""
        baud = self.device_baud()
        self.to_host.set_rate(self.rate(baud))
        self.to_host.wait(len(data))
        return self._garble(data, host_baud, baud)
