"""`clockctl hall` with its embedded broker (amqtt) and three fake clocks: real MQTT
clients publishing messages signed by the firmware's hall/message.py."""

import subprocess
import sys

from tests.host.hall_helpers import PAIRINGS, REPO, Hall, three_tables


def test_three_tables_a_forged_and_a_replayed_message_and_a_result(tmp_path):
    (tmp_path / "pairings.csv").write_text(PAIRINGS, encoding="utf-8")
    out = tmp_path / "hall"
    hall = Hall(out, pairings=tmp_path / "pairings.csv")
    try:
        three_tables(hall, hall.mqtt_port)
    finally:
        err = hall.stop()
    assert "Traceback" not in err, err
    # the hall keeps what it received, and its exports
    assert (out / "results.jsonl").read_text().count("\n") == 1
    assert (out / "results-tsh.txt").read_text() == "a 1 a\n5 391 6 388\n\n"
    assert "Emil Ek" in (out / "results.csv").read_text(encoding="utf-8-sig")
    # clockctl results --hall: the same, as files, without the hall running
    r = subprocess.run([sys.executable, "-m", "host_tools", "results", "--hall", str(out),
                        "--out", str(tmp_path / "r1.csv")], cwd=str(REPO),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "tsh score entry for 1" in r.stdout
    assert (tmp_path / "r1-tsh.txt").read_text() == "a 1 a\n5 391 6 388\n\n"
    rows = (tmp_path / "r1.csv").read_text(encoding="utf-8-sig").splitlines()
    assert len(rows) == 2 and ",Emil Ek,Frida Fjell,401,388," in rows[1]


def test_a_hall_started_again_knows_what_it_took(tmp_path):
    # the replay marks and the results survive a restart of the hall; the broker's
    # retained copies of messages it took before are no alert
    out = tmp_path / "hall"
    hall = Hall(out)
    from tests.host.hall_helpers import FakeClock, wait_for

    clock = FakeClock(hall.mqtt_port, "9", "dev9")
    try:
        first = clock.state()
        clock.state(turn=1)
        clock.result(1, (300, 280), (300, 280))
        wait_for(lambda: hall.get("/results.csv").count("\n") >= 2, "the result")
    finally:
        hall.stop()
    hall = Hall(out)   # a new embedded broker: nothing retained
    try:
        clock.close()
        clock = FakeClock(hall.mqtt_port, "9", "dev9")
        clock.publish_raw(*first)
        wait_for(lambda: hall.alerts(), "the replay's alert")
        assert [a["kind"] for a in hall.alerts()] == ["replayed"]
        assert hall.tables() == {}
        assert hall.get("/results.csv").count("\n") == 2
    finally:
        clock.close()
        hall.stop()


def test_bad_arguments_are_refused_with_a_clear_message(tmp_path):
    def run(*args, env=None):
        return subprocess.run([sys.executable, "-m", "host_tools", "hall", *args],
                              cwd=str(REPO), capture_output=True, text=True, timeout=120,
                              env=env)

    import os

    env = {k: v for k, v in os.environ.items() if k != "TILECLOCK_HALL_KEY"}
    r = run(env=env)
    assert r.returncode != 0 and "no key" in r.stderr
    r = run("--key", "short", env=env)
    assert r.returncode != 0 and "at least 16" in r.stderr
    (tmp_path / "p.csv").write_text("round,table,player1\n1,1,a\n")
    r = run("--key", "x" * 16, "--pairings", str(tmp_path / "p.csv"), env=env)
    assert r.returncode != 0 and "lacks player2" in r.stderr
    r = run("--key", "x" * 16, "--broker", "http://x:1", env=env)
    assert r.returncode != 0 and "expected mqtt://HOST:PORT" in r.stderr
