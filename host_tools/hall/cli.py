"""`clockctl hall`: the organiser's live page of every table (docs/hall.md)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from pathlib import Path

KEY_ENV = "TILECLOCK_HALL_KEY"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="clockctl hall",
        description="Every table's clock live on one page: the clocks publish to an MQTT "
                    "broker (an embedded one unless --broker names one), the hall checks "
                    "their signatures and serves the page, /tables.json and the results.")
    p.add_argument("--broker", metavar="mqtt://HOST:PORT",
                   help="an existing broker (e.g. Mosquitto) instead of the embedded one")
    p.add_argument("--mqtt-port", type=int, default=1883,
                   help="the embedded broker's port (default %(default)s)")
    p.add_argument("--listen", default="0.0.0.0",
                   help="address the embedded broker and the page listen on (default "
                        "%(default)s: every network of this computer; 127.0.0.1: this "
                        "computer only)")
    p.add_argument("--port", type=int, default=8080, metavar="HTTP_PORT",
                   help="the page's port (default %(default)s)")
    key = p.add_mutually_exclusive_group()
    key.add_argument("--key", help="the event's key, as set on the clocks with clockctl "
                     "config (visible to other users of this computer: prefer --key-file "
                     "or %s)" % KEY_ENV)
    key.add_argument("--key-file", help="a file whose first line is the event's key")
    p.add_argument("--event", help="only this event's clocks (the topic's event level; "
                   "default: every event's)")
    p.add_argument("--pairings", metavar="FILE",
                   help="the pairings, CSV: round,table,player1,player2[,number1,number2]"
                        "[,division]; the first player sits at the left button")
    p.add_argument("--round", help="the round being played (default: the last round of "
                   "the pairings file)")
    p.add_argument("--out", default="hall", metavar="DIR",
                   help="where the received results are kept (results.jsonl), with "
                        "results.csv and results-tsh.txt (default %(default)s)")
    return p


def read_key(args) -> str:
    if args.key is not None:
        return args.key
    if args.key_file:
        try:
            lines = Path(args.key_file).read_text(encoding="utf-8").splitlines()
        except OSError as e:
            raise SystemExit("clockctl hall: %s: cannot read the key (%s)"
                             % (args.key_file, e.strerror or e))
        return lines[0].strip() if lines else ""
    if os.environ.get(KEY_ENV):
        return os.environ[KEY_ENV]
    raise SystemExit("clockctl hall: no key: give the event's key with --key-file FILE, "
                     "--key KEY or the environment variable %s (the key set on the clocks "
                     "with clockctl config)" % KEY_ENV)


def write_exports(board, out: Path) -> None:
    from host_tools.hall import export

    records = board.result_records()
    if not records:
        return
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.csv").write_bytes(export.to_csv(records).encode("utf-8-sig"))
    (out / "results-tsh.txt").write_text(export.to_tsh(records)[0], encoding="utf-8")


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    from host_tools.hall import pairings as pairings_mod
    from host_tools.hall import wire
    from host_tools.hall.board import Board
    from host_tools.hall.broker import BrokerError, EmbeddedBroker, Subscriber, parse_url
    from host_tools.hall.server import HallServer

    key = read_key(args)
    message = wire.message()
    reason = message.check_key(key)
    if reason:
        raise SystemExit("clockctl hall: the event's %s" % reason)
    if args.event and message.check_name(args.event, "event"):
        raise SystemExit("clockctl hall: " + message.check_name(args.event, "event"))
    pairings = None
    if args.pairings:
        try:
            pairings = pairings_mod.load(args.pairings)
        except pairings_mod.PairingsError as e:
            raise SystemExit("clockctl hall: %s" % e)
    out = Path(args.out)
    board = Board(key, args.event, pairings, args.round, store=out)

    broker = None
    try:
        if args.broker:
            host, port = parse_url(args.broker)
            where = "mqtt://%s:%d" % (host, port)
        else:
            broker = EmbeddedBroker(args.listen, args.mqtt_port).start()
            host = "127.0.0.1" if args.listen in ("0.0.0.0", "::", "") else args.listen
            port = args.mqtt_port
            where = "mqtt://%s:%d (embedded)" % (args.listen, args.mqtt_port)
    except BrokerError as e:
        raise SystemExit("clockctl hall: %s" % e)
    try:
        server = HallServer((args.listen, args.port), board).start()
    except OSError as e:
        if broker:
            broker.stop()
        raise SystemExit("clockctl hall: the page cannot listen on %s:%d (%s)"
                         % (args.listen, args.port, e.strerror or e))

    stop = threading.Event()

    def on_message(topic, payload, retained):
        from host_tools.hall.server import now_ms

        try:
            if board.receive(topic, payload, retained, now_ms()) == "taken" \
                    and topic.endswith("/result"):
                write_exports(board, out)
        except Exception:   # one message must not stop the subscriber: say it, go on
            import traceback

            print("hall: a message on %s was not handled:\n%s"
                  % (topic, traceback.format_exc()), file=sys.stderr, flush=True)

    subscriber = Subscriber(host, port, message.subscription(args.event), on_message).start()
    page_host = "127.0.0.1" if args.listen in ("0.0.0.0", "::", "") else args.listen
    print("hall: broker %s; page http://%s:%d/ ; results in %s"
          % (where, page_host, server.server_address[1], out), flush=True)
    if pairings:
        print("hall: pairings %s, round %s" % (args.pairings, board.round), flush=True)

    def announce():
        if subscriber.connected.wait(60):
            print("hall: subscribed to %s" % subscriber.topic, flush=True)
        elif not stop.is_set():
            print("hall: no broker at %s yet (still trying)" % where, flush=True)

    threading.Thread(target=announce, daemon=True).start()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *a: stop.set())
    try:
        while not stop.wait(10):
            board.save_seen()
    finally:
        subscriber.stop()
        server.stop()
        if broker:
            broker.stop()
        board.save_seen()
        write_exports(board, out)
        print("hall: stopped; %d results in %s" % (len(board.result_records()), out),
              file=sys.stderr, flush=True)
    return 0
