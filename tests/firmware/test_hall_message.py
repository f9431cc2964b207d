# The hall's messages (firmware/hall/message.py): built by the clock's publisher, read
# by the hall.  Runs under CPython and MicroPython.

import json

from clock_helpers import MIN, SEC, Table
from mpytest import raises

from hall import message as m
from hall.sign import Signer

KEY = "dm2026-secret-key"


def publisher(table="12", boot=3):
    return m.Publisher(KEY, "dm2026", table, "a1b2c3", boot, "0.1.0")


def state_fields():
    t = Table()
    t.press(1)  # right ends the first turn: left's clock runs
    t.wait(61 * SEC)
    fields = m.clock_fields(t.engine, t.now())
    fields.update(m.device_fields(87, "de-2026", "2026.1"))
    return fields


def test_topic_layout_and_parsing():
    assert m.topic("dm2026", "12", m.STATE) == "tileclock/dm2026/12/state"
    assert m.parse_topic("tileclock/dm2026/12/result") == ("dm2026", "12", "result")
    assert m.parse_topic("tileclock/dm2026/12/other") is None
    assert m.parse_topic("tileclock/dm2026/12") is None
    assert m.parse_topic("elsewhere/dm2026/12/state") is None
    assert m.parse_topic("tileclock/dm 2026/12/state") is None
    assert m.subscription("dm2026") == "tileclock/dm2026/+/+"
    assert m.subscription() == "tileclock/+/+/+"


def test_names_and_keys_are_checked_with_a_reason():
    assert m.check_name("table-12.a") is None
    assert "empty" in m.check_name("")
    assert "only letters" in m.check_name("12/3")
    assert "only letters" in m.check_name("#")
    assert "longer" in m.check_name("x" * 33)
    assert m.check_key("a" * 16) is None
    assert "at least 16" in m.check_key("short")
    assert "printable" in m.check_key("with a space in it")
    assert "table" in str(raises(ValueError, m.Publisher, KEY, "ev", "1 2", "d", 1, "0"))
    assert "key" in str(raises(ValueError, m.Publisher, "short", "ev", "1", "d", 1, "0"))


def test_a_state_message_is_compact_signed_json_and_reads_back():
    p = publisher()
    name, payload = p.state(state_fields())
    assert name == "tileclock/dm2026/12/state"
    body, tag = payload.split(b"\n")
    assert len(tag) == 64 and b" " not in body
    assert len(payload) < 400
    answer, msg = m.decode(name, payload, Signer(KEY))
    assert answer == m.OK, msg
    assert msg == json.loads(body)
    assert (msg["boot"], msg["seq"], msg["device"], msg["fw"]) == (3, 1, "a1b2c3", "0.1.0")
    # left's clock ran 61 s of 30 minutes; right's has all of its time
    assert msg["ms"] == [30 * MIN - 61 * SEC, 30 * MIN] and msg["run"] == 0
    assert (msg["phase"], msg["turn"], msg["challenge"], msg["paused"]) == (1, 0, -1, 0)
    assert msg["penalty"] == [0, 0] and msg["chal_penalty"] == [0, 0]
    assert msg["battery_pct"] == 87 and msg["list"] == ["de-2026", "2026.1"]
    assert msg["referee"] == 0 and msg["forfeit"] == -1


def test_every_message_has_the_next_seq():
    p = publisher()
    seqs = []
    for build in (lambda: p.state(state_fields()), lambda: p.heartbeat(state_fields()),
                  lambda: p.alert(m.REFEREE, {"side": 1})):
        name, payload = build()
        answer, msg = m.decode(name, payload, Signer(KEY))
        assert answer == m.OK, msg
        seqs.append(msg["seq"])
    assert seqs == [1, 2, 3]
    assert msg["kind"] == m.ALERT and msg["what"] == m.REFEREE and msg["side"] == 1
    assert "publisher" in str(raises(ValueError, p.state, {"seq": 9}))


