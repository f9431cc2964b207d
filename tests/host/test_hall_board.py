"""The hall's board, pairings and exports without a network: messages built by the
firmware's Publisher fed straight in, time driven by the test."""

import json

import pytest

from host_tools.hall import export, pairings, wire
from host_tools.hall.board import Board, read_results

KEY = "board-test-key-0001"
EVENT = "ev1"


def pub(table, device=None, boot=1, key=KEY):
    return wire.message().Publisher(key, EVENT, table, device or "dev" + table, boot, "0.1.0")


def state(p, ms=(60000, 60000), run=-1, phase=1, turn=0, battery=80, lst=("de", "1"),
          referee=False, **more):
    m = wire.message()
    fields = {"ms": list(ms), "run": run, "phase": phase, "turn": turn, "penalty": [0, 0],
              "chal_penalty": [0, 0], "challenge": -1, "paused": 0, "forfeit": -1}
    fields.update(m.device_fields(battery, lst[0], lst[1], referee))
    fields.update(more)
    return p.state(fields)


def result(p, game, score, final, penalty=(0, 0)):
    return p.result({"game": game, "score": list(score), "penalty": list(penalty),
                     "chal_penalty": [0, 0], "final": list(final), "ms": [1000, -61000],
                     "forfeit": -1})


PAIRINGS = ("round,table,player1,player2,number1,number2\n"
            "1,1,Anna Nowak,Bjørn Berg,3,4\n"
            "2,1,Anna Nowak,Carl Cox,3,5\n"
            "2,2,Dora Diaz,Emil Ek,6,7\n")


def test_time_text_is_the_clocks_own():
    assert wire.time_text(61000) == " 01:01"
    assert wire.time_text(60001) == " 01:01"   # seconds rounded up, as the panel does
    assert wire.time_text(0) == " 00:00"
    assert wire.time_text(-1) == "-00:01"
    assert wire.time_text(-3600000 * 2) == "-99:59"


def test_a_running_clock_goes_on_from_its_message_and_a_stopped_one_stays():
    b = Board(KEY, EVENT)
    assert b.receive(*state(pub("1"), ms=(60000, 50000), run=0), False, 1000) == "taken"
    t = b.tables(1000 + 1500)[0]
    assert (t["left_ms"], t["right_ms"]) == (58500, 50000)
    assert (t["left_text"], t["right_text"]) == (" 00:59", " 00:50")
    t = b.tables(1000 + 61000)[0]
    assert t["left_text"] == "-00:01"
    assert [a["kind"] for a in t["alerts"]] == ["flag", "silent"]
    assert t["alerts"][0]["text"] == "flag fallen: left"
    assert b.receive(*state(pub("2"), ms=(60000, 50000), run=0, paused=1), False, 1000)
    assert b.tables(5000)[1]["left_ms"] == 60000


def test_forged_unsigned_and_replayed_messages_change_nothing():
    b = Board(KEY, EVENT)
    p = pub("1")
    first = state(p, battery=80)
    assert b.receive(*first, False, 0) == "taken"
    assert b.receive(*state(p, battery=79), False, 10) == "taken"
    before = b.tables(100)
    topic, payload = state(pub("1", key="some-other-key-000"), battery=5)
    assert b.receive(topic, payload, False, 20) == "bad signature"
    assert b.receive(topic, payload.split(b"\n")[0], False, 30) == "unsigned"
    body, tag = first[1].split(b"\n")
    forged = body.replace(b'"battery_pct":80', b'"battery_pct":81') + b"\n" + tag
    assert b.receive(first[0], forged, False, 40) == "bad signature"
    assert b.receive(*first, False, 50) == "replayed"
    assert b.receive("tileclock/ev1/1/state", b"{]", False, 60) == "malformed"
    assert b.tables(100) == before
    kinds = [a["kind"] for a in b.recent_alerts(100)]
    assert kinds == ["malformed", "replayed", "bad signature", "unsigned", "bad signature"]
    assert all(a["table"] == "1" for a in b.recent_alerts(100))


