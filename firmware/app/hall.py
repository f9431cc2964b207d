# The clock's side of the hall (docs/hall.md): what the device publishes to the venue's
# MQTT broker, as one asyncio task around plain methods.
#
#   setup(dev, config)   a Hall when Wi-Fi, broker, event and key are all set, else None
#                        (the clock then works as without the hall)
#   Hall.step(now)       every _STEP_MS: the game's state, a finished game's result, the
#                        network thread's answer, the next message owed (hall/outbox.py)
#   Hall.on_key(ch, t)   the referee key on the idle screen (Device.key_hook)
#   Hall.scores(game, [left, right])   the players' scores of a finished game: its result
#                        goes out again with them (step() gives it the scores the keypad's
#                        entry confirmed, terminal/scores.py)
#
# The network itself (Wi-Fi, umqtt.simple) runs in a thread (hall/net.py): nothing here
# waits for it.  Nothing arrives at the clock over the network: it only publishes.

from micropython import const

from clock.engine import PHASE_ENDING, PHASE_OVER, PHASE_PLAY
from hall import message

_STEP_MS = const(100)
REFEREE_KEY = "#"          # on the idle screen: call the referee; again: the call ends
_HALL_KEYS = ("wifi_ssid", "wifi_password", "hall", "event", "hall_key")


def configured(config):
    """True when every setting the hall needs is given."""
    for key in _HALL_KEYS:
        if not config.get(key):
            return False
    return True


class Hall:
    def __init__(self, dev, publisher, net, store):
        from hall.outbox import Outbox

        self.dev = dev
        self.net = net
        self.store = store
        self.outbox = Outbox(publisher, store)
        self.referee = False
        self._seen = None          # the engine last looked at (a new game: a new engine)
        self._scored = None        # (game, scores) last given to the store

    # -- what the device asks ---------------------------------------------------------

    def on_key(self, ch, t):
        """The referee key on the idle screen; True if the key was taken."""
        flow = self.dev.flow
        if ch != REFEREE_KEY or flow is not None and flow.active():
            return False
        self.referee = not self.referee
        if self.referee:
            self.outbox.alert(message.REFEREE, {"side": -1})
        self.dev.referee_called = self.referee
        self.dev.update_status()
        return True

    def scores(self, game, scores):
        """The scores [left, right] the players confirmed for `game` (the number the
        result went out with: info()["game"]).  False if that game is no longer kept."""
        return self.store.set_scores(game, scores)

    def info(self):
        net = self.net
        return {"status": net.status, "connects": net.connects, "failures": net.failures,
                "error": net.error, "sent": self.outbox.sent, "boot": self.store.boot,
                "game": self.store.game, "results_waiting": self.store.waiting(),
                "referee": self.referee}

    # -- the step ---------------------------------------------------------------------

    def fields(self, now):
        dev = self.dev
        engine = dev.engine
        f = message.clock_fields(engine, now)
        battery = dev.board.battery
        pct = -1
        if battery is not None and dev.battery_level != "usb":
            pct = battery.percent()
        lex = dev.flow.lexicon if dev.flow is not None else None
        f.update(message.device_fields(pct, lex.name if lex is not None else "",
                                       lex.version if lex is not None else "", self.referee))
        last = engine.last_challenge
        if last is not None:
            f["last_challenge"] = message.challenge_fields(last[0], last[1])
        return f

    def step(self, now):
        engine = self.dev.engine
        phase = engine.phase_at(now)
        if phase == PHASE_PLAY or phase == PHASE_ENDING:
            self.store.playing()
        elif phase == PHASE_OVER:
            store = self.store
            store.over(engine.result(now))
            flow = self.dev.flow
            scores = flow.sheet_scores() if flow is not None else None
            if scores is not None and (store.game, scores) != self._scored:
                # the players confirmed their scores at the keypad (terminal.scores): the
                # result again, with them (after a restart too: the same scores change
                # nothing in the store)
                self._scored = (store.game, scores)
                self.scores(store.game, scores)
        net = self.net
        answer = net.answer()
        if answer is not None:
            self.outbox.done(answer, now)
        if net.ready():
            job = self.outbox.next(self.fields(now), now)
            if job is not None:
                net.give(job[0], job[1], job[2], job[3])


def setup(dev, config):
    """A started Hall for the device, or None without the hall's settings (or when the
    firmware cannot publish: no thread or network module); never an error."""
    if not configured(config):
        return None
    try:
        import esp32

        from hall.broker import parse
        from hall.net import Net
        from hall.outbox import ResultStore
        from link.files import unique_id_hex
        from store.state import NAMESPACE
        from version import VERSION

        host, port = parse(config.get("hall"))
        store = ResultStore(esp32.NVS(NAMESPACE))
        device = unique_id_hex()
        table = str(config.get("table") or "") or device
        publisher = message.Publisher(config.get("hall_key"), config.get("event"), table,
                                      device, store.next_boot(), VERSION)
        net = Net(config.get("wifi_ssid"), config.get("wifi_password"), host, port,
                  "tileclock-" + device)
    except Exception as e:
        dev.hall_error = repr(e)
        return None
    hall = Hall(dev, publisher, net, store)
    dev.key_hook = hall.on_key
    net.start()
    return hall


async def task(hall, clock):
    import asyncio

    while True:
        try:
            hall.step(clock.ticks_ms())
        except Exception as e:     # the hall never stops the clock: INFO says what failed
            hall.net.error = "step: %r" % e
        await asyncio.sleep_ms(_STEP_MS)


def start(dev, clock):
    """The hall's task for run()'s extra tasks: () without the hall."""
    hall = setup(dev, dev.config)
    if hall is None:
        return ()
    dev.hall = hall
    return (task(hall, clock),)
