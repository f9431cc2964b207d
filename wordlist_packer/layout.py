"""Where each node of the automaton goes in the image body (docs/wordlist-format.md,
section 4), before any bit is written.

1. *Shared runs.* A node whose arcs include every arc of a smaller node keeps only its
   own arcs and continues in that node (a JUMP). Polish inflection makes many nodes
   differ by a few endings, so this removes about a quarter of the Polish arcs.
2. *Shared nodes* (two or more references) are grouped by the tile of the arcs that
   reach them most often (the *home* tile; jumps form one more group) and ordered by how
   often they are reached from it: an arc with tile `t` into group `t` then stores its
   target as a small offset from the group's start, so the pointer is coded by the
   target's popularity among the arcs of that tile.
3. *Tree nodes* (one reference) follow their parent depth first, the largest subtree
   first (the one most words run through: a long word's path stays on few pages); the
   target of the parent's last arc goes right after it (NEXT, no pointer) when it is that
   largest subtree, the others are reached by forward offsets (REL).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from bisect import bisect_right
from itertools import chain
from operator import itemgetter

from .graph import Graph


class Layout:
    """nodes: id -> own arcs (flat (tile, final, target) tuple, tiles ascending);
    jump: id -> node it continues in (0: none); order: node ids in body order;
    shared: ids reached by pointers into groups (aligned); group: id -> group of a shared
    node; first_kid: id -> the tree node placed right after it (-1: none)."""

    def __init__(self, g: Graph, ntiles: int) -> None:
        self.ntiles = ntiles
        self.root = g.root
        n = len(g.nodes)
        self.jump = shared_runs(g.nodes)
        own: list[tuple] = list(g.nodes)
        for v in range(1, n):
            a = self.jump[v]
            if a:
                sub = g.nodes[a]
                keep = set(sub[j:j + 3] for j in range(0, len(sub), 3))
                x = g.nodes[v]
                own[v] = tuple(y for j in range(0, len(x), 3) if x[j:j + 3] not in keep
                               for y in x[j:j + 3])
        self.nodes = own
        self._place(n)

    def _place(self, n: int) -> None:
        own, jump, root, T = self.nodes, self.jump, self.root, self.ntiles
        refs = [0] * n
        by_tile: list[dict] = [None] * n  # type: ignore[list-item]
        for v in range(1, n):
            x = own[v]
            for j in range(0, len(x), 3):
                c = x[j + 2]
                if c:
                    refs[c] += 1
                    d = by_tile[c]
                    if d is None:
                        by_tile[c] = {x[j]: 1}
                    else:
                        d[x[j]] = d.get(x[j], 0) + 1
            a = jump[v]
            if a:
                refs[a] += 1
                d = by_tile[a]
                if d is None:
                    by_tile[a] = {T: 1}
                else:
                    d[T] = d.get(T, 0) + 1
        self.refs = refs
        shared = [v for v in range(1, n) if refs[v] >= 2 or (v == root and refs[v])]
        group = {}
        members = defaultdict(list)
        for v in shared:
            d = by_tile[v]
            best = max(d.items(), key=lambda kv: (kv[1], -kv[0]))
            group[v] = best[0]
            members[best[0]].append((-best[1], v))
        self.group = group
        self.shared = set(shared)
        # tree kids and the sizes (in arcs) of their regions
        tree = bytearray(n)
        for v in range(1, n):
            if refs[v] == 1 and v not in group:
                tree[v] = 1
        kids: list = [()] * n
        first_kid = [-1] * n
        for v in range(1, n):
            x = own[v]
            k = [x[j] for j in range(2, len(x), 3) if tree[x[j]]]
            if jump[v] and tree[jump[v]]:
                k.append(jump[v])
            if k:
                kids[v] = k
                if tree[x[-1]]:
                    first_kid[v] = x[-1]
        size = [0] * n
        stack = [v for v in range(1, n) if not tree[v]]
        done = bytearray(n)
        while stack:
            v = stack[-1]
            if done[v]:
                stack.pop()
                continue
            pending = [c for c in kids[v] if not done[c]]
            if pending:
                stack.extend(pending)
                continue
            s = len(own[v]) // 3 + (1 if jump[v] else 0)
            for c in kids[v]:
                s += size[c]
            size[v] = s
            done[v] = 1
            stack.pop()
        order: list[int] = []

        def region(r: int) -> None:
            st = [r]
            while st:
                v = st.pop()
                order.append(v)
                k = kids[v]
                if not k:
                    continue
                # largest subtree first: the paths most words take stay together
                rest = sorted(k, key=lambda c: (-size[c], c))
                fk = first_kid[v]
                if fk >= 0:
                    if size[fk] == size[rest[0]]:
                        rest.remove(fk)
                        rest.insert(0, fk)
                    else:
                        first_kid[v] = -1       # the last arc points to it (REL)
                st.extend(reversed(rest))

        self.group_order = []
        for gidx in sorted(members):
            lst = sorted(members[gidx])
            self.group_order.append((gidx, lst[0][1]))
            for _, v in lst:
                region(v)
        if root not in group and root:
            region(root)
        self.order = order
        self.first_kid = first_kid
        self.tree = tree


def shared_runs(nodes: list[tuple]) -> list[int]:
    """For each node, the largest smaller node (at least 2 arcs) whose arcs are all among
    its own (0 if none; of equal sizes the first found). Candidates are indexed by their
    rarest arc, so each node is compared only with nodes that could fit, and tried
    largest first."""
    n = len(nodes)
    ids: dict[tuple, int] = {}
    arcs: list = [()] * n
    setdefault = ids.setdefault
    for v in range(1, n):
        x = nodes[v]
        if len(x) >= 6:
            arcs[v] = [setdefault(k, len(ids)) for k in zip(x[0::3], x[1::3], x[2::3])]
    occ = [0] * len(ids)
    for i in chain.from_iterable(arcs):
        occ[i] += 1
    by_key: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for v in range(1, n):
        lst = arcs[v]
        if lst:
            count, rarest = min(zip(map(occ.__getitem__, lst), lst))
            if count >= 2:
                by_key[rarest].append((-len(lst), v))
    for cands in by_key.values():
        cands.sort(key=itemgetter(0))   # largest first; stable: of a size, the first found
    jump = [0] * n
    for b in range(1, n):
        lst = arcs[b]
        nb = len(lst)
        if nb < 3:
            continue
        best = -1                       # minus the size of the best node found
        found = 0
        own = None
        for i in lst:
            cands = by_key.get(i)
            if not cands:
                continue
            # skip the candidates of b's size or more
            for k in range(bisect_right(cands, (-nb, n)), len(cands)):
                size, a = cands[k]
                if size >= best:
                    break
                if own is None:
                    own = set(lst)
                if own.issuperset(arcs[a]):
                    best = size
                    found = a
                    break
        jump[b] = found
    return jump
