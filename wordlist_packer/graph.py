"""The minimal acyclic automaton over tiles, built incrementally from sorted input
(Daciuk, Mihov, Watson and Watson, 2000, "Incremental construction of minimal acyclic
finite-state automata", algorithm for sorted data).

Finality is kept on arcs: an arc is *final* when the word read so far, including the
arc's tile, is in the language. A node is then fully described by its arc list, and
equivalent nodes have equal arc lists. The one node with no arcs is the *sink*.

A node is stored as a flat tuple ``(label0, final0, target0, label1, final1, target1, ...)``
with labels ascending; ``target`` is a node id. Node 0 is the sink.

Words are strings of code characters: tile index ``i`` is ``chr(CODE_BASE + i)`` (see
``normalise.CODE_BASE``; a code never collides with the line feed, so lists of words can
be joined and split).

Speed: most nodes the construction freezes are the tail of one word that no later word
extends (a *pure* node: one arc, final only on the last arc of the chain). Such a node is
known by its suffix string alone, so the tail of a word stays a string until a later word
needs its nodes, and is then registered with one dictionary lookup instead of one tuple per
tile. Every node has exactly one register key: its suffix string when it is pure, its arc
tuple otherwise, so both ways find the same node.
"""

from __future__ import annotations

import re
from itertools import compress, islice
from operator import gt, lt, ne
from typing import Callable, Iterable, Iterator

CODE_BASE = 0x30


class OrderError(ValueError):
    pass


class Graph:
    def __init__(self) -> None:
        self.nodes: list[tuple] = [()]   # id -> arc tuple; 0 is the sink
        self.root = 0
        self.words = 0
        self.min_len = 0
        self.max_len = 0

    @property
    def arc_count(self) -> int:
        return sum(len(n) for n in self.nodes) // 3

    def __contains__(self, codes: str) -> bool:
        node = self.nodes[self.root]
        final = False
        if not codes:
            return False
        for ch in codes:
            lab = ord(ch) - CODE_BASE
            for j in range(0, len(node), 3):
                if node[j] == lab:
                    final = node[j + 1]
                    nxt = node[j + 2]
                    break
            else:
                return False
            node = self.nodes[nxt]
        return bool(final)

    def iter_words(self) -> list[str]:
        nodes = self.nodes
        stack = [(self.root, "")]
        out = []
        while stack:
            nid, prefix = stack.pop()
            node = nodes[nid]
            for j in range(len(node) - 3, -3, -3):
                w = prefix + chr(CODE_BASE + node[j])
                stack.append((node[j + 2], w))
                if node[j + 1]:
                    out.append(w)
        out.sort()
        return out


# For every line but the last, the longest start of it that the next line begins with
# (greedy, so the first try is the whole line; `.` stops at the line's end).
_SHARED_START = re.compile(r"^(.*).*\n(?=\1)", re.M)
BLOCK = 1 << 16


def _blocks(words: Iterable[str]) -> Iterator[tuple[list[str], list[int]]]:
    """The words in blocks, repeats left out, each word with the length of the prefix it
    shares with the word before it (0 for the first word). The lengths come from one
    regular expression per block, not from comparisons per word: the construction's
    costliest step. Raises OrderError at the first word that is not in order."""
    it = iter(words)
    last = ""
    done = 0
    while True:
        block = list(islice(it, BLOCK))
        if not block:
            return
        before = [last]
        before += block[:-1]
        if not all(map(lt, before, block)):    # one pass when in order without repeats
            if any(map(gt, before, block)):
                at = next(k for k, (b, w) in enumerate(zip(before, block)) if b > w)
                raise OrderError(f"input not sorted at word {done + at + 1}")
            block = list(compress(block, map(ne, block, before)))
        if block:
            shared = list(map(len, _SHARED_START.findall("\n".join([last] + block)))) \
                if last else [0] + list(map(len, _SHARED_START.findall("\n".join(block))))
            yield block, shared
            last = block[-1]
        done += len(before)


