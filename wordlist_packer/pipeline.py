"""Reading word lists, building images and verifying them."""

from __future__ import annotations

import bz2
import gc
import gzip
import lzma
import os
import random
import sys
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from . import graph as graph_mod
from .graph import CODE_BASE
from .image import HOT_SAMPLE, NO_ROOT, Image, ImageError, Meta, source_sha256, write_image
from .langcheck import LanguageError, check_language, letter_counts
from .normalise import (DUPLICATE, FOREIGN_LETTER, RULES, UNDECODABLE, NormaliseResult, Profile,
                        normalise_lines, normalise_text, normalise_utf8)


class InputError(ValueError):
    pass


def read_bytes(path: str | os.PathLike) -> bytes:
    p = str(path)
    if p == "-":
        return sys.stdin.buffer.read()
    opener = {".xz": lzma.open, ".lzma": lzma.open, ".gz": gzip.open, ".bz2": bz2.open}.get(
        Path(p).suffix.lower(), open)
    try:
        with opener(p, "rb") as f:
            return f.read()
    except (lzma.LZMAError, OSError, EOFError) as e:
        raise InputError(f"cannot read {p}: {e}") from None


def decode_text(data: bytes, encoding: str = "utf-8", skip_bad: bool = False
                ) -> tuple[str, list[tuple[int, str]]]:
    """The input as text; bad lines are (line number, repr) in the second list (and
    empty in the text) when skip_bad, otherwise an InputError names the first bad line."""
    enc = encoding.lower().replace("_", "-")
    if enc in ("utf-8", "utf8"):
        enc = "utf-8-sig"
    try:
        text = data.decode(enc)
    except UnicodeDecodeError as e:
        if not skip_bad:
            line = data.count(b"\n", 0, e.start) + 1
            raise InputError(f"line {line}: cannot decode as {encoding} ({e.reason}); "
                             "use --encoding or --skip-bad") from None
        lines: list[str] = []
        bad: list[tuple[int, str]] = []
        raw_lines = data.split(b"\n")
        for n, raw in enumerate(raw_lines, 1):
            try:
                s = raw.decode(enc if n == 1 else encoding)
            except UnicodeDecodeError:
                bad.append((n, repr(raw)[2:-1]))
                s = ""
            lines.append(s)
        return "\n".join(lines), bad
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, []


def decode_lines(data: bytes, encoding: str = "utf-8", skip_bad: bool = False
                 ) -> tuple[list[str], list[tuple[int, str]]]:
    """Lines of the input (see decode_text)."""
    text, bad = decode_text(data, encoding, skip_bad)
    return text.split("\n"), bad


@dataclass
class Loaded:
    result: NormaliseResult
    bad: list[tuple[int, str]]
    letters: Counter        # letters of a sample of the input (langcheck.letter_counts)


