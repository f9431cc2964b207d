"""Language profiles and the normalisation of word list entries into tile sequences.

A normalised word is a ``str`` whose characters are ``chr(tile_index)``: ordinary string
comparison then orders words by tile index, which is the order the graph is built in.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

# Reasons an entry is dropped (the keys of the report).
CAPITAL = "capital"
ABBREVIATION = "abbreviation"
NON_LETTER = "non-letter"
FOREIGN_LETTER = "foreign-letter"
TOO_SHORT = "too-short"
TOO_LONG = "too-long"
DUPLICATE = "duplicate"
UNDECODABLE = "undecodable"
REASONS = (CAPITAL, ABBREVIATION, NON_LETTER, FOREIGN_LETTER, TOO_SHORT, TOO_LONG,
           DUPLICATE, UNDECODABLE)

MAX_TILES = 250  # image limit on tiles (indices 0..249)


class ProfileError(ValueError):
    pass


@dataclass
class Profile:
    language: str
    tiles: list[str]
    blank_only: list[str] = field(default_factory=list)
    drop_capitalised: bool = False
    drop_abbreviations: bool = False
    strip_diacritics: bool = False
    map: dict[str, str] = field(default_factory=dict)
    min_length: int = 1
    max_length: int = 0  # 0: no limit
    description: str = ""

    def __post_init__(self) -> None:
        if not self.tiles:
            raise ProfileError("a profile needs at least one tile")
        if len(self.tiles) > MAX_TILES:
            raise ProfileError(f"at most {MAX_TILES} tiles")
        if len(set(self.tiles)) != len(self.tiles):
            raise ProfileError("duplicate tile in profile")
        for t in self.tiles:
            if not t or t != t.strip() or "\n" in t:
                raise ProfileError(f"bad tile {t!r}")
            if len(t.encode("utf-8")) > 255:
                raise ProfileError(f"tile too long: {t!r}")
        for t in self.blank_only:
            if t not in self.tiles:
                raise ProfileError(f"blank-only tile {t!r} is not a tile")
        if len(self.language.encode("utf-8")) > 255:
            raise ProfileError("language code too long")
        self._compile()

    # -- construction ----------------------------------------------------------------
    @classmethod
    def from_dict(cls, d: dict) -> "Profile":
        known = {"language", "tiles", "blank_only", "drop_capitalised", "drop_abbreviations",
                 "strip_diacritics", "map", "min_length", "max_length", "description"}
        unknown = set(d) - known - {"format"}
        if unknown:
            raise ProfileError(f"unknown profile keys: {sorted(unknown)}")
        return cls(**{k: v for k, v in d.items() if k in known})

    @classmethod
    def builtin(cls, code: str) -> "Profile":
        name = f"{code}.json"
        res = resources.files("wordlist_packer").joinpath("profiles", name)
        if not res.is_file():
            raise ProfileError(f"no built-in profile {code!r} (known: {', '.join(builtin_languages())})")
        return cls.from_dict(json.loads(res.read_text(encoding="utf-8")))

    @classmethod
    def load(cls, spec: str) -> "Profile":
        """A built-in language code or the path of a profile JSON file."""
        if spec.endswith(".json") or "/" in spec or "\\" in spec:
            return cls.from_dict(json.loads(Path(spec).read_text(encoding="utf-8")))
        return cls.builtin(spec)

    @classmethod
    def from_alphabet_file(cls, path: str | Path, language: str = "xx") -> "Profile":
        """The generic profile: one tile per line; ``blank-only`` after a tile marks it;
        ``map FROM TO`` lines add mappings; option lines ``drop-capitalised``,
        ``strip-diacritics``, ``min-length N``, ``max-length N``, ``language CODE``;
        ``#`` starts a comment."""
        tiles: list[str] = []
        blank: list[str] = []
        mp: dict[str, str] = {}
        opts: dict = {"language": language}
        text = Path(path).read_text(encoding="utf-8-sig")
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            kw = parts[0].lower()
            if kw == "map" and len(parts) == 3:
                mp[parts[1]] = parts[2]
            elif kw == "map" and len(parts) == 2:
                mp[parts[1]] = ""
            elif kw == "drop-capitalised" and len(parts) == 1:
                opts["drop_capitalised"] = True
            elif kw == "strip-diacritics" and len(parts) == 1:
                opts["strip_diacritics"] = True
            elif kw in ("min-length", "max-length") and len(parts) == 2 and parts[1].isdigit():
                opts[kw.replace("-", "_")] = int(parts[1])
            elif kw == "language" and len(parts) == 2:
                opts["language"] = parts[1]
            elif len(parts) == 1:
                tiles.append(parts[0])
            elif len(parts) == 2 and parts[1].lower() == "blank-only":
                tiles.append(parts[0])
                blank.append(parts[0])
            else:
                raise ProfileError(f"{path}:{n}: cannot read {raw!r}")
        return cls(tiles=tiles, blank_only=blank, map=mp, **opts)

    # -- normalisation ------------------------------------------------------------------
    def _compile(self) -> None:
        self.tile_index = {t: i for i, t in enumerate(self.tiles)}
        self.single_char = all(len(t) == 1 for t in self.tiles)
        self._tile_chars = set("".join(self.tiles))
        self._map_chars = set("".join(self.map))
        # Fast path: entries made only of characters that are tiles by themselves.
        lower: dict[str, int] = {}
        upper: dict[str, int] = {}
        for t, i in self.tile_index.items():
            if len(t) != 1 or t in self.map:
                continue
            lo = t.lower()
            if len(lo) == 1 and lo.upper() == t and lo not in self.map:
                lower[lo] = i
            if t.upper() == t and t.lower() != t:
                upper[t] = i
        self._fast_re = None
        self._fast_trans = {}
        if self.single_char and lower:
            lo_cls = "".join(re.escape(c) for c in sorted(lower))
            up_cls = "".join(re.escape(c) for c in sorted(upper))
            if self.drop_capitalised:
                pat, table = f"[{lo_cls}]+", lower
            elif self.drop_abbreviations:
                pat = f"[{up_cls}]?[{lo_cls}]+" if up_cls else f"[{lo_cls}]+"
                table = {**lower, **upper}
            else:
                pat = f"[{lo_cls}{up_cls}]+"
                table = {**lower, **upper}
            self._fast_re = re.compile(pat).fullmatch
            self._fast_trans = {ord(c): i for c, i in table.items()}
        self._map_items = sorted(self.map.items(), key=lambda kv: -len(kv[0]))
        alts = sorted(self.tiles, key=lambda t: (-len(t), t))
        self._tok_re = re.compile("|".join(re.escape(t) for t in alts))
        self._upper_trans = {ord(t): i for t, i in self.tile_index.items() if len(t) == 1}
        self.abbrev_mode = self.drop_abbreviations

    def normalise(self, entry: str) -> tuple[str | None, str]:
        """``(codes, "")`` for a kept entry or ``(None, reason)``. ``entry`` is stripped."""
        fast = self._fast_re
        if fast is not None and fast(entry):
            codes = entry.translate(self._fast_trans)
        else:
            codes, reason = self._slow(entry)
            if codes is None:
                return None, reason
        n = len(codes)
        if n < self.min_length:
            return None, TOO_SHORT
        if self.max_length and n > self.max_length:
            return None, TOO_LONG
        return codes, ""

    def _slow(self, entry: str) -> tuple[str | None, str]:
        s = unicodedata.normalize("NFC", entry)
        ncap = sum(1 for c in s if c.isupper() or c.istitle())
        if self.drop_capitalised and ncap:
            return None, CAPITAL
        if self.drop_abbreviations and any(
                not c.isalpha() and c not in self._tile_chars and c not in self._map_chars
                for c in s):
            return None, NON_LETTER
        if self.drop_abbreviations and (ncap >= 2 or (ncap and not any(c.islower() for c in s))):
            return None, ABBREVIATION
        u = s.upper()
        for k, v in self._map_items:
            if k in u:
                u = u.replace(k, v)
        if self.strip_diacritics:
            out = []
            for c in u:
                if c in self._tile_chars or c.isascii():
                    out.append(c)
                else:
                    d = unicodedata.normalize("NFD", c)
                    base = "".join(x for x in d if not unicodedata.combining(x))
                    out.append(base if base else "")
            u = "".join(out)
        if not u:
            return None, NON_LETTER
        if self.single_char:
            ut = self._upper_trans
            bad = [c for c in u if ord(c) not in ut]
            if not bad:
                return u.translate(ut), ""
            return None, (FOREIGN_LETTER if all(c.isalpha() for c in bad) else NON_LETTER)
        parts = []
        pos = 0
        m = self._tok_re.match
        ti = self.tile_index
        while pos < len(u):
            mm = m(u, pos)
            if mm is None:
                return None, (FOREIGN_LETTER if u[pos].isalpha() else NON_LETTER)
            parts.append(chr(ti[mm.group()]))
            pos = mm.end()
        return "".join(parts), ""

    def display(self, codes: str) -> str:
        t = self.tiles
        return "".join(t[ord(c)] for c in codes)

    def encode_word(self, word: str) -> str | None:
        """Tiles of a query word (any case, accents per profile) or None."""
        codes, _ = self.normalise_query(word)
        return codes

    def normalise_query(self, word: str) -> tuple[str | None, str]:
        """Like :meth:`normalise` but ignores capitalisation rules (a query is typed in
        capitals) and length limits."""
        s = unicodedata.normalize("NFC", word.strip()).upper()
        saved = self.drop_capitalised, self.drop_abbreviations
        try:
            self.drop_capitalised = self.drop_abbreviations = False
            return self._slow(s)
        finally:
            self.drop_capitalised, self.drop_abbreviations = saved