def build(words: Iterable[str], progress: Callable[[int], None] | None = None,
          every: int = 200_000) -> Graph:
    """Build from words given in ascending order (strings of code characters);
    duplicates are ignored."""
    g = Graph()
    nodes = g.nodes
    register: dict = {(): 0, "": 0}     # arc tuple or pure suffix string -> node id
    pure: dict[int, str] = {0: ""}       # id of a pure node -> its suffix string
    reg_get = register.get
    base = CODE_BASE

    def pure_node(s: str) -> int:
        # The node whose language is the one string s (non-empty).
        nid = reg_get(s)
        if nid is not None:
            return nid
        j = 1
        while True:                       # the longest registered suffix
            child = reg_get(s[j:])
            if child is not None:
                break
            j += 1
        for k in range(j - 1, -1, -1):
            key = s[k:]
            nid = len(nodes)
            nodes.append((ord(s[k]) - base, 1 if k == len(s) - 1 else 0, child))
            register[key] = nid
            pure[nid] = key
            child = nid
        return child

    def freeze_node(arcs: list) -> int:
        if len(arcs) == 3:
            t, f, c = arcs
            s = pure.get(c)
            if s is not None and (f == 1) == (c == 0):
                return pure_node(chr(base + t) + s)
        key = tuple(arcs)
        nid = reg_get(key)
        if nid is None:
            nid = len(nodes)
            register[key] = nid
            nodes.append(key)
        return nid

    # path[d]: flat arc list of the unfinished node at depth d; the last arc of path[d]
    # leads to path[d + 1], or, for the deepest one, to the pure tail `tail` (the rest of
    # the previous word after depth len(path)), target filled in when it is frozen.
    path: list[list] = [[]]
    tail = ""
    count = 0
    depth = 0                          # deepest real node: len(path) - 1
    pop = path.pop
    for block, shared in _blocks(words):
        for w, p in zip(block, shared):
            # p: length of the prefix w shares with the previous word (usually long)
            if p > depth:
                # w goes on inside the previous word's tail: its nodes there become real.
                last = len(tail) - 1
                for k in range(p - depth):   # tail[k] is the tile leaving depth depth + 1 + k
                    path.append([ord(tail[k]) - base, 1 if k == last else 0, None]
                                if k <= last else [])          # [] : the end of the word
                tail = tail[p - depth:]
                depth = p
            # freeze the tail ("" is the sink) and every node deeper than p; the tail is
            # almost always registered already (a subscript: no method call per word)
            try:
                child = register[tail]
            except KeyError:
                child = pure_node(tail)
            while depth > p:
                arcs = pop()
                arcs[-1] = child
                if len(arcs) == 3:
                    s = pure.get(child)
                    if s is not None and (arcs[1] == 1) == (child == 0):
                        child = pure_node(chr(base + arcs[0]) + s)
                        depth -= 1
                        continue
                key = tuple(arcs)
                child = reg_get(key)
                if child is None:
                    child = len(nodes)
                    register[key] = child
                    nodes.append(key)
                depth -= 1
            arcs = path[p]
            if arcs:
                arcs[-1] = child
            # w is longer than p: it is after the previous word and no prefix of it
            tail = w[p + 1:]
            arcs += (ord(w[p]) - base, 0 if tail else 1, None)
        count += len(block)
        if progress is not None:
            progress(count)
    child = pure_node(tail) if tail else 0
    for d in range(len(path) - 1, 0, -1):
        arcs = path.pop()
        arcs[-1] = child
        child = freeze_node(arcs)
    arcs = path[0]
    if arcs:
        arcs[-1] = child
    g.root = freeze_node(arcs) if arcs else freeze_node([])
    g.words = count
    if count:
        if isinstance(words, list):
            g.min_len = min(map(len, words)) or min(len(w) for w in words if w)
            g.max_len = max(map(len, words))
        else:
            g.min_len, g.max_len = _lengths(g)
    return g


def _lengths(g: Graph) -> tuple[int, int]:
    """Shortest and longest word, from the graph (input that was not a list)."""
    memo: dict[int, tuple[int, int]] = {0: (1 << 30, -(1 << 30))}
    stack = [g.root]
    nodes = g.nodes
    while stack:
        v = stack[-1]
        if v in memo:
            stack.pop()
            continue
        x = nodes[v]
        pending = [x[j] for j in range(2, len(x), 3) if x[j] not in memo]
        if pending:
            stack.extend(pending)
            continue
        lo, hi = 1 << 30, 0
        for j in range(0, len(x), 3):
            clo, chi = memo[x[j + 2]]
            if x[j + 1]:
                lo = 1
                hi = max(hi, 1)
            if x[j + 2]:
                lo = min(lo, clo + 1)
                hi = max(hi, chi + 1)
        memo[v] = (lo, hi)
        stack.pop()
    return memo[g.root]
