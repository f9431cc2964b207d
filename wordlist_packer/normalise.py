"""Language profiles and the normalisation of word list entries into tile sequences.

A normalised word is a ``str`` of *code characters*: tile index ``i`` is
``chr(CODE_BASE + i)``. Ordinary string comparison then orders words by tile index,
which is the order the graph is built in, and no code is a line feed, so a list of words
can be joined and split like text.
"""

from __future__ import annotations

import codecs
import json
import re
from itertools import accumulate, chain, compress, repeat
from operator import ne
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from .graph import CODE_BASE

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
# What each rule is, for messages (the profile's description names its source).
RULES = {
    CAPITAL: "a capital letter (a name)",
    ABBREVIATION: "only capitals or more than one capital (an abbreviation)",
    NON_LETTER: "a character that is not a letter (hyphen, apostrophe, dot, digit, space)",
    FOREIGN_LETTER: "a letter that is not a tile of the language",
    TOO_SHORT: "shorter than the shortest word the rules allow",
    TOO_LONG: "longer than --max-length",
    DUPLICATE: "the same word as an earlier entry after normalisation",
    UNDECODABLE: "a line that is not valid text in the input encoding",
}

MAX_TILES = 250  # image limit on tiles (indices 0..249)
_SENTINEL = "\x01"
_CHUNK = 1 << 22  # characters normalised at a time


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
        self._map_items = sorted(self.map.items(), key=lambda kv: -len(kv[0]))
        alts = sorted(self.tiles, key=lambda t: (-len(t), t))
        self._tok_re = re.compile("|".join(re.escape(t) for t in alts))
        self._upper_trans = {ord(t): CODE_BASE + i for t, i in self.tile_index.items()
                             if len(t) == 1}
        self._fold_cache: dict[str, str] = {}
        self._compile_fast()

    def _compile_fast(self) -> None:
        """The bulk path: a translation of whole text chunks and a regular expression that
        finds the lines made only of plain tile letters (by far most lines), which give
        the same codes as the per-entry rules; every other line takes the per-entry path."""
        T = len(self.tiles)
        self._fast = None
        self._fast_chars = None
        self._fast_for = (self.min_length, self.max_length)
        if not self.single_char:
            return
        lower: dict[str, int] = {}
        upper: dict[str, int] = {}
        for t, i in self.tile_index.items():
            if t in self._map_chars:
                continue
            lo = t.lower()
            if (len(lo) == 1 and lo != t and lo.upper() == t and lo not in self._map_chars
                    and unicodedata.is_normalized("NFC", lo)):
                lower[lo] = i
            if t.upper() == t and t.lower() != t and unicodedata.is_normalized("NFC", t):
                upper[t] = i
        if not lower:
            return
        table: dict[int, str] = {c: _SENTINEL for c in range(CODE_BASE, CODE_BASE + 2 * T)}
        for ch, i in lower.items():
            table[ord(ch)] = chr(CODE_BASE + i)
        lo_cls = "[%s-%s]" % (re.escape(chr(CODE_BASE)), re.escape(chr(CODE_BASE + T - 1)))
        up_cls = "[%s-%s]" % (re.escape(chr(CODE_BASE + T)), re.escape(chr(CODE_BASE + 2 * T - 1)))
        lo_n = self.min_length
        hi_n = self.max_length or ""
        length = "(?=[^\n]{%d,%s}$)" % (max(lo_n, 1), hi_n)
        shift_first = False
        if self.drop_capitalised:
            body = lo_cls + "+"
        elif self.drop_abbreviations:
            for ch, i in upper.items():
                table[ord(ch)] = chr(CODE_BASE + T + i)
            body = up_cls + "?" + lo_cls + "+"
            shift_first = True
        else:
            for ch, i in upper.items():
                table[ord(ch)] = chr(CODE_BASE + i)
            body = "[%s-%s]+" % (re.escape(chr(CODE_BASE)), re.escape(chr(CODE_BASE + T - 1)))
        self._fast = (table, re.compile("^" + length + body + "$", re.M),
                      re.compile("^(?!" + length + body + "$)[^\n]*$", re.M),
                      CODE_BASE + T if shift_first else 0, T)
        self._fast_chars = (lower, upper if not self.drop_capitalised else {},
                            shift_first)

    def fold(self, ch: str) -> str:
        """A letter that is not a tile, by Unicode: the base letter with its combining
        marks removed, except marks that make a letter the rules keep as its own (a tile:
        Ä in German, Å in Norwegian). 'Ò' -> 'O', 'Ǘ' -> 'Ü' (German), 'Ǻ' -> 'Å'."""
        out = self._fold_cache.get(ch)
        if out is not None:
            return out
        d = unicodedata.normalize("NFD", ch)
        out = ""
        for x in d:
            if not unicodedata.combining(x):
                out += x
                continue
            if not out:
                continue
            joined = unicodedata.normalize("NFC", out[-1] + x)
            if len(joined) == 1 and joined in self._tile_chars:
                out = out[:-1] + joined
        self._fold_cache[ch] = out
        return out

    def normalise(self, entry: str) -> tuple[str | None, str]:
        """``(codes, "")`` for a kept entry or ``(None, reason)``. ``entry`` is stripped."""
        fast = self._current_fast()
        if fast is not None:
            tr = entry.translate(fast[0])
            if fast[1].fullmatch(tr):
                if fast[3] and tr[0] >= chr(fast[3]):
                    tr = chr(ord(tr[0]) - fast[4]) + tr[1:]
                return tr, ""
        return self._checked(entry)

    def _current_fast(self):
        # the length limits may be set after the profile was made (--max-length)
        if self._fast_for != (self.min_length, self.max_length):
            self._compile_fast()
        return self._fast

    def _checked(self, entry: str) -> tuple[str | None, str]:
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
        if self.drop_capitalised and entry.lower() != entry:
            return None, CAPITAL            # quick: most entries off the bulk path
        s = unicodedata.normalize("NFC", entry)
        ncap = sum(1 for c in s if c.isupper() or c.istitle())
        if self.drop_capitalised and ncap:
            return None, CAPITAL
        if self.drop_abbreviations and any(
                not c.isalpha() and c not in self._tile_chars and c not in self._map_chars
                and not unicodedata.combining(c) for c in s):
            return None, NON_LETTER
        if self.drop_abbreviations and (ncap >= 2 or (ncap and not any(c.islower() for c in s))):
            return None, ABBREVIATION
        u = s.upper()
        for k, v in self._map_items:
            if k in u:
                u = u.replace(k, v)
        if self.strip_diacritics:
            u = "".join(c if c in self._tile_chars or c.isascii() else self.fold(c) for c in u)
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
            parts.append(chr(CODE_BASE + ti[mm.group()]))
            pos = mm.end()
        return "".join(parts), ""

    def display(self, codes: str) -> str:
        t = self.tiles
        return "".join(t[ord(c) - CODE_BASE] for c in codes)

    def indices(self, codes: str) -> list[int]:
        """Tile indices of a normalised word."""
        return [ord(c) - CODE_BASE for c in codes]

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

    def dropped_total(self) -> int:
        return sum(self.dropped.values())


