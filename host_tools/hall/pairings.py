"""The round's pairings, from a CSV file the organiser writes or exports (docs/hall.md):

    round,table,player1,player2[,number1,number2][,division]

one line a game, with a header line of these names (in any order; `left`/`right` are
taken for player1/player2).  The first player sits at the clock's left button, the
second at its right.  number1/number2 are the players' numbers in tsh (needed only for
the tsh score entry), division tsh's division (default "a").
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

ALIASES = {"left": "player1", "right": "player2", "player 1": "player1",
           "player 2": "player2", "number 1": "number1", "number 2": "number2",
           "div": "division"}
REQUIRED = ("round", "table", "player1", "player2")


class PairingsError(ValueError):
    pass


@dataclass(frozen=True)
class Pairing:
    round: str
    table: str
    players: tuple[str, str]
    numbers: tuple[int, int] | None = None
    division: str = "a"


def _round_key(text: str):
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


class Pairings:
    """Every pairing of a file, looked up by round and table."""

    def __init__(self, rows: list[Pairing]):
        self.rows = rows
        self._at = {(p.round, p.table): p for p in rows}

    def rounds(self) -> list[str]:
        return sorted({p.round for p in self.rows}, key=_round_key)

    def last_round(self) -> str | None:
        rounds = self.rounds()
        return rounds[-1] if rounds else None

    def get(self, round_name, table) -> Pairing | None:
        return self._at.get((str(round_name), str(table)))


def parse(text: str, name: str = "pairings") -> Pairings:
    """Pairings from CSV text; PairingsError naming the line for anything wrong."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines:
        raise PairingsError("%s: empty (expected a header: %s)" % (name, ",".join(REQUIRED)))
    # a spreadsheet set to a German, Polish or Norwegian locale writes semicolons
    delimiter = ";" if lines[0].count(";") > lines[0].count(",") else ","
    reader = csv.reader(lines, delimiter=delimiter)
    header = [ALIASES.get(h.strip().lower(), h.strip().lower()) for h in next(reader)]
    missing = [h for h in REQUIRED if h not in header]
    if missing:
        raise PairingsError("%s: line 1: the header lacks %s (expected %s)"
                            % (name, ", ".join(missing), ",".join(REQUIRED)))
    rows, seen = [], {}
    for line_no, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue
        cells = [c.strip() for c in cells] + [""] * len(header)
        row = dict(zip(header, cells))
        where = "%s: line %d" % (name, line_no)
        for field in REQUIRED:
            if not row[field]:
                raise PairingsError("%s: no %s" % (where, field))
        numbers = None
        if row.get("number1") or row.get("number2"):
            try:
                numbers = (int(row["number1"]), int(row["number2"]))
            except (KeyError, ValueError):
                raise PairingsError("%s: number1 and number2 must both be whole numbers "
                                    "(the players' numbers in tsh)" % where) from None
        key = (row["round"], row["table"])
        if key in seen:
            raise PairingsError("%s: round %s, table %s is also on line %d"
                                % (where, key[0], key[1], seen[key]))
        seen[key] = line_no
        rows.append(Pairing(row["round"], row["table"], (row["player1"], row["player2"]),
                            numbers, row.get("division") or "a"))
    return Pairings(rows)


def load(path) -> Pairings:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise PairingsError("%s: cannot read (%s)" % (path, e.strerror or e)) from None
    except UnicodeDecodeError:
        raise PairingsError("%s: not UTF-8 text (save the CSV as UTF-8)" % path) from None
    return parse(text, str(path))
