"""Triangle meshes from OpenSCAD's STL export, and the checks a printable part must pass.

Standard library only: used by hardware/enclosure/render.py and by the enclosure tests.
"""

import math
import os
import re
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
SCAD = os.path.join(HERE, "tileclock.scad")
BODY_PARTS = ("left", "centre", "right")
PANEL_PARTS = ("panel_left", "panel_right")
BOTTOM_PARTS = ("bottom_left", "bottom_centre", "bottom_right")
PARTS = BODY_PARTS + PANEL_PARTS + BOTTOM_PARTS
BED = (220.0, 220.0, 250.0)     # printer build volume, x y z
# How each part lies on the bed (tileclock.scad, top): the direction that points up.
PRINT_UP = {"left": (1.0, 0.0, 0.0),            # standing on its end wall
            "centre": (1.0, 0.0, 0.0),          # standing on its left cut face
            "right": (-1.0, 0.0, 0.0),          # standing on its end wall
            # face down: the display face's inward normal up
            "panel_left": (math.sqrt(0.5), 0.0, -math.sqrt(0.5)),
            "panel_right": (-math.sqrt(0.5), 0.0, -math.sqrt(0.5)),
            "bottom_left": (0.0, 0.0, 1.0), "bottom_centre": (0.0, 0.0, 1.0),
            "bottom_right": (0.0, 0.0, 1.0)}    # flat


def scad_params(path=SCAD):
    """The numeric top-level assignments of the model (`name = 12.5;`)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return dict((m.group(1), float(m.group(2)))
                for m in re.finditer(r"^([a-z_]+) = (-?[\d.]+);", text, re.M))


def openscad():
    return shutil.which("openscad")


def render_stl(part, out_path, scad=SCAD, timeout=600):
    """Render one part with CGAL to an ASCII STL; returns OpenSCAD's log."""
    r = subprocess.run([openscad(), "--render", "-o", out_path, "-D", 'part="%s"' % part, scad],
                       capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0 or "ERROR" in r.stderr or "WARNING" in r.stderr:
        raise RuntimeError("openscad failed on %s:\n%s" % (part, r.stderr))
    return r.stderr


def load_stl(path):
    """List of triangles ((x, y, z), (x, y, z), (x, y, z)) of an ASCII STL."""
    tris = []
    cur = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            t = line.split()
            if t and t[0] == "vertex":
                cur.append((float(t[1]), float(t[2]), float(t[3])))
                if len(cur) == 3:
                    tris.append(tuple(cur))
                    cur = []
    return tris


def _key(v):
    return (round(v[0], 4), round(v[1], 4), round(v[2], 4))


def edge_problems(tris):
    """Edges not shared by exactly two faces in opposite directions (open or non-manifold)."""
    directed = {}
    for t in tris:
        k = [_key(v) for v in t]
        for a, b in ((k[0], k[1]), (k[1], k[2]), (k[2], k[0])):
            directed[(a, b)] = directed.get((a, b), 0) + 1
    bad = []
    for (a, b), n in directed.items():
        if n != 1 or directed.get((b, a), 0) != 1:
            bad.append((a, b, n, directed.get((b, a), 0)))
    return bad


def components(tris):
    """Number of separate solids (groups of faces that share vertices)."""
    parent = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for t in tris:
        k = [_key(v) for v in t]
        for v in k[1:]:
            parent[find(v)] = find(k[0])
    return len(set(find(_key(t[0])) for t in tris))


def volume(tris):
    """Enclosed volume in mm^3 (positive for outward-facing triangles)."""
    v = 0.0
    for a, b, c in tris:
        v += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
              + a[2] * (b[0] * c[1] - b[1] * c[0]))
    return v / 6.0


def bounds(tris):
    lo = [min(v[i] for t in tris for v in t) for i in range(3)]
    hi = [max(v[i] for t in tris for v in t) for i in range(3)]
    return lo, hi


