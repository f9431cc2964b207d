# The link's task while no host talks to the clock: it waits for the first byte and
# only then loads the link (link/server.py, then the request handler on the first
# request).  A clock at a tournament table mostly never hears from a host while a game
# runs, and on the lean target the server's code and names would otherwise take heap
# for the whole game (docs/runtime.md, Memory).  Nothing is read here: the byte that
# wakes the link stays in the port for the server's reader.
#
# Ctrl-C is plain data from the start, as while the server runs (link/server.py): a
# 0x03 on the line must not stop the game before any host has spoken.

import asyncio

_NAP_MS = 10   # as the server's idle pause: the chip's 259-byte buffer holds 22 ms at 115200


async def listen(stream_in, stream_out, handler, set_baud=None, clock=None):
    import micropython
    import select

    owns_stdin = not hasattr(stream_in, "any")   # the REPL's stream, not a machine.UART
    if owns_stdin:
        micropython.kbd_intr(-1)
    poller = select.poll()
    poller.register(stream_in, select.POLLIN)
    try:
        while True:
            for _ in poller.ipoll(0):     # ipoll: no allocation (extmod/modselect.c)
                break
            else:
                await asyncio.sleep_ms(_NAP_MS)
                continue
            break
    except BaseException:
        if owns_stdin:
            micropython.kbd_intr(3)
        raise
    poller.unregister(stream_in)
    from link.server import serve

    await serve(stream_in, stream_out, handler, set_baud, clock)
