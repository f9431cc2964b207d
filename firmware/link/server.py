# The link task: reads frames from the host, answers them through the
# handler, and never lets a bad byte or a failing request end the task.
#
#   asyncio.create_task(serve(sys.stdin.buffer, sys.stdout.buffer, handler, set_baud))
#
# Ctrl-C: on the chip a 0x03 arriving on the REPL's UART or USB raises
# KeyboardInterrupt in the running program, whatever the program reads
# (ports/esp32/uart.c:111-112, shared/tinyusb/mp_usbd_cdc.c:79-83).  Link frames
# never hold 0x03, but line noise, a terminal program or a host tool probing the
# port can send one, and it would stop the game.  So while this task owns stdin,
# Ctrl-C is plain data (micropython.kbd_intr(-1)); it is given back when the task
# ends, so that a REPL after the firmware can be interrupted again.
#
# Baud rate (the WROOM's UART0; on native USB the rate means nothing): BAUD asks the
# device to switch.  The reply goes out at the old rate, then the port switches; if
# no good frame arrives at the new rate within PROBATION_MS, or none for IDLE_REVERT_MS
# later, the device goes back to the rate it booted with, where a new host finds it.

from micropython import const
import asyncio

from link import frame
from link.handler import ERROR, error_payload
from timebase import ticks_diff

IDLE_MS = 10
_READ_MAX = const(256)
BAUD = 0x05
BAUD_REPLY = 0x85
BOOT_BAUD = 115200
BAUDS = (115200, 230400, 460800, 921600, 1500000, 2000000)
PROBATION_MS = 2000
IDLE_REVERT_MS = 10000
INTERRUPT_CHAR = 3


def _kbd_intr(char):
    try:
        import micropython

        micropython.kbd_intr(char)
    except (ImportError, AttributeError):  # CPython (tests of the pure logic)
        pass


def _make_reader(stream_in):
    """A function returning the bytes available now (possibly b"") without blocking."""
    if hasattr(stream_in, "any"):  # machine.UART
        def read_uart():
            n = stream_in.any()
            return stream_in.read(min(n, _READ_MAX)) if n else b""
        return read_uart
    import select
    poller = select.poll()
    poller.register(stream_in, select.POLLIN)
    buf = bytearray(_READ_MAX)

    def read_polled():
        # One byte at a time: a blocking stream (the ESP32's stdin) only
        # promises the first byte when poll() says it is readable.
        n = 0
        while n < _READ_MAX and poller.poll(0):
            b = stream_in.read(1)
            if not b:
                break
            buf[n] = b[0]
            n += 1
        return bytes(buf[:n])
    return read_polled