def fits_bed(tris, bed=BED, up=None):
    """True if the part fits the build volume: lying on one of its bounding faces, or, with
    `up` (any direction), printed with `up` up (its extent in print_frame(up))."""
    lo, hi = bounds(tris)
    if up is not None:
        e1, e2, upv = print_frame(up)
        ext = []
        for axis in (e1, e2, upv):
            d = [_dot(v, axis) for t in tris for v in t]
            ext.append(max(d) - min(d))
        flat = sorted(ext[:2])
        return ext[2] <= bed[2] and flat[0] <= min(bed[:2]) and flat[1] <= max(bed[:2])
    size = sorted(hi[i] - lo[i] for i in range(3))
    return size[0] <= bed[2] and size[1] <= min(bed[:2]) and size[2] <= max(bed[:2])


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def segment_hits(tris, p, q):
    """Parameters t in [0, 1] where the segment p -> q crosses a triangle (Moller-Trumbore)."""
    d = _sub(q, p)
    lo = [min(p[i], q[i]) for i in range(3)]
    hi = [max(p[i], q[i]) for i in range(3)]
    hits = []
    for a, b, c in tris:
        if (max(a[0], b[0], c[0]) < lo[0] or min(a[0], b[0], c[0]) > hi[0]
                or max(a[1], b[1], c[1]) < lo[1] or min(a[1], b[1], c[1]) > hi[1]
                or max(a[2], b[2], c[2]) < lo[2] or min(a[2], b[2], c[2]) > hi[2]):
            continue
        e1 = _sub(b, a)
        e2 = _sub(c, a)
        h = _cross(d, e2)
        det = _dot(e1, h)
        if abs(det) < 1e-12:
            continue
        s = _sub(p, a)
        u = _dot(s, h) / det
        if u < 0 or u > 1:
            continue
        qv = _cross(s, e1)
        v = _dot(d, qv) / det
        if v < 0 or u + v > 1:
            continue
        t = _dot(e2, qv) / det
        if 0 <= t <= 1:
            hits.append(t)
    return sorted(hits)


def overlaps(a, b, limit=5):
    """Where two closed meshes meet: an edge of one that crosses a face of the other, or a
    vertex of one inside the other (at most `limit` such places). [] if the solids are
    apart (parts that touch face to face count as meeting)."""
    found = []
    for one, other in ((a, b), (b, a)):
        lo, hi = bounds(other)
        for t in one:
            for p, q in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])):
                if any(max(p[i], q[i]) < lo[i] or min(p[i], q[i]) > hi[i] for i in range(3)):
                    continue
                if segment_hits(other, p, q) or inside(other, p):
                    found.append((p, q))
                    if len(found) >= limit:
                        return found
    return found


def inside(tris, point, direction=(0.5773, 0.5774, 0.5775), reach=2000.0):
    """True if the point is inside the closed mesh (odd number of crossings of a long ray)."""
    q = tuple(point[i] + direction[i] * reach for i in range(3))
    return len(segment_hits(tris, point, q)) % 2 == 1


# ------------------------------------------------------------------ geometry of the model

def display_face_frame(p, side):
    """Centre, outward normal and the two in-plane axes (along the slope, across) of a
    player's display face; side -1 left, +1 right."""
    wedge_top = p["centre_length"] / 2
    wedge_foot = wedge_top + p["wedge_run"]
    a = math.atan2(p["ridge_height"] - p["deck_height"], p["wedge_run"])
    centre = (side * (wedge_top + wedge_foot) / 2, 0.0, (p["deck_height"] + p["ridge_height"]) / 2)
    normal = (side * math.sin(a), 0.0, math.cos(a))
    along = (side * math.cos(a), 0.0, -math.sin(a))
    return centre, normal, along, (0.0, 1.0, 0.0)


def lectern_frame(p, offset_x):
    """Centre, outward normal and in-plane axes (across = x, along the slope) of a spot on
    the referee's lectern."""
    top_y = -p["width"] / 2 + p["lectern_run"]
    a = math.atan2(p["ridge_height"] - p["deck_height"], p["lectern_run"])
    centre = (offset_x, (-p["width"] / 2 + top_y) / 2, (p["deck_height"] + p["ridge_height"]) / 2)
    normal = (0.0, -math.sin(a), math.cos(a))
    along = (0.0, math.cos(a), math.sin(a))
    return centre, normal, (1.0, 0.0, 0.0), along


