"""The ESP32's serial download mode, for the simulated clocks: the ROM loader, then the
flasher stub that esptool uploads into RAM and runs (esptool's default; `--no-stub`
is not modelled).  esptool's own commands talk to it over the rig's pseudo-terminal
(tests/host/bootrig.py); what it writes lands in the files of the firmware's fake
flash (chipflash.py), so the clock then boots on it.

Protocol (esptool/loader.py, targets/esp32.py of the pinned esptool): SLIP frames;
a request is `00 op len(u16) checksum(u32) data`, a reply `01 op len(u16) value(u32)
data status`, the status 4 bytes from the ESP32 ROM and 2 from the stub.  The ROM
answers SYNC (eight replies), READ_REG / WRITE_REG (the chip-detect magic, the eFuses,
the SPI registers esptool drives to read the flash's JEDEC id), MEM_BEGIN / MEM_DATA /
MEM_END (the stub upload; the stub greets with "OHAI"), SPI_ATTACH, SPI_SET_PARAMS and
CHANGE_BAUDRATE; GET_SECURITY_INFO, which the ESP32's ROM lacks, is refused as there.
The stub adds FLASH_BEGIN / FLASH_DATA / FLASH_END, their compressed forms
FLASH_DEFL_BEGIN / FLASH_DEFL_DATA / FLASH_DEFL_END,
SPI_FLASH_MD5 (16 raw bytes) and READ_FLASH (data frames, the host's acks, an MD5).
Every data block's checksum (XOR, seed 0xEF) is checked: a damaged byte gets "Bad data
checksum" (0xC1) and nothing of that block is written.

Time: the caller paces the bytes at `rate()` (10 bits a byte at the UART's baud, which
CHANGE_BAUDRATE sets after its reply; on native USB the full-speed bulk rate).  The
flash charges the datasheet figures of the fake flash (host_tools/fakes/esp32_flash.py:
4 KB sector erase 45 ms, 256-byte page program 0.4 ms) and the 64 KB block erase
(W25Q128JV tBE2, 150 ms typical), which the stub uses where a whole aligned block is
to be erased.  The stub acknowledges a block once it has it, then writes it while the
next one arrives; it takes the next block's command only when that write is done.
"""

from __future__ import annotations

import hashlib
import struct
import time
import zlib

from host_tools.sim.chipflash import SECTOR, ChipFlash
from host_tools.sim.wire import USB_FS_BULK_BYTES_PER_S, uart_bytes_per_s

END, ESC, ESC_END, ESC_ESC = 0xC0, 0xDB, 0xDC, 0xDD

FLASH_BEGIN, FLASH_DATA, FLASH_END = 0x02, 0x03, 0x04
MEM_BEGIN, MEM_END, MEM_DATA = 0x05, 0x06, 0x07
SYNC, WRITE_REG, READ_REG = 0x08, 0x09, 0x0A
SPI_SET_PARAMS, SPI_ATTACH, CHANGE_BAUDRATE = 0x0B, 0x0D, 0x0F
FLASH_DEFL_BEGIN, FLASH_DEFL_DATA, FLASH_DEFL_END = 0x10, 0x11, 0x12
SPI_FLASH_MD5, GET_SECURITY_INFO = 0x13, 0x14
ERASE_REGION, READ_FLASH = 0xD1, 0xD2
STUB_ONLY = {FLASH_DEFL_BEGIN, FLASH_DEFL_DATA, FLASH_DEFL_END, SPI_FLASH_MD5, ERASE_REGION,
             READ_FLASH, FLASH_BEGIN, FLASH_DATA, FLASH_END}

ROM_INVALID_COMMAND = 0x05
BAD_DATA_LEN, BAD_DATA_CHECKSUM, INVALID_COMMAND, INFLATE_ERROR = 0xC0, 0xC1, 0xC3, 0xC7

T_SECTOR_ERASE = 0.045        # W25Q128JV tSE, typical
T_BLOCK_ERASE = 0.150         # tBE2 (64 KB), typical
T_PAGE_PROGRAM = 0.0004       # tPP, typical, 256-byte pages
BLOCK = 0x10000