def normalise_lines(profile: Profile, lines, want_report: bool = False) -> NormaliseResult:
    """Normalise an iterable of text lines (already decoded; BOM and CR allowed)."""
    return normalise_text(profile, "\n".join(lines), want_report)


def normalise_text(profile: Profile, text: str, want_report: bool = False) -> NormaliseResult:
    """Normalise a whole decoded text, one entry per line. Most lines are handled in bulk
    (profile._fast); the others one by one."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    tally = _Tally(profile, want_report)
    kept: list[str] = []
    fast = profile._current_fast()
    lineno = 1
    pos = 0
    while pos < len(text):
        end = text.find("\n", min(pos + _CHUNK, len(text)))
        end = len(text) if end < 0 else end + 1
        chunk = text[pos:end]
        if fast is not None:
            table, fast_re, slow_re, shift_at, T = fast
            tr = chunk.translate(table)
            found = fast_re.findall(tr)
            if shift_at:
                found = [w if w[0] < chr(shift_at) else chr(ord(w[0]) - T) + w[1:]
                         for w in found]
            kept += found
            tally.entries += len(found)
            candidates = ((n, chunk[m.start():m.end()]) for n, m in
                          _numbered(tr, slow_re, lineno))
        else:
            candidates = enumerate(chunk.split("\n")[:-1] if chunk.endswith("\n")
                                   else chunk.split("\n"), lineno)
        for n, raw in candidates:
            tally.entry(n, raw)
        lineno += chunk.count("\n")
        pos = end
    return _finish(profile, kept, tally, lambda: text)


def normalise_utf8(profile: Profile, data: bytes, want_report: bool = False
                   ) -> NormaliseResult | None:
    """normalise_text() on UTF-8 bytes with the bulk handled as bytes: each chunk is
    decoded and written back one byte per character (`_ByteCodes`), so the lines made
    only of plain tile letters are found in those bytes, at the positions of the text's
    characters. None if this profile or input needs the text path."""
    codes = _ByteCodes.make(profile)
    if codes is None:
        return None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    kept: list[str] = []
    tally = _Tally(profile, want_report)
    lineno = 1
    pos = 0
    while pos < len(data):
        end = data.find(b"\n", min(pos + _CHUNK, len(data)))
        end = len(data) if end < 0 else end + 1
        try:
            text = data[pos:end].decode("utf-8")
        except UnicodeDecodeError:
            return None
        tr = codes.translate(text)
        if codes.plain is not None:
            runs, off_path = _plain_split(tr, codes.plain)
        else:
            runs = codes.fast_re.findall(tr)
            off_path = ((m.start(), m.end()) for m in codes.slow_re.finditer(tr))
        joined = b"\n".join(runs)
        del runs
        if codes.down is not None:
            joined = joined.translate(codes.down)
        if joined:
            found = joined.decode("latin-1").split("\n")
            if "" in found:         # blank lines, and where runs of plain lines meet
                found = list(filter(None, found))
            tally.entries += len(found)
            kept += found
            del found
        del joined
        spans = list(off_path)
        starts = [start for start, _ in spans]
        # line numbers: the line feeds before each line off the bulk path, added up
        feeds = map(tr.count, repeat(b"\n"), chain((0,), starts), starts)
        numbers = list(accumulate(feeds, initial=lineno))
        stops = [stop for _, stop in spans]
        tally.lines(numbers[1:], map(text.__getitem__, map(slice, starts, stops)))
        lineno = numbers[-1] + tr.count(b"\n", starts[-1] if starts else 0)
        pos = end
    return _finish(profile, kept, tally, lambda: data.decode("utf-8"))


class _ByteCodes:
    """Text to bytes, one byte per character: ASCII stays, each other letter of the bulk
    path (profile._fast_chars) gets a byte of its own, anything else becomes `?` (a
    charmap codec, a loop in C); a byte translation then makes the letters tile codes
    (code + T for a capital where capitals matter, at the start of a line only) and
    every other byte one that is no code. Regular expressions on these bytes find the
    lines the bulk path keeps (fast_re) and the others (slow_re, or plain)."""

    def __init__(self, charmap, table: bytes, fast_re, slow_re, plain, down) -> None:
        self.charmap, self.table = charmap, table
        self.fast_re, self.slow_re, self.plain, self.down = fast_re, slow_re, plain, down

    def translate(self, text: str) -> bytes:
        return codecs.charmap_encode(text, "replace", self.charmap)[0].translate(self.table)

    @classmethod
    def make(cls, profile: Profile) -> "_ByteCodes | None":
        profile._current_fast()
        if profile._fast_chars is None:
            return None
        lower, upper, abbrev = profile._fast_chars
        T = len(profile.tiles)
        if CODE_BASE + 2 * T > 0xFF:
            return None
        coded = _byte_coding(lower, upper if abbrev else {}, upper if not abbrev else {}, T)
        if coded is None:
            return None
        down = None
        if abbrev:
            down = bytearray(range(256))
            for i in range(T):
                down[CODE_BASE + T + i] = CODE_BASE + i
        return cls(*coded, *_line_patterns(profile, abbrev, T), down)


def _byte_coding(lower: dict, capitals: dict, upper: dict, T: int):
    """(charmap, byte table): lower-case letters and those upper-case ones whose case the
    rules ignore (upper) become their tile codes, capitals that the rules allow at the
    start of a line become code + T; every other byte becomes one that is no code. None
    if the letters need more than the 128 bytes above ASCII."""
    chars = [chr(c) for c in range(0x80)]     # byte -> character of the charmap
    table = bytearray(range(256))
    for c in range(CODE_BASE, CODE_BASE + 2 * T):
        table[c] = 1
    for c in range(0x80, 0x100):
        table[c] = 1
    for letters, offset in ((lower, 0), (upper, 0), (capitals, T)):
        for ch, i in letters.items():
            byte = ord(ch)
            if byte >= 0x80:
                if len(chars) == 0x100:
                    return None
                byte = len(chars)
                chars.append(ch)
            table[byte] = CODE_BASE + offset + i
    return codecs.charmap_build("".join(chars) + "\ufffe" * (0x100 - len(chars))), bytes(table)


def _line_patterns(profile: Profile, abbrev: bool, T: int):
    """(fast_re, slow_re, plain) on the coded bytes: the lines the bulk path keeps, the
    others, and where any run of tiles is a kept line (no rule for a capital at the
    start, no length limit: pl, en) a pattern for a byte that is no tile code and the
    rest of its line. Searching for such bytes finds the few lines off the bulk path,
    and the lines between them are kept whole, with no pattern tried at every line."""
    lo = re.escape(bytes([CODE_BASE])) + b"-" + re.escape(bytes([CODE_BASE + T - 1]))
    up = re.escape(bytes([CODE_BASE + T])) + b"-" + re.escape(bytes([CODE_BASE + 2 * T - 1]))
    n0 = max(profile.min_length, 1)
    n1 = profile.max_length
    if n1:      # a length limit: count tiles
        if abbrev:
            body = (b"(?:[" + up + b"][" + lo + b"]{%d,%d}|" % (max(n0 - 1, 1), n1 - 1) +
                    b"[" + lo + b"]{%d,%d})" % (n0, n1))
        else:
            body = b"[" + lo + b"]{%d,%d}" % (n0, n1)
    elif abbrev:
        body = (b"(?:[" + up + b"][" + lo + b"]{%d,}|[" % max(n0 - 1, 1) + lo +
                b"]{%d,})" % n0)
    else:
        body = b"[" + lo + b"]{%d,}" % n0
    fast_re = re.compile(b"^" + body + b"$", re.M)
    slow_re = re.compile(b"^(?!" + body + b"$)[^\n]*$", re.M)
    plain = None
    if not abbrev and not n1 and n0 == 1:
        plain = re.compile(b"[^" + lo + b"\n][^\n]*")
    return fast_re, slow_re, plain


def _plain_split(tr: bytes, other_byte) -> tuple[list[bytes], list[tuple[int, int]]]:
    """Translated lines split where a line holds a byte that is no tile code
    (other_byte: that byte and the rest of its line): the runs of plain lines between
    them (blank lines included), and the (start, end) of each line holding one."""
    runs = []
    spans = []
    at = 0
    for m in other_byte.finditer(tr):
        start = tr.rfind(b"\n", 0, m.start()) + 1
        runs.append(tr[at:start])
        spans.append((start, m.end()))
        at = m.end()
    runs.append(tr[at:])
    return runs, spans


class _Tally:
    """What the per-entry rules make of the lines off the bulk path: counts by reason,
    the report, the kept entries with their line numbers."""

    def __init__(self, profile: Profile, want_report: bool) -> None:
        self.norm = profile._checked
        self.capitals = profile.drop_capitalised    # the first rule of Profile._slow
        self.dropped: Counter = Counter()
        self.report: list | None = [] if want_report else None
        self.kept: list[tuple[str, int]] = []
        self.entries = 0

    def lines(self, linenos: list[int], raws) -> None:
        """entry() for each line; where a capital drops an entry before any other rule
        (drop_capitalised: most lines off the bulk path of such a list are names), the
        capitals are found for all the lines at once."""
        if not self.capitals:
            for n, raw in zip(linenos, raws):
                self.entry(n, raw)
            return
        entries = list(map(str.strip, raws))
        # lower-casing never makes or removes a line feed: one line each
        lowered = "\n".join(entries).lower().split("\n")
        capitals = 0
        for n, e, lower in zip(linenos, entries, lowered):
            if e == lower:                  # no capital (or blank): the per-entry rules
                if e and e[0] != "#":
                    self.entries += 1
                    self._rules(n, e)
            elif e[0] != "#":
                capitals += 1
                if self.report is not None:
                    self.report.append((n, CAPITAL, e))
        self.entries += capitals
        if capitals:
            self.dropped[CAPITAL] += capitals

    def entry(self, lineno: int, raw: str) -> None:
        e = raw.strip()
        if not e or e[0] == "#":
            return
        self.entries += 1
        self._rules(lineno, e)

    def _rules(self, lineno: int, e: str) -> None:
        codes, reason = self.norm(e)
        if codes is None:
            self.dropped[reason] += 1
            if self.report is not None:
                self.report.append((lineno, reason, e))
        else:
            self.kept.append((codes, lineno))


def _finish(profile, kept, tally: _Tally, text_of) -> NormaliseResult:
    slow_kept, dropped, report, n_entries = tally.kept, tally.dropped, tally.report, tally.entries
    kept += [c for c, _ in slow_kept]
    kept.sort()
    # drop repeats: keep a word where it differs from the one before
    words = list(compress(kept, map(ne, kept, chain(("",), kept))))
    dup = len(kept) - len(words)
    if dup:
        dropped[DUPLICATE] += dup
        if report is not None:
            report.extend(_duplicates(profile, text_of(), kept, slow_kept))
    if report is not None:
        report.sort()
    return NormaliseResult(words, dropped, n_entries, report)


def _numbered(text: str, regex, lineno: int):
    pos = 0
    for m in regex.finditer(text):
        lineno += text.count("\n", pos, m.start())
        pos = m.start()
        yield lineno, m


def _duplicates(profile: Profile, text: str, kept: list[str], slow_kept) -> list:
    """(line, DUPLICATE, entry) for every kept entry after the first with the same codes
    (a second pass, only when the list has duplicates)."""
    counts = Counter()
    prev = None
    for w in kept:
        if w == prev:
            counts[w] += 1
        prev = w
    twice = set(counts)
    by_line = {n: c for c, n in slow_kept}
    seen: set[str] = set()
    out = []
    fast = profile._fast
    for n, raw in enumerate(text.split("\n"), 1):
        codes = by_line.get(n)
        if codes is None and fast is not None:
            table, fast_re, _, shift_at, T = fast
            tr = raw.translate(table)
            if fast_re.fullmatch(tr):
                codes = tr if not shift_at or tr[0] < chr(shift_at) else (
                    chr(ord(tr[0]) - T) + tr[1:])
        if codes is None or codes not in twice:
            continue
        if codes in seen:
            out.append((n, DUPLICATE, raw.strip()))
        else:
            seen.add(codes)
    return out