@contextmanager
def no_cycle_collection():
    """The cyclic garbage collector paused: reading and building make millions of small
    lists and tuples and no reference cycles, so its passes over them (0.3 to 0.6 s of
    the Polish build) would free nothing; reference counting frees as usual."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def load_words(path, profile: Profile, encoding="utf-8", skip_bad=False,
               want_report=False) -> Loaded:
    with no_cycle_collection():
        return _load_words(path, profile, encoding, skip_bad, want_report)


def _load_words(path, profile: Profile, encoding, skip_bad, want_report) -> Loaded:
    data = read_bytes(path)
    letters = letter_counts(data, encoding)
    res = None
    bad: list = []
    if encoding.lower().replace("_", "-") in ("utf-8", "utf8"):
        # most lines found in the bytes; None: a line that is not UTF-8, or a profile
        # the byte path cannot take
        res = normalise_utf8(profile, data, want_report=want_report)
    if res is None:
        text, bad = decode_text(data, encoding, skip_bad)
    del data
    if res is None:
        res = normalise_text(profile, text, want_report=want_report)
        del text
    if bad:
        res.dropped[UNDECODABLE] += len(bad)
        res.lines += len(bad)
        if res.report is not None:
            res.report.extend((n, UNDECODABLE, r) for n, r in bad)
            res.report.sort()
    return Loaded(res, bad, letters)


def build_date(explicit: str | int | None = None) -> int:
    """--date (epoch seconds or YYYY-MM-DD), else SOURCE_DATE_EPOCH, else now."""
    if explicit is not None and explicit != "":
        s = str(explicit)
        if s.isdigit():
            return int(s)
        import datetime
        try:
            d = datetime.datetime.fromisoformat(s)
        except ValueError:
            raise InputError(f"bad date {s!r}: use seconds since 1970 or YYYY-MM-DD") from None
        if d.tzinfo is None:
            d = d.replace(tzinfo=datetime.timezone.utc)
        return int(d.timestamp())
    env = os.environ.get("SOURCE_DATE_EPOCH")
    if env and env.isdigit():
        return int(env)
    return int(time.time())


def build_image(words: list[str], profile: Profile, name: str = "", version: str = "",
                date: int = 0, progress=None, **layout) -> tuple[bytes, graph_mod.Graph]:
    """words: sorted unique normalised words (as from normalise_lines)."""
    with no_cycle_collection():
        return _build_image(words, profile, name, version, date, progress, **layout)


def _build_image(words, profile, name, version, date, progress, **layout):
    g = graph_mod.build(words, progress=(lambda n: progress(f"graph: {n} words"))
                        if progress else None)
    meta = Meta(language=profile.language, tiles=list(profile.tiles),
                blank_only=[t in profile.blank_only for t in profile.tiles],
                name=name, version=version, date=date,
                sha256=source_sha256(words, profile.tiles))
    # the words whose lookups choose the pages the header names resident
    sample = words if len(words) <= HOT_SAMPLE else random.Random(1).sample(words, HOT_SAMPLE)
    sample = [[ord(c) - CODE_BASE for c in w] for w in sample]
    return write_image(g, meta, progress, sample=sample, **layout), g


def build_from_lines(lines, profile: Profile, **kw) -> bytes:
    """Convenience for tests and tools: text lines to image bytes."""
    res = normalise_lines(profile, lines)
    return build_image(res.words, profile, **kw)[0]


# ----------------------------------------------------------------------------------------
# what may be packed

DEFAULT_MAX_DROP_SHARE = 0.5


class DropError(InputError):
    """The list keeps no words, or drops more entries than allowed."""


def check_drops(res: NormaliseResult, max_share: float | None = DEFAULT_MAX_DROP_SHARE
                ) -> None:
    """Refuse a list that keeps no words, or (max_share not None) drops more than that
    share of its entries, naming the rules that dropped them."""
    total = res.lines
    # a repeated word is no rule's doing: the share counts the entries a rule dropped
    dropped = res.dropped_total() - res.dropped.get(DUPLICATE, 0)
    if total == 0:
        raise DropError("the input holds no entries: nothing to pack")
    rules = "; ".join(f"{reason}: {n:,} ({RULES[reason]})"
                      for reason, n in res.dropped.most_common() if n and reason != DUPLICATE)
    if not res.words:
        raise DropError(f"no word kept: all {total:,} entries dropped ({rules}). "
                        "Is this the right --language, and is the list in lower case "
                        "where the rules drop capitals?")
    if max_share is not None and dropped > max_share * total:
        raise DropError(f"{dropped:,} of {total:,} entries dropped ({100 * dropped / total:.1f} %, "
                        f"more than {100 * max_share:.0f} %): {rules}. Is this the right "
                        "--language? Use --allow-drops to pack the list anyway.")


def check_profile_fits(loaded: Loaded, profile: Profile) -> None:
    """Refuse a list that looks like another language than the profile (langcheck)."""
    try:
        check_language(loaded.letters, profile, loaded.result.dropped.get(FOREIGN_LETTER, 0),
                       loaded.result.lines)
    except LanguageError as e:
        raise DropError(str(e)) from None


# ----------------------------------------------------------------------------------------
# verification

def decode_graph(img: Image) -> tuple[dict[int, list[tuple[int, bool, int]]], int]:
    """Every node reachable from the root: {address: [(tile, final, target)]}, jumps
    followed (a node's whole arc list)."""
    nodes: dict[int, list] = {}
    if img.root == NO_ROOT:
        return nodes, -1
    stack = [img.root]
    while stack:
        a = stack.pop()
        if a in nodes:
            continue
        arcs = img.arcs_at(a)
        nodes[a] = arcs
        for _, _, t in arcs:
            if t >= 0 and t not in nodes:
                stack.append(t)
    return nodes, img.root


def stored_counts(img: Image) -> tuple[int, int, int]:
    """(arcs, nodes, jumps) stored in the body, counted from the root through arcs and
    jumps (what the header's counts must say)."""
    arcs = nodes = jumps = 0
    for _, own, jump in img.stored_nodes():
        nodes += 1
        arcs += len(own)
        jumps += jump >= 0
    return arcs, nodes, jumps


def count_words(nodes: dict, root: int) -> int:
    """Number of accepted words (paths to a FINAL arc); raises ImageError on a cycle."""
    memo: dict[int, int] = {}
    state: dict[int, int] = {}
    stack = [root]
    while stack:
        a = stack[-1]
        if a in memo:
            stack.pop()
            continue
        if state.get(a) == 1:
            total = 0
            for _, final, t in nodes[a]:
                total += (1 if final else 0) + (memo[t] if t >= 0 else 0)
            memo[a] = total
            stack.pop()
            continue
        state[a] = 1
        for _, _, t in nodes[a]:
            if t >= 0 and t not in memo:
                if state.get(t) == 1:
                    raise ImageError("damaged body (cycle)")
                stack.append(t)
    return memo.get(root, 0)


def isomorphic(nodes: dict, root: int, g: graph_mod.Graph) -> bool:
    """True if the decoded image graph is the same automaton as g (node for node)."""
    if root < 0:
        return g.words == 0
    m: dict[int, int] = {}
    stack = [(root, g.root)]
    while stack:
        a, nid = stack.pop()
        if a in m:
            if m[a] != nid:
                return False
            continue
        m[a] = nid
        arcs = nodes[a]
        ref = g.nodes[nid]
        if len(arcs) * 3 != len(ref):
            return False
        for k, (t, final, tgt) in enumerate(arcs):
            lab, fin, child = ref[3 * k], ref[3 * k + 1], ref[3 * k + 2]
            if t != lab or bool(fin) != final:
                return False
            if (tgt < 0) != (child == 0):
                return False
            if tgt >= 0:
                stack.append((tgt, child))
    return len(set(m.values())) == len(m)


def header_mismatches(img: Image, words: list[str], profile: Profile) -> list[str]:
    """Every header field that the list and its profile determine, compared: a header
    edited with both CRCs recomputed fails here."""
    out = []

    def field(name, image_value, list_value):
        if image_value != list_value:
            out.append(f"header field {name}: image says {image_value!r}, the list gives "
                       f"{list_value!r}")

    lengths = [len(w) for w in words]
    field("language", img.language, profile.language)
    field("tiles", img.tile_strings, list(profile.tiles))
    field("lower-case tiles", img.tile_lower, [t.lower() for t in profile.tiles])
    field("blank-only tiles", [t for t, b in zip(img.tile_strings, img.blank_only) if b],
          [t for t in profile.tiles if t in profile.blank_only])
    field("words", img.words, len(words))
    field("shortest", img.min_len, min(lengths) if words else 0)
    field("longest", img.max_len, min(max(lengths), 255) if words else 0)
    if img.sha256 != source_sha256(words, profile.tiles):
        out.append("header field sha256: differs from the SHA-256 of the normalised list")
    return out


@dataclass
class VerifyReport:
    ok: bool
    words: int
    accepted_sampled: int
    nonwords_checked: int
    mismatches: list[str]
    method: str
    sha_match: bool

    def as_dict(self) -> dict:
        return self.__dict__.copy()


def one_tile_edits(word: tuple, ntiles: int, rng: random.Random, k: int) -> list[tuple]:
    out = []
    n = len(word)
    for _ in range(k):
        op = rng.randrange(3)
        if op == 0 and n:  # substitute
            i = rng.randrange(n)
            out.append(word[:i] + (rng.randrange(ntiles),) + word[i + 1:])
        elif op == 1:      # insert
            i = rng.randrange(n + 1)
            out.append(word[:i] + (rng.randrange(ntiles),) + word[i:])
        elif n > 1:        # delete
            i = rng.randrange(n)
            out.append(word[:i] + word[i + 1:])
    return out


def _codes(tiles) -> str:
    return "".join(chr(CODE_BASE + t) for t in tiles)


def verify(img: Image, words: list[str], profile: Profile, samples: int = 20_000,
           edits_per_word: int = 10, seed: int = 1, full_lookup: bool = False,
           progress=None) -> VerifyReport:
    """Check the image against the normalised word list: every header field the list
    determines, the stored counts, the automaton node for node, and lookups."""
    mism: list[str] = header_mismatches(img, words, profile)
    disp = profile.display
    sha_ok = img.sha256 == source_sha256(words, profile.tiles)
    if img.tile_strings != list(profile.tiles):
        return VerifyReport(False, len(words), 0, 0, mism, "tiles", sha_ok)
    # 1. the whole language: decode the image graph and compare it with the list
    if progress:
        progress("verify: decoding the image")
    arcs, nodes_n, jumps = stored_counts(img)
    for name, have, want in (("arcs", img.arcs, arcs), ("nodes", img.nodes, nodes_n),
                             ("jumps", img.jumps, jumps)):
        if have != want:
            mism.append(f"header field {name}: image says {have}, the body holds {want}")
    mism += prefix_mismatches(img)
    nodes, root = decode_graph(img)
    method = "isomorphic to the list's minimal automaton, word count equal"
    if progress:
        progress("verify: comparing automata")
    g = graph_mod.build(words)
    same = isomorphic(nodes, root, g)
    n_acc = count_words(nodes, root) if root >= 0 else 0
    if n_acc != len(words):
        mism.append(f"image accepts {n_acc} words, the list has {len(words)}")
    if not same or full_lookup:
        method = "every word looked up"
        for w in words:
            if not img.contains_tiles([ord(c) - CODE_BASE for c in w]):
                mism.append(f"word rejected: {disp(w)}")
                if len(mism) > 50:
                    break
    # 2. sampled lookups through the reader, and one-tile edits against a Python set
    rng = random.Random(seed)
    wordset = set(words)
    sample = words if len(words) <= samples else rng.sample(words, samples)
    acc = 0
    nonwords = 0
    nt = len(profile.tiles)
    for w in sample:
        t = tuple(ord(c) - CODE_BASE for c in w)
        if img.contains_tiles(t):
            acc += 1
        else:
            mism.append(f"word rejected: {disp(w)}")
        for e in one_tile_edits(t, nt, rng, edits_per_word):
            s = _codes(e)
            expect = s in wordset
            if not expect:
                nonwords += 1
            if img.contains_tiles(e) != expect:
                mism.append(f"{'rejected' if expect else 'accepted'}: {disp(s)}")
        if len(mism) > 50:
            break
    return VerifyReport(not mism, len(words), acc, nonwords, mism[:50], method, sha_ok)


def prefix_mismatches(img: Image) -> list[str]:
    """The two-tile table against the graph read from the root."""
    if not img.prefix_depth or img.root == NO_ROOT:
        return []
    T = img.ntiles
    want: dict[tuple[int, int], tuple[bool, int]] = {}
    for t1, _, c1 in img.arcs_at(img.root):
        if c1 >= 0:
            for t2, f2, c2 in img.arcs_at(c1):
                want[(t1, t2)] = (f2, c2)
    out = []
    for t1 in range(T):
        for t2 in range(T):
            if img.prefix(t1, t2) != want.get((t1, t2)):
                out.append(f"two-tile table entry {t1},{t2} disagrees with the graph")
    return out[:10]
