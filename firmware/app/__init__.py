# The firmware's main program.  main.py calls run(); tests and the simulator
# call build() with their own clock or board and drive the Device directly.
#
#   run()                   the device: hardware, restore, asyncio tasks, forever
#   build(clock, board)     a started Device (restored from NVS when a game was saved)

LEXICON = "lexicon.dawg"
VERIFIED = "lexicon.ok"     # digest of the list's full check: opened by its header after
CACHE_BYTES = 4096


def open_lexicon():
    """(reader, None) or (None, "missing" | "damaged")."""
    from lexicon import LexiconError, open_file

    try:
        return open_file(LEXICON, cache_bytes=CACHE_BYTES, record=VERIFIED), None
    except LexiconError as e:
        return None, e.kind


def flow_factory(config):
    def make(engine):
        from terminal.flow import ChallengeFlow
        from terminal.log import ChallengeLog

        lex, problem = open_lexicon()
        return ChallengeFlow(engine, lex, ChallengeLog("logs"), config, problem=problem)
    return make


def reset_cause():
    """"watchdog" after a watchdog reset, else ""."""
    try:
        import machine

        return "watchdog" if machine.reset_cause() == machine.WDT_RESET else ""
    except (ImportError, AttributeError):
        return ""


def build(clock, board, terminal=True):
    from app.device import Device
    from store.config import Config
    from store.gamelog import LogFile
    from store.state import create as create_state

    config = Config()
    dev = Device(clock, board, config, create_state(), LogFile(),
                 flow_factory(config) if terminal else None, reset_cause())
    return dev.start()


def selftest_requested(board):
    """Pause held at power-on."""
    return board.buttons.is_down("pause")


def run(link=True, wdt_timeout_ms=None, extra=()):
    import asyncio
    import gc
    import sys

    import machine

    from app import board as board_mod
    from app import tasks
    from app.watchdog import TIMEOUT_MS
    from timebase import SystemClock

    clock = SystemClock()
    board = board_mod.create(clock)
    if selftest_requested(board):
        import selftest

        selftest.run(board, clock)
    dev = build(clock, board)
    gc.collect()
    server = None
    if link:
        from app.services import Services
        from link.handler import LinkHandler
        from link.server import serve

        server = serve(sys.stdin.buffer, sys.stdout.buffer, LinkHandler(Services(dev, open_lexicon)))
    def on_hang(now):
        dev.save(now)
        dev.flush_log(now)
        machine.reset()

    wdt = machine.WDT(timeout=wdt_timeout_ms or TIMEOUT_MS)
    asyncio.run(tasks.main(dev, wdt, server, extra, on_hang))
