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
# A host that stops reading (docs/link-protocol.md, 4.6): replies are written by Sender,
# one at a time with the loop yielding between them.  On the WROOM's UART a write takes
# the bytes' time on the wire and never waits for the host (the USB-UART bridge drops
# what its host does not read).  On the S3's native USB a write waits while a host that
# holds the port open does not read, up to 500 ms for room in TinyUSB's FIFO, then
# returns what fitted (shared/tinyusb/mp_usbd_cdc.c, mp_usbd_cdc_tx_strn; the stream
# calls it again for the rest, which waits once more: up to about 1 s in all).  A reply
# that did not go out whole marks the host as not reading: the replies of the next
# _RETRY_MS are dropped without a write, then one is tried again.  Each dropped reply is
# counted (INFO "dropped"); the clock's loop is never held longer than one such write.
#
# Baud rate (the WROOM's UART0; on native USB the rate means nothing): BAUD asks the
# device to switch.  The reply goes out at the old rate, then the port switches; if
# no good frame arrives at the new rate within _PROBATION_MS, or none for IDLE_REVERT_MS
# later, the device goes back to the rate it booted with, where a new host finds it.

from micropython import const
import asyncio

from link import frame
from link.frame import error_payload
from link.messages import BAUD, ERROR, REPLY
from timebase import ticks_clamp, ticks_diff

IDLE_MS = 10
_READ_MAX = const(256)
BOOT_BAUD = 115200
BAUDS = (115200, 230400, 460800, 921600, 1500000, 2000000)
_PROBATION_MS = const(2000)
IDLE_REVERT_MS = 10000
INTERRUPT_CHAR = 3
_RETRY_MS = const(3000)


def _kbd_intr(char):
    try:
        import micropython

        micropython.kbd_intr(char)
    except (ImportError, AttributeError):  # CPython (tests of the pure logic)
        pass


def _make_reader(stream_in, allow_whole=None):
    """A function returning the bytes available now (possibly b"") without blocking
    (but see StdinReader: the rest of a frame whose header has come)."""
    if hasattr(stream_in, "any"):  # machine.UART
        def read_uart():
            n = stream_in.any()
            return stream_in.read(min(n, _READ_MAX)) if n else b""
        return read_uart
    return StdinReader(stream_in, allow_whole)


_FLAG = const(0x7E)
_ESC = const(0x7D)
_ESC_B = b"\x7d"
_FLAG_B = b"\x7e"
_OUT = const(0)       # not inside a frame (or inside one that is not ours): byte by byte
_HEAD = const(1)      # after a flag: collecting the frame's header
_BODY = const(2)      # header known: `left` unescaped bytes of payload and CRC to come
_WHOLE_MAX = const(1536)   # a chunk frame (1 KB of data) and its escapes


