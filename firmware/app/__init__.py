# The firmware's main program.  main.py calls run(); tests and the simulator
# call build() with their own clock or board and drive the Device directly.
#
#   run()                   the device: hardware, restore, asyncio tasks, forever
#   build(clock, board)     a started Device (restored from NVS when a game was saved)

LEXICON = "lexicon.dawg"
# the record of the list's full check (the host's at flashing, the clock's at install):
# with it the list opens by its header alone
VERIFIED = "lexicon.ok"

from app.heap import cache_bytes, resident_bytes


def open_lexicon():
    """(reader, None) or (None, "missing" | "damaged"): the list in the word list
    partition lexicon/slots.py names, else the file lexicon.dawg.  Any failure to open
    the list (a damaged or unsupported image, a read error, no memory for its check)
    leaves the clock without the judge, its terminal saying the list is unusable: never
    an error that stops the clock (docs/challenge-terminal.md)."""
    try:
        from lexicon import LexiconError, open_file, open_partition
        from lexicon.slots import partition, selected

        label = selected()
        if label is None:
            return open_file(LEXICON, cache_bytes=cache_bytes(), record=VERIFIED,
                             resident_bytes=resident_bytes()), None
        part = partition(label)
        if part is None:
            return None, "missing"
        return open_partition(part, cache_bytes=cache_bytes(), record=VERIFIED,
                              resident_bytes=resident_bytes()), None
    except LexiconError as e:
        return None, "missing" if e.kind == "missing" else "damaged"
    except Exception:
        return None, "damaged"


def _flow(engine, config, lex, problem):
    from terminal.flow import ChallengeFlow
    from terminal.log import ChallengeLog

    import esp32
    from hal_rtc import now_text
    from store.state import NAMESPACE

    # the referee's PIN lock is kept in the game state's NVS namespace (key "pin")
    return ChallengeFlow(engine, lex, ChallengeLog("logs"), config, problem=problem,
                         wall=now_text, nvs=esp32.NVS(NAMESPACE))


def flow_factory(config):
    def make(engine):
        lex, problem = open_lexicon()
        if lex is None:
            return _flow(engine, config, None, problem)
        try:
            return _flow(engine, config, lex, None)
        except Exception:
            # the list opened, yet the terminal cannot take it (its tiles): unusable
            lex.close()
            return _flow(engine, config, None, "damaged")
    return make


def hall_tasks(dev, clock):
    """The hall's task (app/hall.py) when the clock is set up to publish, else (): a clock
    without the settings never loads it, and an image without the hall (the lean
    target's, docs/hall.md) has no app.hall."""
    if not dev.config.get("hall"):
        return ()
    try:
        from app import hall
    except ImportError:
        return ()
    return hall.start(dev, clock)


def reset_cause():
    """"watchdog" after a watchdog reset, "sleep" after waking from deep sleep (the
    battery was empty), else ""."""
    try:
        import machine

        cause = machine.reset_cause()
        if cause == machine.WDT_RESET:
            return "watchdog"
        if cause == machine.DEEPSLEEP_RESET:
            return "sleep"
        return ""
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


class LinkOnDemand:
    """The link's request handler, made when a host first sends a request.  A clock
    at a tournament table mostly never hears from a host while it runs: until then
    the handler's code, its names and the services it reaches stay out of the heap
    (the listening task is small).  Once made it stays: a host that came once comes
    again, and its names (qstrs) stay interned anyway."""

    def __init__(self, dev):
        self._dev = dev
        self._handler = None
        self.link = None          # given on to the handler (link/server.py, INFO "dropped")

    def _get(self):
        if self._handler is None:
            from app.services import Services
            from link.handler import LinkHandler

            self._handler = LinkHandler(Services(self._dev, open_lexicon))
            self._handler.link = self.link
        return self._handler

    def handle(self, kind, payload):
        return self._get().handle(kind, payload)

    @property
    def services(self):
        return self._get().services


def link_task(dev, clock, stream_in, stream_out):
    """The link's asyncio task (a coroutine, not started); the memory tests make it
    here too, so that they hold what a running clock holds."""
    import hal_link
    from link.listen import listen

    # The link task owns stdin: Ctrl-C is data while it runs (link/listen.py, server.py).
    return listen(stream_in, stream_out, LinkOnDemand(dev), hal_link.set_baud, clock)


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
    # (the pause switch that woke the device from deep sleep is no self-test request)
    if reset_cause() != "sleep" and selftest_requested(board):
        import hal_power
        import selftest

        selftest.run(board, clock, cause=hal_power.wake_cause())
    dev = build(clock, board)
    extra = tuple(extra) + hall_tasks(dev, clock)     # publishing to the hall, if set up
    gc.collect()
    server = link_task(dev, clock, sys.stdin.buffer, sys.stdout.buffer) if link else None
    def on_hang(now):
        dev.save(now)
        dev.flush_log(now)
        machine.reset()

    wdt = machine.WDT(timeout=wdt_timeout_ms or TIMEOUT_MS)
    asyncio.run(tasks.main(dev, wdt, server, extra, on_hang))
