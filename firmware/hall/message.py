# The hall's messages (docs/hall.md): what a clock publishes to the venue's MQTT broker
# and how the hall reads it.  Pure (no machine, no network): the clock's publisher
# builds its messages with Publisher, and the hall on the host imports this very file
# (host_tools/resources.py, firmware_module("hall/message.py")) to check them.
#
# Topic: tileclock/<event>/<table>/<kind>, kind one of state, heartbeat, result, alert.
# Payload: the message as compact JSON (UTF-8), then "\n" and the 64 hex digits of its
# HMAC-SHA256 under the event's key (hall/sign.py).  The tag covers the topic, a "\n"
# and the JSON, so a message cannot be moved to another table's topic.  Every message
# carries the clock's boot counter and a sequence number that starts at 1 with every
# boot: the hall takes a message only if (boot, seq) is past the last it took from that
# clock, so a message recorded and sent again changes nothing.  A message sent again by
# the clock (a result after a reconnect) is built again, with a new seq.

import json

from hall.sign import Signer, TAG_HEX

ROOT = "tileclock"
VERSION = 1
STATE = "state"
HEARTBEAT = "heartbeat"
RESULT = "result"
ALERT = "alert"
KINDS = (STATE, HEARTBEAT, RESULT, ALERT)
HEARTBEAT_MS = 10000  # a clock publishes at least this often
SILENT_MS = 30000  # the hall's alert for a clock not heard from for this long
KEY_MIN = 16  # characters of the event's key, at least
NAME_MAX = 32  # characters of an event's or table's name in the topic
BATTERY_LOW = 15  # percent: the hall's alert below it

# The answers of decode()
OK = "ok"
UNSIGNED = "unsigned"
BAD_SIGNATURE = "bad signature"
MALFORMED = "malformed"

# Alerts a clock raises itself (kind alert, field "what")
REFEREE = "referee"  # a player called the referee (keypad key)
ALERT_WHATS = (REFEREE, "battery", "storage", "list")


def check_name(text, what="name"):
    """None if text can be an event's or table's topic level, else the reason."""
    if not isinstance(text, str) or not text:
        return "%s: empty" % what
    if len(text) > NAME_MAX:
        return "%s: longer than %d characters" % (what, NAME_MAX)
    for c in text:
        if not ("a" <= c <= "z" or "A" <= c <= "Z" or "0" <= c <= "9" or c in "-_."):
            return "%s %r: only letters a-z, digits, '-', '_' and '.'" % (what, text)
    return None


def check_key(key):
    """None if key (text) can be an event's key, else the reason."""
    if not isinstance(key, str):
        return "key: must be text"
    if len(key) < KEY_MIN:
        return "key: at least %d characters" % KEY_MIN
    for c in key:
        if ord(c) < 33 or ord(c) > 126:
            return "key: printable ASCII only, no spaces"
    return None


def topic(event, table, kind):
    return "%s/%s/%s/%s" % (ROOT, event, table, kind)


def subscription(event=None):
    """The topic filter of every clock's messages (of one event, or of all)."""
    return "%s/%s/+/+" % (ROOT, event or "+")


def parse_topic(name):
    """(event, table, kind) of a hall topic, or None."""
    parts = name.split("/")
    if len(parts) != 4 or parts[0] != ROOT or parts[3] not in KINDS:
        return None
    if check_name(parts[1]) or check_name(parts[2]):
        return None
    return parts[1], parts[2], parts[3]


def signed_bytes(topic_name, body):
    """What the tag covers: the topic, "\n", the JSON."""
    return topic_name.encode() + b"\n" + body