class Server:
    """The link loop without the asyncio part: feed bytes, collect replies."""

    def __init__(self, handler, write, set_baud=None, clock=None):
        self.handler = handler
        self.write = write
        self.decoder = frame.Decoder()
        self.bad_frames = 0
        self.frames = 0
        self.set_baud = set_baud
        self.clock = clock
        self.baud = BOOT_BAUD
        self.switched_at = None     # ticks of the last switch away from BOOT_BAUD
        self.last_good = 0          # ticks of the last good frame
        self.pause = IDLE_MS / 1000

    def feed(self, data):
        """Decode bytes; returns a list of pending work generators/replies."""
        work = []
        for r in self.decoder.feed(data):
            status, version, kind, seq, payload = r
            if status == frame.OK:
                self.frames += 1
                self.switched_at = None     # the new rate works
                if self.clock is not None:
                    self.last_good = self.clock.ticks_ms()
                work.append((seq, kind, payload))
            elif status == frame.BAD_CRC:
                self.bad_frames += 1
                self.write(frame.encode(ERROR, 0, error_payload(
                    "E_FRAME", "damaged frame (CRC or length mismatch)")))
            elif status == frame.BAD_VERSION:
                self.bad_frames += 1
                self.write(frame.encode(ERROR, seq, error_payload(
                    "E_VERSION", "protocol version %d not supported; device speaks %d"
                    % (version, frame.VERSION))))
        return work

    def start(self, seq, kind, payload):
        if kind == BAUD:
            self._baud(seq, payload)
            return None
        r = self.handler.handle(kind, payload)
        if isinstance(r, tuple):
            self.write(frame.encode(r[0], seq, r[1]))
            return None
        return (seq, r)

    def _baud(self, seq, payload):
        import json

        try:
            baud = int(json.loads(payload)["baud"])
        except Exception:
            self.write(frame.encode(ERROR, seq, error_payload("E_ARG", "BAUD needs {\"baud\": N}")))
            return
        if self.set_baud is None or baud not in BAUDS:
            self.write(frame.encode(ERROR, seq, error_payload(
                "E_ARG", "baud rate %d not offered; the device takes %s"
                % (baud, ", ".join(str(b) for b in BAUDS) if self.set_baud else "none"))))
            return
        self.write(frame.encode(BAUD_REPLY, seq, json.dumps(
            {"ok": True, "baud": baud, "probation_ms": PROBATION_MS}).encode()))
        self._switch(baud)
        if self.clock is not None and baud != BOOT_BAUD:
            self.switched_at = self.clock.ticks_ms()

    def _switch(self, baud):
        if baud == self.baud:
            return
        try:
            self.set_baud(baud)     # waits until the reply has left (uart_wait_tx_done)
            self.baud = baud
        except Exception:
            return
        # Look at the port before the chip's 259-byte receive buffer can fill: about
        # 128 bytes' time at this rate (10 bits a byte).
        self.pause = min(IDLE_MS, max(1, 1280000 // baud)) / 1000

    def check_rate(self, now):
        """Back to the boot rate when the new one does not work or the host left."""
        if self.baud == BOOT_BAUD:
            return
        if self.switched_at is not None:
            if ticks_diff(now, self.switched_at) >= PROBATION_MS:
                self.switched_at = None
                self._switch(BOOT_BAUD)
        elif ticks_diff(now, self.last_good) >= IDLE_REVERT_MS:
            self._switch(BOOT_BAUD)

    def step(self, job):
        """Advance a long request by one step; True when it is finished."""
        seq, gen = job
        try:
            item = next(gen)
        except StopIteration:
            self.write(frame.encode(ERROR, seq, error_payload("E_INTERNAL", "no reply")))
            return True
        except Exception as e:
            self.write(frame.encode(ERROR, seq, error_payload("E_INTERNAL", str(e))))
            return True
        if item is None:
            return False
        self.write(frame.encode(item[0], seq, item[1]))
        return True


def _writer(stream_out):
    def write(data):
        try:
            stream_out.write(data)
            if hasattr(stream_out, "flush"):
                stream_out.flush()
        except Exception:
            pass  # nobody listening: the host will ask again
    return write


async def serve(stream_in, stream_out, handler, set_baud=None, clock=None, idle_ms=IDLE_MS):
    """The asyncio task the runtime starts; runs forever.

    set_baud(rate): switches the link's UART (hal_link.set_baud), or None: BAUD is refused.
    clock: an object with ticks_ms() (timebase.SystemClock) for the rate's probation."""
    read = _make_reader(stream_in)
    if clock is None:
        from timebase import SystemClock

        clock = SystemClock()
    server = Server(handler, _writer(stream_out), set_baud, clock)
    server.last_good = clock.ticks_ms()
    server.pause = idle_ms / 1000
    owns_stdin = not hasattr(stream_in, "any")   # the REPL's stream, not a machine.UART
    if owns_stdin:
        _kbd_intr(-1)
    try:
        await _loop(read, server, clock)
    finally:
        if owns_stdin:
            _kbd_intr(INTERRUPT_CHAR)


# While bytes are coming, look at the port every millisecond: the chip buffers only a
# few hundred bytes (259 on the UART, 515 on native USB), so a 10 ms nap between two
# reads would cap a transfer at about 26-50 KB/s whatever the link could carry.
BUSY_MS = 100


async def _loop(read, server, clock):
    last_data = clock.ticks_ms()
    while True:
        try:
            data = read()
        except Exception:
            data = b""
        if not data:
            now = clock.ticks_ms()
            server.check_rate(now)
            if ticks_diff(now, last_data) < BUSY_MS:
                await asyncio.sleep_ms(1) if hasattr(asyncio, "sleep_ms") else await asyncio.sleep(0.001)
            else:
                await asyncio.sleep(server.pause)
            continue
        last_data = clock.ticks_ms()
        try:
            work = server.feed(data)
        except Exception:
            server.decoder.reset()
            continue
        for seq, kind, payload in work:
            job = server.start(seq, kind, payload)
            while job is not None and not server.step(job):
                await asyncio.sleep(0)
        await asyncio.sleep(0)
