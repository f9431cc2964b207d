"""Is this the list's language? A list packed with the wrong profile loses every word
with a letter the profile lacks (a Polish list packed as German loses every word with Ł,
and its Ą Ę Ś Ż become plain letters), so the build refuses it unless told otherwise.

Two signs, either refuses:

* more than MAX_FOREIGN_SHARE of the entries are dropped for a foreign letter;
* the letters of the list fit another built-in profile better: the share of letter
  occurrences that are letters of the profile's own tiles (no accent stripped, nothing
  mapped) is higher for another profile by more than FIT_MARGIN.

The letters are counted on an even sample of the input (SAMPLE_BYTES in blocks spread
over the whole file), so that the check costs little on a list of millions of entries.
Neither sign counts on fewer than EVIDENCE entries or letters.
"""

from __future__ import annotations

from collections import Counter

from .normalise import Profile, ProfileError, builtin_languages

MAX_FOREIGN_SHARE = 0.03     # "a few percent" of the entries
FIT_MARGIN = 0.005           # of the letter occurrences
EVIDENCE = 20                # and never on fewer entries or letters than this: one
                             # loanword in a list of five is no sign
SAMPLE_BYTES = 1 << 21
BLOCKS = 64


def letter_counts(data: bytes, encoding: str = "utf-8") -> Counter:
    """Upper-case letters of an even sample of the input (bytes in `encoding`), counted."""
    if len(data) > SAMPLE_BYTES:
        size = SAMPLE_BYTES // BLOCKS
        step = len(data) // BLOCKS
        parts = []
        for k in range(BLOCKS):
            chunk = data[k * step:k * step + size]
            # whole lines only: a cut may split a multi-byte letter
            a = chunk.find(b"\n") + 1 if k else 0
            b = chunk.rfind(b"\n")
            if b > a:
                parts.append(chunk[a:b])
        data = b"\n".join(parts)
    try:
        text = data.decode(encoding, errors="ignore")
    except LookupError:             # an unknown encoding is reported where the list is read
        text = data.decode("utf-8", errors="ignore")
    counts = Counter(text.upper())
    return Counter({c: n for c, n in counts.items() if c.isalpha()})


def native_letters(profile: Profile) -> set[str]:
    """Letters written on the profile's own tiles."""
    return {c for t in profile.tiles for c in t.upper() if c.isalpha()}


def fit(counts: Counter, profile: Profile) -> float:
    total = sum(counts.values())
    if not total:
        return 1.0
    own = native_letters(profile)
    return sum(n for c, n in counts.items() if c in own) / total


class LanguageError(ValueError):
    """The list looks like another language than its profile."""


def check_language(counts: Counter, profile: Profile, foreign: int, entries: int) -> None:
    """Raise LanguageError naming the likely language if the list does not fit the
    profile: counts of its letters (letter_counts), entries dropped for a foreign
    letter, entries read."""
    mine = fit(counts, profile)
    likely = ""
    best = -1.0
    best_key: tuple = (-1.0, 0)
    for code in builtin_languages():
        if code == profile.language:
            continue
        try:
            other = Profile.builtin(code)
        except ProfileError:       # pragma: no cover - built-in profiles load
            continue
        # on a tie the smaller alphabet names the language (English letters fit de too)
        key = (fit(counts, other), -len(native_letters(other)))
        if key > best_key:
            best_key, likely, best = key, code, key[0]
    missing = Counter({c: n for c, n in counts.items() if c not in native_letters(profile)})
    letters = ", ".join(c for c, _ in missing.most_common(8))
    if best <= mine:
        likely = ""
    hint = (f"the letters fit --language {likely} better ({100 * best:.1f} % of letters "
            f"on its tiles, {100 * mine:.1f} % on {profile.language}'s)" if likely else "")
    total = sum(counts.values())
    if likely and best - mine > FIT_MARGIN and (best - mine) * total >= EVIDENCE:
        raise LanguageError(
            f"this list does not look like {profile.language!r}: {hint}; letters not on "
            f"its tiles: {letters}. Is this the right --language? Use --force-language to "
            "pack it with this profile anyway.")
    if foreign > MAX_FOREIGN_SHARE * entries and foreign >= EVIDENCE:
        where = f"; {hint}" if likely else ""
        raise LanguageError(
            f"{foreign:,} of {entries:,} entries ({100 * foreign / entries:.1f} %, more than "
            f"{100 * MAX_FOREIGN_SHARE:.0f} %) have a letter that is not on a "
            f"{profile.language!r} tile ({letters or 'none in the sample'}){where}. Is this "
            "the right --language? Use --force-language to pack it with this profile anyway.")
