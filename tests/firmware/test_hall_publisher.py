# The clock's side of the hall (app/hall.py, hall/outbox.py): what the device publishes
# and when, with the network thread replaced by a stand-in the test answers for, the
# device on the fakes (runtime_rig) and time driven by the test.  Every message is read
# back as the hall reads it (message.decode with the event's key).  The settings
# (store/config_check.py) and what the link shows of them.  CPython and MicroPython.

import json

import esp32
import runtime_rig
from mpytest import raises

from app import hall as hall_mod
from clock.engine import PHASE_OVER
from hall import message as m
from hall.outbox import RESULTS_KEPT, ResultStore
from hall.sign import Signer
from store.state import NAMESPACE

KEY = "dm2026-secret-key-1"
SETTINGS = {"wifi_ssid": "venue", "wifi_password": "password1", "hall": "mqtt://10.0.0.2:1883",
            "event": "dm2026", "hall_key": KEY, "table": "7"}


class StandInNet:
    """hall/net.py's interface: the test says whether the network is up and answers
    each message given."""

    def __init__(self):
        self.up = True
        self.given = []        # (topic, payload, retain, qos)
        self._pending = False
        self._answer = None
        self.status = "up"
        self.connects = 1
        self.failures = 0
        self.error = ""

    def ready(self):
        return self.up and not self._pending and self._answer is None

    def give(self, topic, payload, retain, qos):
        self.given.append((topic, payload, retain, qos))
        self._pending = True

    def ack(self, ok=True):
        assert self._pending
        self._pending = False
        self._answer = ok

    def answer(self):
        a = self._answer
        self._answer = None
        return a


def _read(job):
    answer, msg = m.decode(job[0], job[1], Signer(KEY))
    assert answer == m.OK, msg
    return msg


def _rig(**extra):
    config = dict(SETTINGS)
    config.update(extra)
    return runtime_rig.Rig(terminal=True, lexicon="de", config=config)


def _hall(rig):
    """The device's Hall as app.hall.setup makes it, with the stand-in network."""
    from version import VERSION

    store = ResultStore(esp32.NVS(NAMESPACE))
    pub = m.Publisher(KEY, "dm2026", "7", "dev7", store.next_boot(), VERSION)
    net = StandInNet()
    hall = hall_mod.Hall(rig.dev, pub, net, store)
    rig.dev.key_hook = hall.on_key
    rig.dev.hall = hall
    return hall, net


def _step(rig, hall, net, ack=True):
    """One round of the hall's task; the message it gave (acknowledged), or None."""
    n = len(net.given)
    hall.step(rig.now())
    if len(net.given) == n:
        return None
    if ack is not None:
        net.ack(ack)                # taken by the next step (which may give the next)
    return net.given[n]


def _lost_then_sent(rig, hall, net):
    """A message given and not acknowledged, and the one given next in its place
    (acknowledged): (first, second)."""
    first = _step(rig, hall, net, ack=False)
    second = _step(rig, hall, net)
    return first, second


def _drain(rig, hall, net):
    out = []
    while True:
        job = _step(rig, hall, net)
        if job is None:
            return out
        out.append(_read(job))


def test_state_on_every_change_and_a_heartbeat_every_10_s():
    rig = _rig()
    try:
        hall, net = _hall(rig)
        first = _drain(rig, hall, net)
        assert [x["kind"] for x in first] == ["state"]
        assert first[0]["table"] == "7" and first[0]["phase"] == 0 and first[0]["boot"] == 1
        assert first[0]["list"][0] and first[0]["referee"] == 0
        rig.press("right")                   # left's clock runs
        rig.run(100)
        state = _drain(rig, hall, net)
        assert [x["kind"] for x in state] == ["state"] and state[0]["run"] == 0
        assert state[0]["phase"] == 1
        # time passing is no change: nothing until the heartbeat is due
        rig.run(5000)
        assert _drain(rig, hall, net) == []
        rig.run(5000)
        beat = _drain(rig, hall, net)
        assert [x["kind"] for x in beat] == ["heartbeat"]
        assert 1789000 < beat[0]["ms"][0] < 1791000
        assert beat[0]["seq"] > state[0]["seq"]
        # a referee's time adjustment of the running side is a change
        rig.dev.engine.adjust(rig.now(), 0, 60000)
        assert [x["kind"] for x in _drain(rig, hall, net)] == ["state"]
    finally:
        runtime_rig.leave()


