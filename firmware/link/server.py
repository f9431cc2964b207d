# The link task: reads frames from the host, answers them through the
# handler, and never lets a bad byte or a failing request end the task.
#
#   asyncio.create_task(serve(sys.stdin.buffer, sys.stdout.buffer, handler))

from micropython import const
import asyncio

from link import frame
from link.handler import ERROR, error_payload

IDLE_MS = 10
_READ_MAX = const(256)


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

    def __init__(self, handler, write):
        self.handler = handler
        self.write = write
        self.decoder = frame.Decoder()
        self.bad_frames = 0
        self.frames = 0

    def feed(self, data):
        """Decode bytes; returns a list of pending work generators/replies."""
        work = []
        for r in self.decoder.feed(data):
            status, version, kind, seq, payload = r
            if status == frame.OK:
                self.frames += 1
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
        r = self.handler.handle(kind, payload)
        if isinstance(r, tuple):
            self.write(frame.encode(r[0], seq, r[1]))
            return None
        return (seq, r)

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


async def serve(stream_in, stream_out, handler, idle_ms=IDLE_MS):
    """The asyncio task the runtime starts; runs forever."""
    read = _make_reader(stream_in)
    server = Server(handler, _writer(stream_out))
    pause = idle_ms / 1000
    while True:
        try:
            data = read()
        except Exception:
            data = b""
        if not data:
            await asyncio.sleep(pause)
            continue
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