class StdinReader:
    """Reads the link from the REPL's stdin, a frame's body in one piece.

    On the chip the REPL's UART feeds a 260-byte ring buffer from its interrupt
    (ports/esp32/uart.c:99-116, mphalport.c:57 at v1.26.0), and Python can only learn
    that it holds at least one byte (poll: mp_hal_stdio_poll, mphalport.c:108-127).
    sys.stdin.buffer.readinto(buf) returns only once len(buf) bytes have come
    (stdio_buffer_read, shared/runtime/sys_stdio_mphal.c:137-141, loops on
    mp_hal_stdin_rx_chr, mphalport.c:129-143).  machine.UART(0), whose any() would
    say how many bytes wait, is no way out: on the REPL's UART the port installs no
    ESP-IDF driver (machine_uart.c:465-479), so any() fails (502) and the buffer size
    is fixed (252).  Taking the bytes one poll and one read(1) at a time costs the
    chip more time per byte than 921600 baud leaves it (about 11 us), and the ring
    buffer overflows within 2.8 ms.  But a frame's header says how long it is: once
    the header has come, at least `left` + 1 more bytes are on their way (payload
    and CRC, each byte one or two on the wire, then the closing flag), so readinto()
    of that many takes them in C as fast as they arrive and returns as soon as they
    are there.  The interrupt still applies the kbd_intr rule to every byte
    (uart.c:111-112): Ctrl-C handling is unchanged.

    The price: a frame cut in the middle (cable pulled) leaves that read waiting for
    bytes that do not come, and the whole asyncio loop with it, until the host sends
    again or the watchdog restarts the clock.  So whole-frame reads are used only when
    `allow_whole()` says so (Server.whole_frames: at a rate a host negotiated for a
    transfer, never during a game); otherwise every byte is taken singly, never
    waiting.
    """

    def __init__(self, stream, allow_whole=None):
        import select

        self.stream = stream
        self.allow_whole = allow_whole
        self.poller = select.poll()
        self.poller.register(stream, select.POLLIN)
        self.buf = bytearray(_READ_MAX)
        self.one = bytearray(1)
        self.big = None           # the whole-frame buffer, while whole reads are allowed
        self.state = _OUT
        self.head = bytearray(frame.HEAD)
        self.nhead = 0
        self.left = 0             # unescaped bytes of payload and CRC still to come
        self.esc = False          # the last byte was an escape
        self.whole = 0            # frames read whole (statistics, tests)

    def __call__(self):
        allow = self.allow_whole
        whole = allow is not None and allow()
        # Between frames (never in the middle of one: an allocation there could set off
        # a garbage collection while the bytes stream in), take or drop the buffer.
        if whole and self.big is None:
            self.big = bytearray(_WHOLE_MAX)
        elif not whole:
            self.big = None
        if whole:
            return self._read_frame()
        return self._read_singly()

    def _ready(self):
        # poll without allocating: ipoll() returns the poll object itself as the
        # iterator (extmod/modselect.c)
        for _ in self.poller.ipoll(0):
            return True
        return False

    def _read_singly(self):
        # One byte at a time: the chip's stdin only promises the first byte when
        # poll() says it is readable.
        buf = self.buf
        one = self.one
        n = 0
        stream = self.stream
        while n < _READ_MAX and self._ready():
            if not stream.readinto(one):
                break
            buf[n] = one[0]
            n += 1
            self._track(one[0])
        return bytes(buf[:n])

    def _read_frame(self):
        """Bytes up to a frame's opening flag as poll() offers them, then the whole
        frame up to its closing flag, read as the frame promises them.  Nothing is
        allocated from the opening flag to the closing one: on the chip a garbage
        collection there would let the 260-byte ring buffer overflow while the frame
        streams in at up to 92 bytes a millisecond."""
        buf = self.buf
        one = self.one
        stream = self.stream
        n = 0
        while n < _READ_MAX:
            if self.state == _BODY:
                body = self._read_body()         # first: nothing allocated before it
                return bytes(buf[:n]) + body
            # After a frame's opening flag its header is on its way: read it without
            # asking poll (which also keeps this loop free of allocations).
            in_frame = self.state == _HEAD and (self.nhead or self.esc)
            if not in_frame and not self._ready():
                break
            if not stream.readinto(one):
                break
            buf[n] = one[0]
            n += 1
            self._track(one[0])
        return bytes(buf[:n])

    def _read_body(self):
        """The rest of the frame, up to its closing flag, into the whole-frame buffer.
        Each readinto asks for no more bytes than the frame still promises (`left` + 1:
        escapes only add bytes): the first in one call, which returns once they have all
        come; the few bytes the escapes add, then the closing flag, one at a time."""
        big = self.big
        size = _WHOLE_MAX             # the size self.big was made with
        stream = self.stream
        one = self.one
        got = 0
        while got < size:
            want = self.left + 1
            if not got and want > 8 and want <= size:
                n = stream.readinto(big, want)
                if not n:
                    break                        # the stream ended (host side gone)
                flag = big.find(_FLAG_B, 0, n)
                if flag >= 0:                    # shorter than its header said
                    got = self._after_flag(big, flag, n)
                    break
                self.left -= n - big.count(_ESC_B, 0, n)
                self.esc = big[n - 1] == _ESC
                got = n
                if self.left < 0:
                    self.state = _OUT
                    break
                continue
            # each still promised: the closing flag has not come
            if not stream.readinto(one):
                break
            b = one[0]
            big[got] = b
            got += 1
            if b == _FLAG:
                if not self.left and not self.esc:
                    self.whole += 1
                self._track(b)
                break
            self._track(b)
            if self.state != _BODY:
                break
        return big[:got]

    def _after_flag(self, big, flag, end):
        # A flag inside a run: this frame ended early (damaged; the decoder answers
        # it); the bytes after the flag begin the next one, followed byte by byte.
        self.state = _OUT
        for i in range(flag, end):
            self._track(big[i])
        return end

    def _track(self, b):
        if b == _FLAG:
            self.state = _HEAD
            self.nhead = 0
            self.esc = False
            return
        if self.state == _OUT:
            return
        if self.esc:
            self.esc = False
            b ^= 0x20
        elif b == _ESC:
            self.esc = True
            return
        if self.state == _HEAD:
            head = self.head
            head[self.nhead] = b
            self.nhead += 1
            if self.nhead == frame.HEAD:
                n = head[4] | (head[5] << 8)
                if head[0] != frame.VERSION or n > frame.MAX_PAYLOAD:
                    self.state = _OUT         # not a frame of ours: byte by byte
                else:
                    self.state = _BODY
                    self.left = n + 4         # payload and CRC
        else:
            self.left -= 1
            if self.left < 0:
                self.state = _OUT


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
        self.write(frame.encode(BAUD | REPLY, seq, json.dumps(
            {"ok": True, "baud": baud, "probation_ms": _PROBATION_MS}).encode()))
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

    def whole_frames(self):
        """Whether the link may read a frame's body whole (StdinReader): only at a rate
        a host negotiated for a transfer (it sends whole frames, back to back with its
        replies), and never during a game (a frame cut short would hold up the clock
        until the watchdog restarts it)."""
        if self.baud == BOOT_BAUD:
            return False
        game = getattr(getattr(self.handler, "services", None), "game_in_progress", None)
        return game is None or not game()

    def check_rate(self, now):
        """Back to the boot rate when the new one does not work or the host left."""
        if self.baud == BOOT_BAUD:
            return
        if self.switched_at is not None:
            if ticks_diff(now, self.switched_at) >= _PROBATION_MS:
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