def test_while_the_network_is_down_the_state_is_coalesced_to_the_latest():
    rig = _rig()
    try:
        hall, net = _hall(rig)
        _drain(rig, hall, net)
        net.up = False
        for side in ("right", "left", "right", "left"):
            rig.press(side)
            hall.step(rig.now())
        rig.run(60000)
        hall.step(rig.now())
        assert net.given[-1:] and _read(net.given[-1])["phase"] == 0   # nothing new given
        net.up = True
        out = _drain(rig, hall, net)
        assert [x["kind"] for x in out] == ["state"]     # one state, as it is now
        assert out[0]["run"] == 1 and out[0]["turn"] == 1
        # a message not acknowledged is owed and built again: a new seq
        rig.press("right")
        job, again = _lost_then_sent(rig, hall, net)
        assert _read(again)["seq"] > _read(job)["seq"] and _read(again)["run"] == 0
    finally:
        runtime_rig.leave()


def _finish_game(rig, hall):
    rig.press("right")
    hall.step(rig.now())            # the task sees the game in play
    rig.run(1000)
    rig.press("left")
    rig.run(1000)
    rig.dev.engine.end_game(rig.now())
    rig.dev.commit(rig.now())
    assert rig.dev.engine.phase == PHASE_OVER


def test_a_result_is_kept_across_power_cuts_until_acknowledged_and_sent_again_with_scores():
    rig = _rig()
    try:
        hall, net = _hall(rig)
        _drain(rig, hall, net)
        _finish_game(rig, hall)
        net.up = False
        hall.step(rig.now())
        assert hall.store.waiting() == 1
        # a power cut with the result unsent: it is in NVS, and a new boot number
        rig.power_cut()
        rig.boot()
        hall, net = _hall(rig)
        assert hall.store.boot == 2 and hall.store.waiting() == 1
        net.up = False
        hall.step(rig.now())                 # the game over restored is no new result
        assert hall.store.game == 1 and hall.store.waiting() == 1
        net.up = True
        first, result = _lost_then_sent(rig, hall, net)  # lost on the way: still owed
        result = _read(result)
        assert result["kind"] == "result" and result["game"] == 1
        assert result["score"] is None and result["final"] is None
        assert result["seq"] > _read(first)["seq"] and result["boot"] == 2
        assert [x["kind"] for x in _drain(rig, hall, net)] == ["state"]
        assert hall.store.waiting() == 0
        # the players' scores come later: the same game again, with them
        assert hall.scores(1, [402, 377]) and not hall.scores(9, [1, 2])
        out = _drain(rig, hall, net)
        assert [x["kind"] for x in out] == ["result"]
        assert out[0]["game"] == 1 and out[0]["score"] == [402, 377]
        assert out[0]["final"] == [402 - out[0]["penalty"][0] - out[0]["chal_penalty"][0],
                                   377 - out[0]["penalty"][1] - out[0]["chal_penalty"][1]]
        rig.power_cut()
        rig.boot()
        hall, net = _hall(rig)
        assert hall.store.waiting() == 0 and hall.store.boot == 3
        assert [x["kind"] for x in _drain(rig, hall, net)] == ["state"]
    finally:
        runtime_rig.leave()


def test_the_store_keeps_the_unsent_results_first():
    runtime_rig.fresh_dir()
    try:
        esp32.sim_nvs_forget()
        store = ResultStore(esp32.NVS(NAMESPACE))
        result = {"sides": [{"overtime_penalty": 0, "challenge_penalty": 0, "penalty_points": 0,
                             "remaining_ms": 1000, "overtime_ms": 0}] * 2,
                  "forfeit_side": -1}
        assert store.over(result) is None          # no game seen in play
        for n in range(RESULTS_KEPT + 2):
            store.playing()
            assert store.over(result) == n + 1
            if n < 3:
                store.sent(n + 1, None)
        assert [r[0] for r in store.results][:1] == [3]  # sent ones dropped first
        assert len(store.results) == RESULTS_KEPT and store.waiting() == RESULTS_KEPT - 1
        esp32.sim_nvs_forget()
        again = ResultStore(esp32.NVS(NAMESPACE))
        assert again.results == store.results and again.game == RESULTS_KEPT + 2
    finally:
        runtime_rig.leave()