# ESP32 (targets/esp32.py): the chip-detect magic, the crystal (40 MHz) as esptool
# reckons it from the UART divider, a MAC in eFuse words 1-2, the SPI0 registers.
ESP32 = {
    "magic": (0x40001000, 0x00F01D83),
    "uart_clkdiv": 0x3FF40014,
    "efuse": 0x3FF5A000,
    "spi": 0x3FF42000, "spi_usr2": 0x24, "spi_w0": 0x80,
}
SPI_CMD_USR = 1 << 18
JEDEC_WINBOND = 0xEF
JEDEC_SIZES = {1 << 20: 0x14, 2 << 20: 0x15, 4 << 20: 0x16, 8 << 20: 0x17, 16 << 20: 0x18}


def slip(data: bytes) -> bytes:
    return (bytes((END,)) + data.replace(b"\xdb", b"\xdb\xdd").replace(b"\xc0", b"\xdb\xdc")
            + bytes((END,)))


def checksum(data: bytes) -> int:
    state = 0xEF
    for b in data:
        state ^= b
    return state


class SerialLoader:
    """One chip in download mode.  `feed(bytes)` takes what arrives from the host;
    `send(bytes)` (the caller's) puts the replies on the wire at `rate()`."""

    def __init__(self, flash: ChipFlash, send, link: str = "uart", timing: bool = True,
                 mac: bytes = b"\x24\x0a\xc4\x00\x11\x22"):
        self.flash = flash
        self.send = send
        self.link = link
        self.timing = timing
        self.baud = 115200
        self.stub = False
        self.regs = {ESP32["magic"][0]: ESP32["magic"][1]}
        efuse = ESP32["efuse"]
        self.regs[efuse + 4] = struct.unpack(">I", mac[2:6])[0]
        self.regs[efuse + 8] = struct.unpack(">H", mac[0:2])[0]
        self._frame = bytearray()
        self._in_frame = False
        self._escape = False
        self._mem = None
        self._write = None          # the FLASH_DEFL_BEGIN in progress
        self._read = None           # the READ_FLASH in progress
        self._erased: set[int] = set()
        self._flash_free_at = 0.0
        self.errors: list[str] = []     # what the loader refused, for the tests
        self.written = 0                # bytes written to the flash
        self.regions: list[tuple[int, int]] = []    # (offset, size) of each write begun
        self.flash_busy = 0.0           # seconds of erase and program time charged

    # -- the wire ------------------------------------------------------------------------

    def rate(self) -> float:
        if self.link == "usb":
            return USB_FS_BULK_BYTES_PER_S
        return uart_bytes_per_s(self.baud)

    def feed(self, data: bytes) -> None:
        for b in data:
            if not self._in_frame:
                if b == END:
                    self._in_frame = True
                    self._frame = bytearray()
                continue
            if self._escape:
                self._escape = False
                self._frame.append(END if b == ESC_END else ESC if b == ESC_ESC else b)
            elif b == ESC:
                self._escape = True
            elif b == END:
                if self._frame:
                    self._packet(bytes(self._frame))
                    self._frame = bytearray()
                # an empty frame: the END that starts the next one
            else:
                self._frame.append(b)

    def _reply(self, op: int, value: int = 0, data: bytes = b"", status: int = 0,
               error: int = 0) -> None:
        tail = bytes((status, error)) + (b"" if self.stub else b"\0\0")
        body = data + tail
        self.send(slip(struct.pack("<BBHI", 1, op, len(body), value) + body))

    def _refuse(self, op: int, error: int, why: str) -> None:
        # the ROM answers (1, reason); the stub puts its error code in the status byte
        # (esptool's table of stub results: 0xC100 "Bad data checksum", ...)
        self.errors.append(why)
        if self.stub:
            self._reply(op, status=error, error=0)
        else:
            self._reply(op, status=1, error=error)

    # -- requests ------------------------------------------------------------------------

    def _packet(self, p: bytes) -> None:
        if self._read is not None and len(p) == 4:
            self._read_ack(struct.unpack("<I", p)[0])
            return
        if len(p) < 8 or p[0] != 0:
            return                       # noise between frames: the ROM ignores it
        _, op, size, chk = struct.unpack("<BBHI", p[:8])
        data = p[8:]
        if len(data) != size:
            self._refuse(op, BAD_DATA_LEN, "request 0x%02x: %d bytes, header says %d"
                         % (op, len(data), size))
            return
        if op in STUB_ONLY and not self.stub:
            self._refuse(op, ROM_INVALID_COMMAND, "0x%02x needs the stub" % op)
            return
        handler = getattr(self, "_op_%02x" % op, None)
        if handler is None:
            self._refuse(op, ROM_INVALID_COMMAND if not self.stub else INVALID_COMMAND,
                         "unknown request 0x%02x" % op)
            return
        handler(op, data, chk)

    def _op_08(self, op, data, chk):            # SYNC
        if data[:4] != b"\x07\x07\x12\x20":
            return
        for _ in range(1 if self.stub else 8):
            self._reply(op, value=0 if self.stub else 0x20120707)

    def _op_0a(self, op, data, chk):            # READ_REG
        addr = struct.unpack("<I", data[:4])[0]
        if addr == ESP32["uart_clkdiv"]:
            value = int(40e6 / self.baud)
        else:
            value = self.regs.get(addr, 0)
        self._reply(op, value=value)

    def _op_09(self, op, data, chk):            # WRITE_REG
        addr, value, mask, _delay = struct.unpack("<IIII", data[:16])
        old = self.regs.get(addr, 0)
        self.regs[addr] = (old & ~mask) | (value & mask)
        if addr == ESP32["spi"] and value & SPI_CMD_USR:
            self._spi_command()
        self._reply(op)

    def _spi_command(self):
        """esptool's run_spiflash_command: the command byte in USR2, the answer in W0."""
        base = ESP32["spi"]
        command = self.regs.get(base + ESP32["spi_usr2"], 0) & 0xFF
        answer = 0
        if command == 0x9F:                    # RDID: manufacturer, type, capacity
            answer = JEDEC_WINBOND | 0x40 << 8 | JEDEC_SIZES.get(self.flash.size, 0x16) << 16
        self.regs[base + ESP32["spi_w0"]] = answer
        self.regs[base] = 0                    # the command is done

    def _op_14(self, op, data, chk):            # GET_SECURITY_INFO: not in the ESP32's ROM
        self._refuse(op, ROM_INVALID_COMMAND, "GET_SECURITY_INFO (not on the ESP32)")

    def _op_0d(self, op, data, chk):            # SPI_ATTACH
        self._reply(op)

    def _op_0b(self, op, data, chk):            # SPI_SET_PARAMS
        self._reply(op)

    def _op_0f(self, op, data, chk):            # CHANGE_BAUDRATE: reply, then switch
        new = struct.unpack("<I", data[:4])[0]
        self._reply(op)
        self.baud = new

    def _op_05(self, op, data, chk):            # MEM_BEGIN
        size, blocks, blocksize, offset = struct.unpack("<IIII", data[:16])
        self._mem = {"size": size, "got": 0}
        self._reply(op)

    def _op_07(self, op, data, chk):            # MEM_DATA
        if self._data_ok(op, data, chk) is None:
            return
        if self._mem is not None:
            self._mem["got"] += len(data) - 16
        self._reply(op)

    def _op_06(self, op, data, chk):            # MEM_END: run the uploaded stub
        flag = struct.unpack("<I", data[:4])[0]
        self._reply(op)
        if flag == 0 and self._mem and self._mem["got"]:
            self.stub = True
            self.send(slip(b"OHAI"))

    def _data_ok(self, op, data, chk):
        """The block of a *_DATA request, or None (refused) if it is damaged."""
        if len(data) < 16:
            self._refuse(op, BAD_DATA_LEN, "data request without its header")
            return None
        size, seq = struct.unpack("<II", data[:8])
        block = data[16:]
        if size != len(block):
            self._refuse(op, BAD_DATA_LEN, "block %d: %d bytes, header says %d"
                         % (seq, len(block), size))
            return None
        if checksum(block) != chk & 0xFF:
            self._refuse(op, BAD_DATA_CHECKSUM, "block %d: bad data checksum" % seq)
            return None
        return block

    # -- writing (the stub) --------------------------------------------------------------

    def _op_02(self, op, data, chk):            # FLASH_BEGIN (plain data; also esptool's
        self._begin(op, data, None)             # "flash_begin(0, 0)" after a write)

    def _op_10(self, op, data, chk):            # FLASH_DEFL_BEGIN
        self._begin(op, data, zlib.decompressobj())

    def _begin(self, op, data, inflate):
        size, blocks, blocksize, offset = struct.unpack("<IIII", data[:16])
        self._wait_flash()
        self._write = {"offset": offset, "size": size, "pos": 0, "inflate": inflate}
        self.regions.append((offset, size))
        self._erased = set()
        self._reply(op)

    def _op_03(self, op, data, chk):            # FLASH_DATA
        self._data(op, data, chk, False)

    def _op_11(self, op, data, chk):            # FLASH_DEFL_DATA
        self._data(op, data, chk, True)

    def _data(self, op, data, chk, deflated):
        w = self._write
        if w is None or (w["inflate"] is not None) != deflated:
            self._refuse(op, INVALID_COMMAND, "data without its FLASH_*BEGIN")
            return
        block = self._data_ok(op, data, chk)
        if block is None:
            return
        out = block
        if deflated:
            try:
                out = w["inflate"].decompress(block)
            except zlib.error as e:
                self._refuse(op, INFLATE_ERROR, "inflate: %s" % e)
                return
        else:
            out = block[:max(0, w["size"] - w["pos"])]   # the last block is padded
        if w["pos"] + len(out) > w["size"]:
            self._refuse(op, BAD_DATA_LEN, "more data than announced")
            return
        self._wait_flash()                  # the stub takes a block once the last is written
        self._reply(op)
        addr = w["offset"] + w["pos"]
        cost = self._erase_for(addr, len(out), w["offset"] + w["size"])
        self.flash.program(addr, out)
        w["pos"] += len(out)
        self.written += len(out)
        cost += self._program_time(addr, len(out))
        self._charge(cost)

    def _op_12(self, op, data, chk):            # FLASH_DEFL_END
        self._wait_flash()
        self._reply(op)

    def _op_04(self, op, data, chk):            # FLASH_END
        self._wait_flash()
        self._reply(op)

    def _op_13(self, op, data, chk):            # SPI_FLASH_MD5
        addr, size = struct.unpack("<II", data[:8])
        self._wait_flash()
        self._reply(op, data=self.flash.md5(addr, size))

    def _erase_for(self, addr, length, end) -> float:
        """Erase the sectors under [addr, addr+length) not erased yet in this write: a
        64 KB block at once where one starts and the write covers it all."""
        cost = 0.0
        sector = addr - addr % SECTOR
        while sector < addr + length:
            if sector not in self._erased:
                if sector % BLOCK == 0 and sector + BLOCK <= end:
                    self.flash.erase(sector, BLOCK)
                    self._erased.update(range(sector, sector + BLOCK, SECTOR))
                    cost += T_BLOCK_ERASE
                else:
                    self.flash.erase(sector, SECTOR)
                    self._erased.add(sector)
                    cost += T_SECTOR_ERASE
            sector += SECTOR
        return cost

    @staticmethod
    def _program_time(addr, length) -> float:
        pages = (addr + length + 255) // 256 - addr // 256
        return pages * T_PAGE_PROGRAM

    def _charge(self, seconds: float) -> None:
        self.flash_busy += seconds
        if self.timing:
            self._flash_free_at = max(self._flash_free_at, time.monotonic()) + seconds

    def _wait_flash(self) -> None:
        delay = self._flash_free_at - time.monotonic()
        if delay > 0:
            time.sleep(delay)

    # -- reading (the stub) --------------------------------------------------------------

    def _op_d2(self, op, data, chk):            # READ_FLASH
        offset, length, block, _inflight = struct.unpack("<IIII", data[:16])
        if offset + length > self.flash.size:
            self._refuse(op, BAD_DATA_LEN, "read past the end of the flash")
            return
        self._wait_flash()
        self._reply(op)
        content = self.flash.read(offset, length)
        self._read = {"data": content}
        for at in range(0, length, block):
            self.send(slip(content[at:at + block]))
        if not length:
            self._read_ack(0)

    def _read_ack(self, got: int) -> None:
        r = self._read
        if got >= len(r["data"]):
            self._read = None
            self.send(slip(hashlib.md5(r["data"]).digest()))