def builtin_languages() -> list[str]:
    d = resources.files("wordlist_packer").joinpath("profiles")
    return sorted(p.name[:-5] for p in d.iterdir() if p.name.endswith(".json"))


@dataclass
class NormaliseResult:
    words: list[str]              # sorted, unique normalised words
    dropped: Counter              # reason -> count
    lines: int                    # entries read (not blank, not comment)
    report: list[tuple[int, str, str]] | None  # (line, reason, entry) when asked


def normalise_lines(profile: Profile, lines, want_report: bool = False,
                    first_line: int = 1) -> NormaliseResult:
    """Normalise an iterable of text lines (already decoded; BOM and CR allowed)."""
    dropped: Counter = Counter()
    report: list | None = [] if want_report else None
    kept: list[str] = []
    norm = profile.normalise
    n_entries = 0
    append = kept.append
    for lineno, raw in enumerate(lines, first_line):
        e = raw.strip()
        if not e or e[0] == "#":
            continue
        n_entries += 1
        codes, reason = norm(e)
        if codes is None:
            dropped[reason] += 1
            if report is not None:
                report.append((lineno, reason, e))
        else:
            append(codes if report is None else (codes, lineno, e))
    if report is not None:
        seen: set[str] = set()
        words = []
        for codes, lineno, e in kept:
            if codes in seen:
                dropped[DUPLICATE] += 1
                report.append((lineno, DUPLICATE, e))
            else:
                seen.add(codes)
                words.append(codes)
        words.sort()
        report.sort()
    else:
        uniq = set(kept)
        if len(uniq) != len(kept):
            dropped[DUPLICATE] += len(kept) - len(uniq)
        words = sorted(uniq)
    return NormaliseResult(words, dropped, n_entries, report)