def through(centre, normal, offset=(0.0, 0.0, 0.0), depth=None, p=None):
    """A segment from 10 mm outside a surface to `depth` (default two walls) inside it."""
    depth = depth if depth is not None else 2 * (p["wall"] if p else 2.5)
    start = tuple(centre[i] + offset[i] + normal[i] * 10 for i in range(3))
    end = tuple(centre[i] + offset[i] - normal[i] * depth for i in range(3))
    return start, end


# ------------------------------------------------------------------ printing without supports

def _norm(v):
    n = math.sqrt(_dot(v, v))
    return (v[0] / n, v[1] / n, v[2] / n) if n else (0.0, 0.0, 0.0)


def print_frame(up):
    """Orthonormal (e1, e2, up) for a part printed with `up` pointing up from the bed."""
    up = _norm(up)
    helper = (0.0, 0.0, 1.0) if abs(up[2]) < 0.9 else (1.0, 0.0, 0.0)
    e1 = _norm(_cross(helper, up))
    e2 = _cross(up, e1)
    return e1, e2, up


def _seg_dist2d(p, a, b):
    ax, ay = b[0] - a[0], b[1] - a[1]
    L = ax * ax + ay * ay
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / L))
    dx, dy = a[0] + t * ax - p[0], a[1] + t * ay - p[1]
    return math.hypot(dx, dy)


