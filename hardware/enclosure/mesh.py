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
BOTTOM_PARTS = ("bottom_left", "bottom_centre", "bottom_right")
PARTS = BODY_PARTS + BOTTOM_PARTS
BED = (220.0, 220.0, 250.0)     # printer build volume, x y z


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


def fits_bed(tris, bed=BED):
    """True if the part, lying on one of its bounding faces, fits the build volume."""
    lo, hi = bounds(tris)
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
