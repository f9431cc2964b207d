"""The results the hall received (result messages), as CSV and as tsh's score entry.

CSV: one row a game, with the players from the pairings, the scores the players
confirmed at the clock, the penalties the clock applied, the final scores and the
times left as the clock showed them.

tsh (John Chew's tournament program): its data entry takes a round's scores with the
command "a ROUND DIVISION" (add scores), then, at its sub-prompt, one game a line as
written on a score slip: player 1's number, player 1's score, player 2's number, player
2's score; an empty line returns to tsh's prompt (tsh's documentation, "Data Entry with
tsh", doc/entry.html; "Configuring tsh", doc/config.html: one .t data file per
division, named in config.tsh).  The export is exactly those lines, round by round and
division by division, to paste at tsh's prompt: tsh checks them as it checks typed
entry (pairings known, scores in range).  The score given is the final score, after the
penalties the clock applied.  A game whose players have no tsh numbers in the pairings
file cannot be entered: it is listed as left out.
"""

from __future__ import annotations

import csv
import io

from host_tools.hall import wire

COLUMNS = ("round", "division", "table", "left_player", "right_player",
           "left_score", "right_score", "left_overtime_penalty", "right_overtime_penalty",
           "left_challenge_penalty", "right_challenge_penalty", "left_final", "right_final",
           "spread", "left_time", "right_time", "forfeit", "left_number", "right_number",
           "event", "device", "game", "received")
SIDES = ("left", "right")


def _round_key(text):
    text = str(text or "")
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


def _table_key(text):
    text = str(text or "")
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


def rows(records: list[dict]) -> list[dict]:
    """One row per game, by round, then table."""
    out = []
    for r in records:
        msg = r["message"]
        numbers = r.get("numbers") or ["", ""]
        row = {"round": r.get("round", ""), "division": r.get("division") or "a",
               "table": msg["table"], "event": msg["event"], "device": msg["device"],
               "game": msg["game"], "received": r.get("received", ""),
               # scores not yet entered at the clock: empty (and not in tsh's entry)
               "spread": msg["final"][0] - msg["final"][1] if msg["final"] else "",
               "forfeit": SIDES[msg["forfeit"]] if msg["forfeit"] in (0, 1) else
               ("both" if msg["forfeit"] == 2 else "")}
        for side, name in enumerate(SIDES):
            row[name + "_player"] = (r.get("players") or ["", ""])[side]
            row[name + "_score"] = msg["score"][side] if msg["score"] else ""
            row[name + "_overtime_penalty"] = msg["penalty"][side]
            row[name + "_challenge_penalty"] = msg["chal_penalty"][side]
            row[name + "_final"] = msg["final"][side] if msg["final"] else ""
            row[name + "_time"] = wire.time_text(msg["ms"][side]).strip()
            row[name + "_number"] = numbers[side]
        out.append(row)
    out.sort(key=lambda row: (_round_key(row["round"]), row["division"],
                              _table_key(row["table"]), row["device"], row["game"]))
    return out


def to_csv(records: list[dict]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, COLUMNS, lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    for row in rows(records):
        w.writerow(row)
    return buf.getvalue()


def to_tsh(records: list[dict]) -> tuple[str, list[dict]]:
    """(tsh score entry text, rows left out for want of tsh numbers, a round or the
    scores) of the results the hall received."""
    return tsh_entry(rows(records))


def tsh_entry(game_rows: list[dict]) -> tuple[str, list[dict]]:
    """(tsh score entry text, rows left out) of rows with round, division, table,
    left/right_number, left/right_final ("" when the scores were not entered) and
    left/right_player: the hall's rows (rows()) or the games read from the clocks over
    USB (`clockctl results`), in their order."""
    groups: dict[tuple[str, str], list[dict]] = {}
    left_out = []
    for row in game_rows:
        if row.get("left_number") in ("", None) or row.get("right_number") in ("", None) \
                or not row["round"] or row.get("left_final", "") in ("", None):
            left_out.append(row)
            continue
        groups.setdefault((str(row["round"]), row.get("division") or "a"), []).append(row)
    lines = []
    for (round_name, division), games in groups.items():
        lines.append("a %s %s" % (round_name, division))
        for g in games:
            lines.append("%d %d %d %d" % (g["left_number"], g["left_final"],
                                          g["right_number"], g["right_final"]))
        lines.append("")
    return "\n".join(lines) + ("\n" if lines else ""), left_out


def left_out_reason(row: dict) -> str:
    """Why a game is not in the tsh entry (tsh_entry's rows left out)."""
    if not row["round"]:
        return "no round"
    if row.get("left_final", "") in ("", None):
        return "no scores entered at the clock"
    return "the pairings give no tsh player numbers"