def _ray2d(p, d, a, b):
    """Distance along the unit direction d from p to the segment a-b, or None."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    den = d[0] * ey - d[1] * ex
    if abs(den) < 1e-12:
        return None
    wx, wy = a[0] - p[0], a[1] - p[1]
    t = (wx * ey - wy * ex) / den
    u = (wx * d[1] - wy * d[0]) / den
    if t >= 0 and -1e-9 <= u <= 1 + 1e-9:
        return t
    return None


def _samples(t2, spacing):
    """Points on a 2D triangle: its corners, and a grid of about `spacing` mm inside it."""
    a, b, c = t2
    span = max(math.hypot(b[0] - a[0], b[1] - a[1]), math.hypot(c[0] - a[0], c[1] - a[1]),
               math.hypot(c[0] - b[0], c[1] - b[1]))
    n = max(1, min(40, int(span / spacing) + 1))
    pts = []
    for i in range(n + 1):
        for j in range(n + 1 - i):
            u, v = i / n, j / n
            w = 1.0 - u - v
            # pulled a hair inside, so that a corner on a support edge is not at distance 0 by luck
            u, v, w = (u * 0.98 + 0.02 / 3, v * 0.98 + 0.02 / 3, w * 0.98 + 0.02 / 3)
            pts.append((u * a[0] + v * b[0] + w * c[0], u * a[1] + v * b[1] + w * c[1]))
    return pts


def overhangs(tris, up, limit=45.0, ledge=1.0, bridge=10.0, bed_tol=0.05, spacing=2.0):
    """The unsupported overhangs of a part printed with `up` pointing up from the bed.

    A facet overhangs if it faces down steeper than `limit` degrees from the vertical (half a
    degree of rounding allowed) and
    does not lie on the bed. Connected overhanging facets form a region; an edge of a region
    is a support if the face across it runs down from it (a wall below). A point of a region
    is supported if a support edge is within `ledge` mm (a step of a staircase, the rim of a
    small hole), or if it lies on a bridge: two support edges on opposite sides at most
    `bridge` mm apart. Returns [(area mm2, height mm, (lo, hi) of the region's unsupported
    points in the print frame's horizontal coordinates)] of the regions that are not."""
    e1, e2, upv = print_frame(up)
    # a facet counts from half a degree beyond the limit: a face drawn at exactly 45 degrees
    # comes out of CGAL a hair steeper or flatter
    sin_limit = math.sin(math.radians(limit + 0.5))
    keys = [[_key(v) for v in t] for t in tris]
    h = [[_dot(v, upv) for v in t] for t in tris]
    zmin = min(min(x) for x in h)
    steep = set()
    normals = []
    for i, t in enumerate(tris):
        n = _norm(_cross(_sub(t[1], t[0]), _sub(t[2], t[0])))
        normals.append(n)
        if _dot(n, upv) < -sin_limit and max(h[i]) > zmin + bed_tol:
            steep.add(i)
    edge_faces = {}
    for i, k in enumerate(keys):
        for a, b in ((k[0], k[1]), (k[1], k[2]), (k[2], k[0])):
            edge_faces.setdefault(frozenset((a, b)), []).append(i)
    # regions
    seen = set()
    out = []
    vert = {}
    for i, t in enumerate(tris):
        for v, k in zip(t, keys[i]):
            vert[k] = (_dot(v, e1), _dot(v, e2), _dot(v, upv))
    for start in sorted(steep):
        if start in seen:
            continue
        region = []
        stack = [start]
        seen.add(start)
        while stack:
            f = stack.pop()
            region.append(f)
            k = keys[f]
            for a, b in ((k[0], k[1]), (k[1], k[2]), (k[2], k[0])):
                for g in edge_faces[frozenset((a, b))]:
                    if g != f and g in steep and g not in seen:
                        seen.add(g)
                        stack.append(g)
        members = set(region)
        supports = []
        for f in region:
            k = keys[f]
            for a, b in ((k[0], k[1]), (k[1], k[2]), (k[2], k[0])):
                others = [g for g in edge_faces[frozenset((a, b))] if g != f]
                if any(g in members for g in others):
                    continue
                top = max(vert[a][2], vert[b][2])
                for g in others:
                    third = [v for v in keys[g] if v not in (a, b)]
                    if not third:
                        continue
                    below = vert[third[0]][2] < top - 1e-6
                    # or the region comes down onto a floor (a face looking up) at this edge
                    floor = abs(vert[third[0]][2] - top) < 1e-6 and _dot(normals[g], upv) > 0.7
                    if below or floor:
                        supports.append((vert[a][:2], vert[b][:2]))
                        break
        area = 0.0
        lo = [1e18, 1e18]
        hi = [-1e18, -1e18]
        height = 0.0
        dirs = [(math.cos(math.pi * j / 24), math.sin(math.pi * j / 24)) for j in range(24)]
        cell = 5.0
        grid = {}
        for s_ in supports:
            (ax, ay), (bx, by) = s_
            for gx in range(int(math.floor(min(ax, bx) / cell)), int(math.floor(max(ax, bx) / cell)) + 1):
                for gy in range(int(math.floor(min(ay, by) / cell)), int(math.floor(max(ay, by) / cell)) + 1):
                    grid.setdefault((gx, gy), []).append(s_)
        reach = int(math.ceil(bridge / cell))
        # bridges run across their supports: try the directions square to them too
        square = set()
        for (ax, ay), (bx, by) in supports:
            if (ax, ay) != (bx, by):
                square.add(round(math.atan2(bx - ax, -(by - ay)) % math.pi, 3))
        region_dirs = dirs + [(math.cos(t), math.sin(t)) for t in sorted(square)[:48]]
        for f in region:
            t2 = [vert[k][:2] for k in keys[f]]
            pts = _samples(t2, spacing)
            bad = 0
            for p in pts:
                gx, gy = int(math.floor(p[0] / cell)), int(math.floor(p[1] / cell))
                near = set()
                for i in range(gx - reach, gx + reach + 1):
                    for j in range(gy - reach, gy + reach + 1):
                        near.update(grid.get((i, j), ()))
                if any(_seg_dist2d(p, a, b) <= ledge for a, b in near):
                    continue
                ok = False
                for d in region_dirs:
                    fw = [x for x in (_ray2d(p, d, a, b) for a, b in near) if x is not None]
                    if not fw:
                        continue
                    bw = [x for x in (_ray2d(p, (-d[0], -d[1]), a, b) for a, b in near) if x is not None]
                    if bw and min(fw) + min(bw) <= bridge:
                        ok = True
                        break
                if not ok:
                    bad += 1
                    lo = [min(lo[0], p[0]), min(lo[1], p[1])]
                    hi = [max(hi[0], p[0]), max(hi[1], p[1])]
            if bad:
                a3 = [tris[f][0], tris[f][1], tris[f][2]]
                tri_area = 0.5 * math.sqrt(_dot(*(2 * [_cross(_sub(a3[1], a3[0]), _sub(a3[2], a3[0]))])))
                area += tri_area * bad / len(pts)
                height = max(height, max(h[f]) - zmin)
        if area > 0:
            out.append((area, height, (tuple(lo), tuple(hi))))
    return out
