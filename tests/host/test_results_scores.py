"""`clockctl results` over USB: the scores confirmed at the keypad (the game log's "score"
record after a game's end) in the CSV rows, and tsh's score entry written by the one writer
the hall's export uses (host_tools/hall/export.py tsh_entry)."""

from host_tools.cli import finished_games
from host_tools.hall import export


def _log(*records):
    return [dict(r, seq=i) for i, r in enumerate(records)]


def test_a_score_record_fills_the_game_it_follows():
    recs = _log({"kind": "start", "at": 0, "side": 0, "preset": "tso30", "table": "4"},
                {"kind": "challenge", "at": 10, "side": 1, "words": 1, "verdict": "acceptable",
                 "penalty": 10},
                {"kind": "end", "at": 20, "left": [-70000, 5000], "penalty": [20, 0],
                 "notes": []},
                {"kind": "recovered", "at": 20, "phase": 3, "cause": "power"},
                {"kind": "score", "at": 21, "score": [413, 380], "final": [393, 370]},
                # the next game: ended, then taken back by the referee before its scores
                {"kind": "start", "at": 0, "side": 0, "preset": "tso30"},
                {"kind": "end", "at": 9, "left": [1000, 2000], "penalty": [0, 0], "notes": []},
                {"kind": "undo", "at": 9, "what": "end"},
                {"kind": "score", "at": 9, "score": [1, 2], "final": [1, 2]})
    first, second = finished_games(recs)
    assert (first["left_score"], first["right_score"]) == (413, 380)
    assert (first["left_final"], first["right_final"]) == (393, 370)
    assert first["left_overtime_penalty"] == 20 and first["right_challenge_penalty"] == 10
    # a score record after the referee took the end back belongs to no ended game
    assert second["left_score"] == second["left_final"] == ""


def test_the_tsh_entry_holds_the_games_with_scores_numbers_and_a_round():
    base = {"division": "a", "table": "1", "left_player": "A", "right_player": "B"}
    rows = [dict(base, round="2", left_number=3, right_number=7, left_final=393,
                 right_final=370),
            dict(base, round="2", table="2", left_number=1, right_number=2, left_final="",
                 right_final=""),
            dict(base, round="2", table="3", left_number="", right_number="", left_final=5,
                 right_final=6),
            dict(base, round="", table="4", left_number=4, right_number=5, left_final=5,
                 right_final=6)]
    text, left_out = export.tsh_entry(rows)
    assert text == "a 2 a\n3 393 7 370\n\n"
    assert [export.left_out_reason(r) for r in left_out] == [
        "no scores entered at the clock", "the pairings give no tsh player numbers",
        "no round"]