def test_overtime_is_negative_and_its_penalty_counts():
    t = Table()
    t.press(1)
    t.wait(30 * MIN + 61 * SEC)  # left in overtime 1:01: two started minutes
    fields = m.clock_fields(t.engine, t.now())
    assert fields["ms"][0] == -61 * SEC
    assert fields["penalty"] == [20, 0]


def test_a_challenge_shows_who_challenges_and_nothing_of_the_word():
    t = Table()
    t.press(1)
    t.wait(20 * SEC)
    t.press(0)  # left's play; right may challenge
    t.engine.start_challenge(t.now(), 1)
    fields = m.clock_fields(t.engine, t.now())
    assert fields["challenge"] == 1 and fields["run"] == -1
    outcome = t.engine.challenge_verdict(t.now(), True, 2)
    fields = m.clock_fields(t.engine, t.now())
    assert fields["challenge"] == -1
    last = m.challenge_fields(1, outcome)
    assert last["by"] == 1 and last["withdrawn"] == 0
    fields.update(m.device_fields(50, "de", "1"))
    fields["last_challenge"] = last
    answer, msg = m.decode(*publisher().state(fields), Signer(KEY))
    assert answer == m.OK, msg
    assert msg["last_challenge"] == last


def test_a_result_carries_scores_penalties_and_final_scores():
    t = Table()
    t.press(1)
    t.wait(30 * MIN + 61 * SEC)
    t.engine.end_game(t.now())
    fields = m.result_fields(7, [412, 389], t.engine.result(t.now()))
    assert fields["final"] == [392, 389] and fields["penalty"] == [20, 0]
    answer, msg = m.decode(*publisher().result(fields), Signer(KEY))
    assert answer == m.OK, msg
    assert (msg["kind"], msg["game"], msg["score"]) == ("result", 7, [412, 389])


def test_forged_moved_unsigned_and_broken_messages_are_told_apart():
    signer = Signer(KEY)
    name, payload = publisher().state(state_fields())
    body, tag = payload.split(b"\n")
    # signed with another key
    other = m.Publisher("another-key-of-16", "dm2026", "12", "a1b2c3", 3, "0.1.0")
    assert m.decode(*other.state(state_fields()), signer)[0] == m.BAD_SIGNATURE
    # the body changed, the tag kept
    forged = body.replace(b'"battery_pct":87', b'"battery_pct":88') + b"\n" + tag
    assert m.decode(name, forged, signer)[0] == m.BAD_SIGNATURE
    # moved to another table's topic
    assert m.decode("tileclock/dm2026/13/state", payload, signer)[0] == m.BAD_SIGNATURE
    # no tag at all
    answer, reason = m.decode(name, body, signer)
    assert answer == m.UNSIGNED and "signature" in reason
    assert m.decode(name, b"\x00\xffnot json", signer)[0] == m.MALFORMED
    assert m.decode("tileclock/x", payload, signer)[0] == m.MALFORMED


def test_signed_but_incomplete_messages_are_malformed():
    signer = Signer(KEY)
    name = m.topic("dm2026", "12", m.STATE)

    def signed(obj):
        body = json.dumps(obj).encode()
        return body + b"\n" + signer.hexdigest(m.signed_bytes(name, body)).encode()

    good = json.loads(publisher().state(state_fields())[1].split(b"\n")[0])
    assert m.decode(name, signed(good), signer)[0] == m.OK
    for field, value in (("ms", [1]), ("ms", None), ("seq", 0), ("table", "13"),
                         ("v", 2), ("list", ["de"]), ("battery_pct", True),
                         ("last_challenge", 5)):
        bad = dict(good)
        bad[field] = value
        answer, reason = m.decode(name, signed(bad), signer)
        assert answer == m.MALFORMED, (field, reason)
    assert m.decode(name, signed([1, 2]), signer)[0] == m.MALFORMED


def test_the_replay_rule():
    assert m.newer(1, 1, None)
    assert m.newer(3, 5, (3, 4))
    assert not m.newer(3, 4, (3, 4))
    assert not m.newer(3, 3, (3, 4))
    assert m.newer(4, 1, (3, 400))
    assert not m.newer(2, 999, (3, 1))