class Publisher:
    """Builds one clock's messages: each a (topic, payload bytes) to publish.

    key: the event's key (text, check_key); event, table: the topic's levels
    (check_name); device: the clock's id; boot: its boot counter, larger at every start
    (kept in NVS); firmware: its version text.  The sequence number counts from 1."""

    def __init__(self, key, event, table, device, boot, firmware):
        for name, value in (("event", event), ("table", table)):
            reason = check_name(value, name)
            if reason:
                raise ValueError(reason)
        reason = check_key(key)
        if reason:
            raise ValueError(reason)
        self._signer = Signer(key)
        self.event = event
        self.table = table
        self.device = device
        self.boot = boot
        self.firmware = firmware
        self.seq = 0

    def message(self, kind, fields):
        """(topic, payload) of a message of `kind` with `fields` (a dict, not kept)."""
        if kind not in KINDS:
            raise ValueError("kind: one of " + ", ".join(KINDS))
        self.seq += 1
        msg = {"v": VERSION, "kind": kind, "event": self.event, "table": self.table,
               "device": self.device, "boot": self.boot, "seq": self.seq,
               "fw": self.firmware}
        for name in fields:
            if name in msg:
                raise ValueError("field %s is set by the publisher" % name)
            msg[name] = fields[name]
        name = topic(self.event, self.table, kind)
        body = json.dumps(msg, separators=(",", ":")).encode()
        tag = self._signer.hexdigest(signed_bytes(name, body))
        return name, body + b"\n" + tag.encode()

    def state(self, fields):
        return self.message(STATE, fields)

    def heartbeat(self, fields):
        return self.message(HEARTBEAT, fields)

    def result(self, fields):
        return self.message(RESULT, fields)

    def alert(self, what, fields=None):
        out = {"what": what}
        if fields:
            for name in fields:
                out[name] = fields[name]
        return self.message(ALERT, out)


def clock_fields(engine, t=None):
    """The clock's part of a state or heartbeat message, from a clock engine
    (clock/engine.py) after its update(t): the times as signed ms (negative: overtime),
    the side whose clock runs (-1: none), phase, side on turn, penalties, the side whose
    challenge is in progress (-1: none; never the word or a verdict), paused, and the
    forfeiting side."""
    r = engine.result(t)
    sides = r["sides"]
    run = -1
    for side in (0, 1):
        if engine.display(side).running:
            run = side
    return {
        "ms": [_signed_ms(sides[0]), _signed_ms(sides[1])],
        "run": run,
        "phase": r["phase"],
        "turn": engine.on_turn,
        "penalty": [sides[0]["overtime_penalty"], sides[1]["overtime_penalty"]],
        "chal_penalty": [sides[0]["challenge_penalty"], sides[1]["challenge_penalty"]],
        "challenge": engine.challenge_by(),
        "paused": 1 if engine.paused else 0,
        "forfeit": r["forfeit_side"],
    }


def _signed_ms(side):
    return -side["overtime_ms"] if side["overtime_ms"] else side["remaining_ms"]


def challenge_fields(challenger, outcome):
    """A challenge once it is over (its verdict applied; clock/engine.py Outcome), as
    the "last_challenge" field of the state messages that follow."""
    return {"by": challenger, "withdrawn": 1 if outcome.withdrawn else 0,
            "penalty": outcome.penalty_points, "lost_turn": 1 if outcome.lost_turn else 0}


def device_fields(battery_pct, list_name, list_version, referee=False):
    """The device's part of a state or heartbeat message: battery in percent (-1: on
    USB or not known), the word list's name and version, the referee called."""
    return {"battery_pct": battery_pct, "list": [list_name, list_version],
            "referee": 1 if referee else 0}


def result_fields(game, scores, engine_result):
    """A result message's fields: game (the clock's number of the game, the same in
    every sending of its result), scores [left, right] as the players confirmed them
    from their sheets, and the engine's result (clock/engine.py result()) for the times
    and the penalties the clock applied; final = score - penalties.  scores None: not
    entered yet (score and final null; the clock sends the result again, the same game,
    once they are)."""
    sides = engine_result["sides"]
    final = None
    if scores is not None:
        final = []
        for side in (0, 1):
            final.append(scores[side] - sides[side]["penalty_points"])
        scores = [scores[0], scores[1]]
    return {
        "game": game,
        "score": scores,
        "penalty": [sides[0]["overtime_penalty"], sides[1]["overtime_penalty"]],
        "chal_penalty": [sides[0]["challenge_penalty"], sides[1]["challenge_penalty"]],
        "final": final,
        "ms": [_signed_ms(sides[0]), _signed_ms(sides[1])],
        "forfeit": engine_result["forfeit_side"],
    }


