# What the clock owes the hall, and in which order it goes out (docs/hall.md, The
# clock's side).  Pure: no network, no clock; the NVS object and the times are given.
#
# Nothing is built before it can be sent: the publisher asks next() only when the
# network thread (hall/net.py) is connected and idle, and the message is built then,
# with the next sequence number.  So whatever waited for the network goes out as it is
# now: the state coalesced to the latest, a result (kept in NVS, a power cut keeps it)
# built again with a new seq for every sending, the same game number.
#
# Order: a result first, then an alert (a referee call), then the state when it
# changed, then the heartbeat when HEARTBEAT_MS passed since the last state or
# heartbeat.  A message that was not acknowledged (QoS 1) stays owed.
#
# The NVS record (key "hall" of the game state's namespace, one JSON blob):
#   {"boot": N, "game": G, "played": 0|1, "res": [[game, fields, scores, sent], ...]}
#   boot: counted up at every start (message.Publisher's boot, against replays);
#   game: the last game number given; played: a game was seen in play and its result
#   not yet recorded (a game over restored at start-up is not a new result);
#   res: the last RESULTS_KEPT results: the engine's part (message.result_fields with
#   scores None), the scores once the players entered them (None until then), sent.

import json

from hall import message
from timebase import ticks_diff

KEY = "hall"
RESULTS_KEPT = 6          # results kept in NVS (the sent ones go first when it is full)
ALERTS_KEPT = 4           # alerts waiting for the network (the oldest dropped)
_MAX_BLOB = 2048
_RUN_SLACK_MS = 500       # a running clock's time off its course by this: a change


class ResultStore:
    """The NVS record above.  nvs: an esp32.NVS; every change is committed at once."""

    def __init__(self, nvs):
        self._nvs = nvs
        self.boot = 0
        self.game = 0
        self.played = 0
        self.results = []
        self.failures = 0          # writes that raised (a failing NVS never stops the clock)
        buf = bytearray(_MAX_BLOB)
        try:
            n = nvs.get_blob(KEY, buf)
            data = json.loads(bytes(buf[:n]))
            self.boot = int(data["boot"])
            self.game = int(data["game"])
            self.played = int(data["played"])
            self.results = [list(r) for r in data["res"]]
        except Exception:
            pass                   # none yet, or unreadable: start afresh

    def _save(self):
        try:
            self._nvs.set_blob(KEY, json.dumps({"boot": self.boot, "game": self.game,
                                                "played": self.played,
                                                "res": self.results}).encode())
            self._nvs.commit()
        except Exception:
            self.failures += 1

    def next_boot(self):
        """This start's boot number: larger than every earlier one."""
        self.boot += 1
        self._save()
        return self.boot

    def playing(self):
        if not self.played:
            self.played = 1
            self._save()

    def over(self, engine_result):
        """The game seen in play is over: its result recorded under a new game number
        (returned), or None if it was recorded before."""
        if not self.played:
            return None
        self.game += 1
        self.played = 0
        fields = message.result_fields(self.game, None, engine_result)
        self.results.append([self.game, fields, None, 0])
        self._trim()
        self._save()
        return self.game

    def set_scores(self, game, scores):
        """The players' scores [left, right] of `game`: its result is owed again, with
        them.  False if the game is no longer kept."""
        scores = [int(scores[0]), int(scores[1])]
        for r in self.results:
            if r[0] == game:
                if r[2] == scores:
                    return True     # known already (sent or owed): nothing changes
                r[2] = scores
                r[3] = 0
                self._save()
                return True
        return False

    def _trim(self):
        while len(self.results) > RESULTS_KEPT:
            for i in range(len(self.results)):
                if self.results[i][3]:
                    del self.results[i]
                    break
            else:
                del self.results[0]       # all unsent: the oldest (never in practice)

    def owed(self):
        """The first result not yet acknowledged, or None."""
        for r in self.results:
            if not r[3]:
                return r
        return None

    def sent(self, game, scores):
        """The result of `game` with `scores` was acknowledged by the broker."""
        for r in self.results:
            if r[0] == game and r[2] == scores:
                r[3] = 1
                self._save()

    def waiting(self):
        n = 0
        for r in self.results:
            if not r[3]:
                n += 1
        return n


def result_fields(record):
    """A result message's fields from a kept record: the engine's part, the scores."""
    fields = dict(record[1])
    scores = record[2]
    if scores is not None:
        # as message.result_fields: final = score - the clock's penalties of that side
        pen = fields["penalty"]
        chal = fields["chal_penalty"]
        fields["score"] = [scores[0], scores[1]]
        fields["final"] = [scores[0] - pen[0] - chal[0], scores[1] - pen[1] - chal[1]]
    return fields


def _key(fields):
    """What makes a state different from the last one sent (not the running time)."""
    out = []
    for name in sorted(fields):
        if name != "ms":
            out.append(fields[name])
    return json.dumps(out)


class Outbox:
    """Decides the next message.  publisher: message.Publisher; store: ResultStore."""

    def __init__(self, publisher, store):
        self.pub = publisher
        self.store = store
        self.alerts = []             # (what, fields) waiting
        self._sent_key = None        # the last state's _key, ms, run and when
        self._sent_ms = None
        self._sent_run = -1
        self._sent_at = 0
        self._beat_at = None         # when the last state or heartbeat was acknowledged
        self.in_flight = None        # what the network thread is sending
        self.sent = 0                # messages acknowledged
        self.dropped_alerts = 0

    def alert(self, what, fields=None):
        if len(self.alerts) >= ALERTS_KEPT:
            del self.alerts[0]
            self.dropped_alerts += 1
        self.alerts.append((what, fields))

    def _changed(self, fields, now):
        if self._sent_key is None or _key(fields) != self._sent_key:
            return True
        ms = fields["ms"]
        for side in (0, 1):
            expect = self._sent_ms[side]
            if side == self._sent_run:
                expect -= ticks_diff(now, self._sent_at)
            if abs(ms[side] - expect) > _RUN_SLACK_MS:
                return True
        return False

    def next(self, fields, now):
        """The next message owed, (topic, payload, retain, qos), built now; or None.
        fields: the state's fields as of now (clock_fields + device_fields)."""
        record = self.store.owed()
        if record is not None:
            topic, payload = self.pub.result(result_fields(record))
            self.in_flight = ("result", record[0], record[2])
            return topic, payload, True, 1
        if self.alerts:
            what, extra = self.alerts[0]
            topic, payload = self.pub.alert(what, extra)
            self.in_flight = ("alert", self.alerts[0])
            return topic, payload, False, 1
        if self._changed(fields, now):
            topic, payload = self.pub.state(fields)
            self.in_flight = ("state", _key(fields), fields["ms"], fields["run"], now)
            return topic, payload, True, 1
        if self._beat_at is None or ticks_diff(now, self._beat_at) >= message.HEARTBEAT_MS:
            topic, payload = self.pub.heartbeat(fields)
            self.in_flight = ("beat", now)
            return topic, payload, False, 0
        return None

    def done(self, ok, now):
        """The network thread's answer for the message in flight: acknowledged (ok) or
        not (it stays owed; the next sending is built again)."""
        what = self.in_flight
        self.in_flight = None
        if what is None or not ok:
            return
        self.sent += 1
        kind = what[0]
        if kind == "result":
            self.store.sent(what[1], what[2])
        elif kind == "alert":
            if self.alerts and self.alerts[0] is what[1]:
                del self.alerts[0]
        elif kind == "state":
            self._sent_key, self._sent_ms, self._sent_run, self._sent_at = what[1:]
            self._beat_at = now
        else:
            self._beat_at = now
