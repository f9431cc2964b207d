"""A simulated clock that esptool can flash: the link rig (linkrig.py) whose chip goes
into serial download mode (host_tools/sim/romloader.py) when esptool connects, and
boots the firmware again when esptool is done.

On a board the USB-UART bridge's DTR and RTS lines drive the chip's EN and IO0 (the
auto-reset circuit): esptool's `--before default-reset` resets the chip into download
mode before its first SYNC, `--after hard-reset` pulses EN when it is done.  A
pseudo-terminal carries no modem lines (pyserial's TIOCMBIS fails there and esptool
goes on with a warning), so the rig stands in for that circuit: the first SYNC frame
from the host resets the chip into download mode (the firmware process is killed, as
a reset stops the chip), and when the program that sent it has closed the port (the
moment esptool's hard reset comes) the chip starts the firmware again from its flash.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from host_tools import partitions
from host_tools.sim.chipflash import ChipFlash
from host_tools.sim.romloader import SerialLoader
from host_tools.sim.wire import Pacer
from tests.host.linkrig import Rig, _write_all

SYNC_FRAME = b"\xc0\x00\x08\x24\x00\x00\x00\x00\x00\x07\x07\x12\x20"
DEFL_DATA = b"\xc0\x00\x11"       # the start of a FLASH_DEFL_DATA request


def wroom_table(slot_size: int | None = None) -> list[partitions.Partition]:
    """The lean target's partitions as `clockctl flash` writes them: its board's table
    (boards/TILECLOCK_WROOM), the word list partitions lexa and lexb after it."""
    from host_tools.targets import TARGETS
    from tests.host.esp_firmware import TABLE_TILECLOCK_WROOM

    return partitions.with_lexicon_slots(TABLE_TILECLOCK_WROOM,
                                         slot_size or TARGETS["wroom"]["lexicon_slot"])


def write_layout(folder: Path, table: list[partitions.Partition],
                 flash_size: int = 4 << 20) -> partitions.Partition:
    """The chip's partition table in the device folder (partitions.csv, which the fake
    flash and the ROM loader read), with the filesystem the port registers after the
    last partition; returns that filesystem partition."""
    table = list(table)
    vfs = next((p for p in table if p.label == "vfs"), None)
    if vfs is None:
        vfs = partitions.filesystem(table, flash_size)
        table.append(vfs)
    Path(folder).mkdir(parents=True, exist_ok=True)
    (Path(folder) / "partitions.csv").write_text("".join(
        "%s, %d, 0x%x, 0x%x, 0x%x\n" % (p.label, p.type, p.subtype, p.offset, p.size)
        for p in table))
    return vfs


def holders(port: str) -> set[int]:
    """Processes other than this one that have `port` open."""
    me = os.getpid()
    found = set()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        fds = "/proc/%s/fd" % name
        try:
            for fd in os.listdir(fds):
                if os.readlink(os.path.join(fds, fd)) == port:
                    found.add(int(name))
                    break
        except OSError:
            continue
    return found


class BootRig(Rig):
    """Rig(...) plus download mode; `flash_size` is the chip's flash."""

    def __init__(self, *args, flash_size: int = 4 << 20, **kw):
        super().__init__(*args, **kw)
        self.flash_size = flash_size
        self.loader: SerialLoader | None = None
        self.sessions = 0             # download-mode sessions so far
        self.loaders: list[SerialLoader] = []
        self._lock = threading.Lock()
        self._in = Pacer()
        self._out = Pacer()
        # faults on the wire during a write, by the count of compressed data blocks
        # sent (from 1, resent ones too): one bit of their data flipped, or the cable
        # pulled as the n-th starts
        self.damage_blocks: set[int] = set()
        self.pull_block: int | None = None
        self._blocks_seen = 0

    def start(self):
        super().start()
        self.relay.intercept = self._take
        return self

    def _take(self, data: bytes) -> bool:
        with self._lock:
            if self.loader is None:
                at = data.find(SYNC_FRAME)
                if at < 0:
                    return False
                self._enter()
                data = data[at:]
            loader = self.loader
            data = self._faults(data)
            if data is None:
                return True
        paced = self.link is not None
        if paced:
            self._in.set_rate(loader.rate())
            self._in.wait(len(data))
        loader.feed(data)
        return True

    def _faults(self, data: bytes) -> bytes | None:
        at = data.find(DEFL_DATA)
        if at < 0:
            return data
        self._blocks_seen += 1
        if self._blocks_seen == self.pull_block:
            self.relay.cut = True          # what follows is dropped by the relay as well
            return data[:at] or None
        if self._blocks_seen in self.damage_blocks and len(data) > at + 64:
            out = bytearray(data)
            pos = at + 48                  # inside the block's data, past its header
            while out[pos] in (0xC0, 0xDB) or out[pos] ^ 0x01 in (0xC0, 0xDB):
                pos += 1
            out[pos] ^= 0x01
            return bytes(out)
        return data

    def _send(self, frame: bytes) -> None:
        loader = self.loader
        if self.link is not None and loader is not None:
            self._out.set_rate(loader.rate())
            self._out.wait(len(frame))
        _write_all(self.host_master, frame, self.relay.stop)

    def _enter(self) -> None:
        """The auto-reset circuit: reset into download mode."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        # the reset puts the chip's UARTs back at their boot rate: the firmware that
        # starts after esptool talks at 115200 until the host negotiates again
        for rate_file in self.folder.glob(".sim-uart*"):
            rate_file.unlink()
        self.loader = SerialLoader(ChipFlash(self.folder, self.flash_size), self._send,
                                   link="usb" if self.link == "usb" else "uart",
                                   timing=self.link is not None)
        self.loaders.append(self.loader)
        self.sessions += 1
        watch = threading.Thread(target=self._watch, args=(holders(self.port),), daemon=True)
        watch.start()

    def _watch(self, pids: set[int]) -> None:
        """Wait until the programs that started the session have closed the port, then
        start the firmware again (esptool's hard reset)."""
        while not self.relay.stop.is_set():
            pids = {p for p in pids if self.port in _open_ttys(p)}
            if not pids:
                break
            time.sleep(0.05)
        with self._lock:
            self.loader = None
            if not self.relay.stop.is_set():
                self.reboot()


def _open_ttys(pid: int) -> set[str]:
    fds = "/proc/%d/fd" % pid
    out = set()
    try:
        for fd in os.listdir(fds):
            try:
                out.add(os.readlink(os.path.join(fds, fd)))
            except OSError:
                pass
    except OSError:
        pass
    return out