# -- reading (the hall) -------------------------------------------------------------

_COMMON = (("v", int), ("kind", str), ("event", str), ("table", str), ("device", str),
           ("boot", int), ("seq", int), ("fw", str))
_PAIR = "pair"
_PAIR_OR_NULL = "pair or null"     # a result's scores before the players entered them
_FIELDS = {
    STATE: (("ms", _PAIR), ("run", int), ("phase", int), ("turn", int),
            ("penalty", _PAIR), ("chal_penalty", _PAIR), ("challenge", int),
            ("paused", int), ("forfeit", int), ("battery_pct", int), ("list", list),
            ("referee", int)),
    RESULT: (("game", int), ("score", _PAIR_OR_NULL), ("penalty", _PAIR),
             ("chal_penalty", _PAIR), ("final", _PAIR_OR_NULL), ("ms", _PAIR), ("forfeit", int)),
    ALERT: (("what", str),),
}
_FIELDS[HEARTBEAT] = _FIELDS[STATE]


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _typed(value, kind):
    if kind is _PAIR_OR_NULL:
        return value is None or _typed(value, _PAIR)
    if kind is int:
        return _is_int(value)
    if kind is _PAIR:
        return (isinstance(value, list) and len(value) == 2 and _is_int(value[0])
                and _is_int(value[1]))
    return isinstance(value, kind)


def check(msg, where=None):
    """None if msg (a decoded message) has every field of its kind with its type and
    agrees with where ((event, table, kind) of its topic), else the reason."""
    if not isinstance(msg, dict):
        return "not a JSON object"
    for name, kind in _COMMON:
        if not _typed(msg.get(name), kind):
            return "field %s missing or not %s" % (name, "a number" if kind is int else "text")
    if msg["v"] != VERSION:
        return "version %d (this hall reads %d)" % (msg["v"], VERSION)
    if msg["kind"] not in KINDS:
        return "kind %r" % msg["kind"]
    if where is not None and (msg["event"], msg["table"], msg["kind"]) != tuple(where):
        return "event, table or kind differ from the topic's"
    if msg["boot"] < 0 or msg["seq"] < 1:
        return "boot or seq out of range"
    for name, kind in _FIELDS[msg["kind"]]:
        if not _typed(msg.get(name), kind):
            return "field %s missing or of the wrong type" % name
    if msg["kind"] == RESULT and (msg["score"] is None) != (msg["final"] is None):
        return "fields score and final: both given or both null"
    if msg["kind"] in (STATE, HEARTBEAT) and len(msg["list"]) != 2:
        return "field list: [name, version]"
    last = msg.get("last_challenge")
    if last is not None and not (isinstance(last, dict) and _is_int(last.get("by"))):
        return "field last_challenge: an object with by"
    return None


def decode(topic_name, payload, signer):
    """(answer, message or reason) for a payload received on topic_name: answer OK with
    the message (a dict), or UNSIGNED, BAD_SIGNATURE or MALFORMED with the reason.
    signer: a hall.sign.Signer with the event's key."""
    where = parse_topic(topic_name)
    if where is None:
        return MALFORMED, "not a hall topic"
    payload = bytes(payload)
    cut = payload.rfind(b"\n")
    if cut < 0:
        body, tag = payload, b""
    else:
        body, tag = payload[:cut], payload[cut + 1:]
    if len(tag) != TAG_HEX:
        try:
            json.loads(payload)
        except ValueError:
            return MALFORMED, "neither a signed message nor JSON"
        return UNSIGNED, "no signature"
    if not signer.verify(tag, signed_bytes(topic_name, body)):
        return BAD_SIGNATURE, "the signature does not match the event's key"
    try:
        msg = json.loads(body)
    except ValueError:
        return MALFORMED, "signed, but not JSON"
    reason = check(msg, where)
    if reason:
        return MALFORMED, reason
    return OK, msg


def newer(boot, seq, last):
    """True if (boot, seq) comes after last ((boot, seq) or None): the replay rule."""
    if last is None:
        return True
    return boot > last[0] or (boot == last[0] and seq > last[1])