def test_a_retained_copy_the_hall_has_seen_is_no_alert_but_a_live_one_is():
    b = Board(KEY, EVENT)
    p = pub("1")
    old = state(p)
    b.receive(*old, False, 0)
    b.receive(*state(p), False, 1)
    assert b.receive(*old, True, 2) == "stale"
    assert b.recent_alerts(3) == []
    assert b.receive(*old, False, 3) == "replayed"


def test_a_new_boot_starts_its_sequence_again():
    b = Board(KEY, EVENT)
    b.receive(*state(pub("1", boot=4)), False, 0)
    b.receive(*state(pub("1", boot=4)), False, 0)   # seq 1 again, same boot: replayed
    assert b.receive(*state(pub("1", boot=5)), False, 0) == "taken"
    assert b.receive(*state(pub("1", boot=3)), False, 0) == "replayed"


def test_silent_battery_referee_and_word_list_alerts():
    b = Board(KEY, EVENT)
    b.receive(*state(pub("1"), lst=("de", "2026.1")), False, 0)
    b.receive(*state(pub("2"), lst=("de", "2026.1")), False, 0)
    b.receive(*state(pub("3"), lst=("de", "2025.9"), battery=9, referee=True), False, 0)
    tiles = b.tables(29999)
    assert [a["kind"] for a in tiles[0]["alerts"]] == []
    assert [a["kind"] for a in tiles[2]["alerts"]] == ["referee", "battery", "list"]
    assert "2025.9" in tiles[2]["alerts"][2]["text"] and "2026.1" in tiles[2]["alerts"][2]["text"]
    tiles = b.tables(30000)
    assert tiles[0]["alerts"] == [{"kind": "silent", "text": "silent for 30 s"}]
    assert tiles[0]["last_seen_ms"] == 30000


def test_a_referee_alert_message_marks_the_table_until_a_state_clears_it():
    b = Board(KEY, EVENT)
    p = pub("1")
    b.receive(*state(p), False, 0)
    b.receive(*p.alert("referee", {"side": 0}), False, 1)
    assert b.tables(2)[0]["referee"]
    b.receive(*state(p, referee=False), False, 3)
    assert not b.tables(4)[0]["referee"]


def test_results_are_kept_once_per_game_named_from_the_pairings(tmp_path):
    pr = pairings.parse(PAIRINGS)
    b = Board(KEY, EVENT, pr, store=tmp_path)
    assert b.round == "2"
    p1, p2 = pub("1"), pub("2")
    assert b.receive(*result(p1, 7, (412, 389), (402, 389), (10, 0)), False, 0) == "taken"
    # sent again after a reconnect: a new seq, the same game
    assert b.receive(*result(p1, 7, (412, 389), (402, 389), (10, 0)), False, 1) == "taken"
    b.receive(*result(p2, 3, (350, 420), (350, 420)), False, 2)
    records = read_results(tmp_path / "results.jsonl")
    assert len(records) == 2 and len(b.result_records()) == 2
    csv_text = export.to_csv(records)
    lines = csv_text.splitlines()
    assert lines[0].startswith("round,division,table,left_player,right_player,left_score")
    assert lines[1].startswith("2,a,1,Anna Nowak,Carl Cox,412,389,10,0,0,0,402,389,13,00:01,-01:01")
    assert lines[2].startswith("2,a,2,Dora Diaz,Emil Ek,350,420")
    text, left_out = export.to_tsh(records)
    assert text == "a 2 a\n3 402 5 389\n6 350 7 420\n\n"
    assert left_out == []
    # the hall restarted: the results and the replay marks are read back
    b2 = Board(KEY, EVENT, pr, store=tmp_path)
    assert len(b2.result_records()) == 2
    assert b2.receive(*result(p1, 7, (412, 389), (402, 389)), False, 0) == "taken"  # seq 3
    b.save_seen()
    b3 = Board(KEY, EVENT, pr, store=tmp_path)
    assert b3.seen["dev1"] == (1, 2)