def test_the_referee_key_on_the_idle_screen_raises_the_alert_and_the_call_stands():
    rig = _rig(lang="en")
    try:
        hall, net = _hall(rig)
        _drain(rig, hall, net)
        rig.key(hall_mod.REFEREE_KEY)
        assert "Referee called" in rig.screen()
        out = _drain(rig, hall, net)
        assert [x["kind"] for x in out] == ["alert", "state"]
        assert out[0]["what"] == m.REFEREE and out[1]["referee"] == 1
        rig.run(10000)
        assert _drain(rig, hall, net)[0]["referee"] == 1      # the heartbeat says so too
        rig.key(hall_mod.REFEREE_KEY)                         # the call ends
        assert "Referee called" not in rig.screen()
        assert _drain(rig, hall, net)[0]["referee"] == 0
        # while the terminal is in a challenge the key is the terminal's
        rig.press("right")
        rig.run(2000)
        rig.press("left")                    # left's play can be challenged
        rig.key("A")
        assert rig.dev.flow.active()
        rig.key(hall_mod.REFEREE_KEY)
        assert not hall.referee
    finally:
        runtime_rig.leave()


def test_a_clock_without_the_hall_settings_has_no_hall():
    rig = runtime_rig.Rig(terminal=True, lexicon="de", config={"wifi_ssid": "venue"})
    try:
        assert not hall_mod.configured(rig.dev.config)
        assert hall_mod.start(rig.dev, rig.clock) == ()
        assert rig.dev.hall is None and rig.dev.key_hook is None
    finally:
        runtime_rig.leave()


def test_the_hall_settings_are_checked_and_the_secrets_never_shown():
    rig = _rig()
    try:
        config = rig.dev.config
        shown = config.masked()
        assert shown["hall_key"] == "(set)" and shown["wifi_password"] == "(set)"
        assert shown["hall"] == "mqtt://10.0.0.2:1883" and shown["event"] == "dm2026"
        assert config.get("hall_key") == KEY
        from app.services import Services

        assert KEY not in json.dumps(Services(rig.dev, None).get_config())
        for key, value, words in (("hall", "http://x:1", "mqtt://"),
                                  ("hall", "mqtt://10.0.0.2:99999", "port"),
                                  ("hall", "mqtt://a b:1", "host"),
                                  ("event", "dm 2026", "only letters"),
                                  ("hall_key", "short", "hall_key: at least 16"),
                                  ("hall_key", "(set)", "not what config get shows"),
                                  ("wifi_password", "short", "8 to 63"),
                                  ("wifi_ssid", "x" * 33, "32 bytes"),
                                  ("wifi_ssid", 5, "text")):
            ok, why = config.set(key, value)
            assert not ok and words in why, (key, value, why)
        assert config.get("hall_key") == KEY      # refused: nothing changed
        assert config.set("hall", "mqtt://hall.local")[0]
        from hall.broker import parse

        assert parse("mqtt://hall.local") == ("hall.local", 1883)
        assert parse("mqtt://192.168.1.10:1884/") == ("192.168.1.10", 1884)
        assert "mqtt://" in str(raises(ValueError, parse, "192.168.1.10"))
    finally:
        runtime_rig.leave()


def test_the_scores_confirmed_at_the_keypad_go_out_with_the_result_once():
    rig = _rig()
    try:
        hall, net = _hall(rig)
        _drain(rig, hall, net)
        _finish_game(rig, hall)
        net.ack()                              # the state given while the game was on
        rig.run(100)
        first = [x for x in _drain(rig, hall, net) if x["kind"] == "result"]
        assert len(first) == 1 and first[0]["score"] is None and first[0]["final"] is None
        # typed and confirmed on the keypad (# is the entry's, not the hall's referee key)
        rig.keys("412#C380#C")
        assert rig.dev.flow.sheet_scores() == [412, 380] and not hall.referee
        again = [x for x in _drain(rig, hall, net) if x["kind"] == "result"]
        assert len(again) == 1 and again[0]["game"] == first[0]["game"]
        assert again[0]["score"] == [412, 380] and again[0]["final"] == [412, 380]
        # a power cut and a restart: the scores are known, nothing goes out again
        rig.power_cut()
        rig.boot()
        hall, net = _hall(rig)
        rig.run(100)
        assert rig.dev.flow.sheet_scores() == [412, 380]
        assert [x for x in _drain(rig, hall, net) if x["kind"] == "result"] == []
    finally:
        runtime_rig.leave()
