"""The minimal acyclic automaton over tiles, built incrementally from sorted input
(Daciuk, Mihov, Watson and Watson, 2000, "Incremental construction of minimal acyclic
finite-state automata", algorithm for sorted data).

Finality is kept on arcs: an arc is *final* when the word read so far, including the
arc's tile, is in the language. A node is then fully described by its arc list, and
equivalent nodes have equal arc lists. The one node with no arcs is the *sink*.

A node is stored as a flat tuple ``(label0, final0, target0, label1, final1, target1, ...)``
with labels ascending; ``target`` is a node id. Node 0 is the sink.
"""

from __future__ import annotations

from typing import Callable, Iterable


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
        for i, ch in enumerate(codes):
            lab = ord(ch)
            for j in range(0, len(node), 3):
                if node[j] == lab:
                    final = node[j + 1]
                    nxt = node[j + 2]
                    break
            else:
                return False
            node = self.nodes[nxt]
        return bool(final)

    def iter_words(self) -> Iterable[str]:
        nodes = self.nodes
        stack = [(self.root, "")]
        out = []
        while stack:
            nid, prefix = stack.pop()
            node = nodes[nid]
            for j in range(len(node) - 3, -3, -3):
                w = prefix + chr(node[j])
                stack.append((node[j + 2], w))
                if node[j + 1]:
                    out.append(w)
        out.sort()
        return out


def build(words: Iterable[str], progress: Callable[[int], None] | None = None,
          every: int = 200_000) -> Graph:
    """Build from words given in ascending order (each a str of chr(tile index));
    duplicates are ignored."""
    g = Graph()
    register: dict[tuple, int] = {(): 0}
    nodes = g.nodes
    # path[d]: flat arc list (label, final, target) of the unfinished node at depth d;
    # its last arc leads to path[d + 1] (target filled in when that node is frozen).
    path: list[list] = [[]]
    prev = ""
    count = 0
    min_len = 1 << 30
    max_len = 0
    reg_get = register.get

    def freeze(down_to: int) -> None:
        # Freeze nodes deeper than down_to, innermost first.
        for d in range(len(path) - 1, down_to, -1):
            arcs = path.pop()
            key = tuple(arcs)
            nid = reg_get(key)
            if nid is None:
                nid = len(nodes)
                register[key] = nid
                nodes.append(key)
            path[d - 1][-1] = nid

    for w in words:
        if w <= prev:
            if w == prev:
                continue
            raise OrderError(f"input not sorted at word {count + 1}")
        n = len(w)
        if n == 0:
            continue
        # common prefix length with the previous word
        p = 0
        m = min(n, len(prev))
        while p < m and w[p] == prev[p]:
            p += 1
        freeze(p)
        if p == n:  # cannot happen for strictly ascending input (w > prev, w not a prefix)
            raise OrderError("input not sorted")
        for d in range(p, n):
            path[d].extend((ord(w[d]), 0, None))
            path.append([])
        path[n - 1][-2] = 1
        # Note: a word that is a prefix of the previous one cannot follow it in order.
        prev = w
        count += 1
        if n < min_len:
            min_len = n
        if n > max_len:
            max_len = n
        if progress is not None and count % every == 0:
            progress(count)
    freeze(0)
    root_key = tuple(path[0])
    rid = reg_get(root_key)
    if rid is None:
        rid = len(nodes)
        register[root_key] = rid
        nodes.append(root_key)
    g.root = rid
    g.words = count
    g.min_len = min_len if count else 0
    g.max_len = max_len
    return g