def test_tsh_entry_leaves_out_games_without_player_numbers():
    pr = pairings.parse("round;table;player1;player2\n1;5;A;B\n")
    b = Board(KEY, EVENT, pr)
    b.receive(*result(pub("5"), 1, (300, 310), (300, 310)), False, 0)
    text, left_out = export.to_tsh(b.result_records())
    assert text == "" and [r["table"] for r in left_out] == ["5"]
    assert "A,B,300,310" in export.to_csv(b.result_records())


@pytest.mark.parametrize("text, message", [
    ("", "empty"),
    ("table,player1,player2\n1,a,b\n", "lacks round"),
    ("round,table,player1,player2\n1,1,a,\n", "line 2: no player2"),
    ("round,table,player1,player2\n1,1,a,b\n1,1,c,d\n", "line 3: round 1, table 1 is also on line 2"),
    ("round,table,player1,player2,number1,number2\n1,1,a,b,3,x\n", "whole numbers"),
])
def test_bad_pairings_are_refused_naming_the_line(text, message):
    with pytest.raises(pairings.PairingsError) as e:
        pairings.parse(text, "p.csv")
    assert message in str(e.value)


def test_pairings_header_aliases_and_division():
    pr = pairings.parse("\ufeffRound,Table,Left,Right,Division\n3,7,X Y,Z W,b\n")
    p = pr.get(3, 7)
    assert p.players == ("X Y", "Z W") and p.division == "b" and p.numbers is None


def test_a_short_key_is_refused():
    with pytest.raises(ValueError, match="at least 16"):
        Board("short", EVENT)


def test_snapshot_is_json():
    b = Board(KEY, EVENT)
    b.receive(*state(pub("1")), False, 0)
    json.dumps(b.snapshot(10))


def test_two_clocks_publishing_as_one_table_are_an_alert():
    b = Board(KEY, EVENT)
    b.receive(*state(pub("4", device="devA")), False, 0)
    b.receive(*state(pub("4", device="devB")), False, 10)
    [tile] = b.tables(20)
    assert tile["alerts"] == [{"kind": "clash",
                               "text": "2 clocks publish as this table: devA, devB"}]
    b.receive(*state(pub("4", device="devB", boot=2)), False, 31000)
    assert b.tables(31000)[0]["alerts"] == []


def test_clockctl_results_from_the_hall_names_players_from_a_pairings_file(tmp_path, capsys):
    from host_tools import cli

    b = Board(KEY, EVENT, pairings.parse("round,table,player1,player2\n2,1,A,B\n2,2,C,D\n"),
              store=tmp_path / "hall")
    b.receive(*result(pub("1"), 1, (300, 310), (300, 310)), False, 0)
    b.receive(*result(pub("2"), 1, (420, 380), (410, 380), (10, 0)), False, 0)
    later = tmp_path / "pairings.csv"   # the numbers for tsh, given afterwards
    later.write_text("round,table,player1,player2,number1,number2\n2,1,Ann,Bo,1,2\n")
    out = tmp_path / "r.csv"
    assert cli.main(["results", "--hall", str(tmp_path / "hall"), "--pairings", str(later),
                     "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "r.csv: 2 games; " in captured.out and "tsh score entry for 1" in captured.out
    assert "round 2 table 2 (C - D) is not in the tsh entry" in captured.err
    assert (tmp_path / "r-tsh.txt").read_text() == "a 2 a\n1 300 2 310\n\n"
    rows = out.read_text(encoding="utf-8-sig").splitlines()
    assert rows[1].startswith("2,a,1,Ann,Bo,300,310") and rows[2].startswith("2,a,2,C,D,420")
    with pytest.raises(SystemExit, match="no results received there"):
        cli.main(["results", "--hall", str(tmp_path / "nothing"), "--out", str(out)])