class Sender:
    """Writes the link's frames; drops them while the host does not read (see the top).

    sender(data) -> True if the frame went out whole.  `dropped`: frames dropped so far
    (a frame cut short by the wait counts too: the host skips it as damaged)."""

    def __init__(self, stream, clock):
        self.stream = stream
        self.clock = clock
        self.dropped = 0
        self.stalled_at = None    # ticks of the last write the host did not take whole
        self._flush = getattr(stream, "flush", None)

    def __call__(self, data):
        clock = self.clock
        if self.stalled_at is not None:
            if ticks_diff(clock.ticks_ms(), self.stalled_at) < _RETRY_MS:
                self.dropped += 1
                return False
        try:
            n = self.stream.write(data)
            if self._flush is not None:
                self._flush()
        except Exception:         # nobody listening: the host will ask again
            n = 0
        if n is None or n < len(data):    # None: nothing fitted (a non-blocking stream)
            self.dropped += 1
            self.stalled_at = clock.ticks_ms()
            return False
        self.stalled_at = None
        return True


async def serve(stream_in, stream_out, handler, set_baud=None, clock=None, idle_ms=IDLE_MS):
    """The asyncio task the runtime starts; runs forever.

    set_baud(rate): switches the link's UART (hal_link.set_baud), or None: BAUD is refused.
    clock: an object with ticks_ms() (timebase.SystemClock) for the rate's probation."""
    if clock is None:
        from timebase import SystemClock

        clock = SystemClock()
    sender = Sender(stream_out, clock)
    handler.link = sender         # INFO's "dropped"
    server = Server(handler, sender, set_baud, clock)
    read = _make_reader(stream_in, server.whole_frames)
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
_BUSY_MS = const(100)


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
            last_data = ticks_clamp(now, last_data, _BUSY_MS)   # days without a byte
            if ticks_diff(now, last_data) < _BUSY_MS:
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
        await asyncio.sleep(0)        # after the error replies of damaged frames
        for seq, kind, payload in work:
            job = server.start(seq, kind, payload)
            while job is not None and not server.step(job):
                await asyncio.sleep(0)
            await asyncio.sleep(0)    # one reply at a time: the clock's tasks between them
