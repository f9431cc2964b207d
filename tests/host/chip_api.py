"""The firmware's use of the chip's API, checked against what the port provides.

An allow-list: tests/host/data/esp32_port_api.json holds, per target ("wroom": the
ESP32_GENERIC configuration the WROOM image builds on; "s3": ESP32_GENERIC_S3), every
name of the `machine`, `esp32`, `esp`, `network` and `micropython` modules of
MicroPython v1.26.0's ESP32 port, the names of their classes and the arguments each
function, method and constructor accepts.  tests/host/gen_port_api.py writes it from the
port's C source (with the commit it read); this check only reads it.

What is checked, per target, in every firmware module:

- `import M` / `from M import N` of a chip module: M and N exist on the target;
- every attribute read on a chip module, class or object, and every
  `getattr(x, "constant")`: the name exists there (a name the port's table has but
  refuses at run time, like the hardware I2C's start(), is refused);
- every call of a chip function, method or class: positional count, keyword names, a
  constructor's id range (Timer), a buffer's byte limit (RTC.memory) when its length is
  known from the source;
- `getattr` on a chip object with a name the source does not spell out is refused: it
  cannot be checked.

A chip value is followed wherever the firmware carries it: through variables,
`self.x` attributes, containers and tuples, the arguments of firmware functions and
classes, and what they return.  The inference is flow-insensitive (a name holds every
value any assignment gives it) and runs to a fixed point over the whole firmware.

    problems_in(paths, root) -> ["file:line: [target] what (where in the port)", ...]
    problems_in_sources({"module": (display, text)}) -> same, for snippets
    uses_in(paths, root) -> {(display, line, target, "machine.Pin.irq"), ...}
    analyse(paths, root) -> (problems, uses), one run
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "esp32_port_api.json"

_API = []


def api() -> dict:
    if not _API:
        _API.append(json.loads(DATA.read_text()))
    return _API[0]


def targets() -> list[str]:
    return sorted(api()["targets"])


def port_text() -> str:
    a = api()
    return "micropython %s" % a["micropython"]["tag"]


# What some methods return: not in the C tables (a function returns an mp_obj_t).
# From the port's source at the tag the data was read from.
RETURNS = {
    # ports/esp32/esp32_partition.c esp32_partition_find: a list of Partition
    ("esp32.Partition", "find"): ("seq", "esp32.Partition"),
    # esp32_partition_get_next_update: a Partition
    ("esp32.Partition", "get_next_update"): ("obj", "esp32.Partition"),
    # ports/esp32/machine_pin.c machine_pin_irq: the pin's IRQ object (its type, named
    # nowhere in a module, is in the data as "machine.Pin.irq()")
    ("machine.Pin", "irq"): ("obj", "machine.Pin.irq()"),
}

EMPTY = frozenset()
MAX_ROUNDS = 25


def _u(*sets):
    out = set()
    for s in sets:
        out |= s
    return frozenset(out)


def _cap(values, depth):
    """Containers nested deeper than `depth` lose what they hold (a list appended to
    itself would otherwise grow without end)."""
    out = set()
    for v in values:
        if v[0] == "seq":
            out.add(("seq", _cap(v[1], depth - 1) if depth > 0 else EMPTY))
        elif v[0] == "tup":
            out.add(("tup", tuple(_cap(e, depth - 1) if depth > 0 else EMPTY for e in v[1])
                     if len(v[1]) <= 8 else ()))
        else:
            out.add(v)
    return frozenset(out)


def _defs(node):
    """The functions and classes a statement defines at its own level (also under if,
    try, with, for: not inside another function or class)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node]
    out = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.stmt, ast.ExceptHandler)):
            out += _defs(child)
    return out


class _Func:
    def __init__(self, qual, node, module, cls, scope_chain):
        self.qual = qual
        self.node = node
        self.module = module
        self.cls = cls                  # qualname of the class it is a method of, or None
        self.chain = scope_chain        # enclosing scope ids, innermost first
        self.locals = set()
        self.globals = set()


class Checker:
    def __init__(self, modules: dict, target: str):
        """modules: {module name: (display path, source text)}."""
        self.target = target
        self.t = api()["targets"][target]
        self.chip_modules = set(api()["modules"])
        self.trees = {}
        for name, (display, text) in modules.items():
            self.trees[name] = (display, ast.parse(text, display))
        self.env = {}
        self.changed = False
        self.report = False
        self.found = set()
        self.uses = set()
        self.funcs = {}       # qual -> _Func
        self.classes = {}     # qual -> (node, module, bases quals)
        self.scope_of = {}    # id(node) -> scope id
        self._index()

    # -- environment ------------------------------------------------------------------

    def join(self, key, values):
        if not values:
            return
        values = _cap(values, 3)
        old = self.env.get(key, EMPTY)
        new = old | values
        if new != old:
            self.env[key] = frozenset(new)
            self.changed = True

    def get(self, key):
        return self.env.get(key, EMPTY)

    # -- index of the firmware's functions and classes ---------------------------------

    def _index(self):
        for mod, (_display, tree) in self.trees.items():
            self._index_body(tree.body, mod, mod, None, [mod])

    def _index_body(self, body, mod, prefix, cls, chain):
        for node in body:
            for sub in _defs(node):
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    qual = prefix + "." + sub.name
                    f = _Func(qual, sub, mod, cls, chain)
                    self.funcs[qual] = f
                    self._locals(f)
                    self._index_body(sub.body, mod, qual, None, [qual] + chain)
                elif isinstance(sub, ast.ClassDef):
                    qual = prefix + "." + sub.name
                    self.classes[qual] = (sub, mod, [])
                    self._index_body(sub.body, mod, qual, qual, chain)

    def _locals(self, f: _Func):
        a = f.node.args
        for arg in a.posonlyargs + a.args + a.kwonlyargs:
            f.locals.add(arg.arg)
        if a.vararg:
            f.locals.add(a.vararg.arg)
        if a.kwarg:
            f.locals.add(a.kwarg.arg)

        def visit(node):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    f.locals.add(child.name)
                    continue
                if isinstance(child, ast.Lambda):
                    continue
                if isinstance(child, ast.Global):
                    f.globals.update(child.names)
                if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                    f.locals.add(child.id)
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    for alias in child.names:
                        f.locals.add((alias.asname or alias.name).split(".")[0])
                if isinstance(child, ast.ExceptHandler) and child.name:
                    f.locals.add(child.name)
                visit(child)
        visit(f.node)
        f.locals -= f.globals

    # -- names --------------------------------------------------------------------------

    def scope_key(self, ctx, name):
        """The environment key a name refers to in the scope `ctx`."""
        for scope in ctx["chain"]:
            f = self.funcs.get(scope)
            if f is None:
                return ("var", scope, name)          # the module
            if name in f.globals:
                return ("var", f.module, name)
            if name in f.locals:
                return ("var", scope, name)
        return ("var", ctx["module"], name)

    # -- the API ------------------------------------------------------------------------

    def say(self, node, ctx, text, where=None):
        if not self.report:
            return
        line = "%s:%d: [%s] %s" % (ctx["display"], getattr(node, "lineno", 0), self.target, text)
        if where:
            line += " (%s %s)" % (port_text(), where)
        self.found.add(line)

    def used(self, node, ctx, what):
        if self.report:
            self.uses.add((ctx["display"], getattr(node, "lineno", 0), self.target, what))

    def names_of(self, kind, path):
        if kind == "mod":
            return self.t["modules"][path]["names"]
        return self.t["classes"][path]["names"]

    def attribute(self, values, name, node, ctx):
        """The values of `x.name` for x in values; reports a name the port lacks."""
        out = set()
        for v in values:
            kind = v[0]
            if kind in ("mod", "cls", "obj"):
                path = v[1]
                names = self.names_of(kind, path)
                desc = names.get(name)
                if desc is None:
                    refused = {} if kind == "mod" else self.t["classes"][path].get("refused", {})
                    if name in refused:
                        self.say(node, ctx, "%s.%s: %s" % (path, name, refused[name]),
                                 self.t["classes"][path]["where"])
                    else:
                        where = (self.t["modules"][path]["where"] if kind == "mod"
                                 else self.t["classes"][path]["where"])
                        self.say(node, ctx, "%s has no %s on %s" % (
                            path if kind != "obj" or path.endswith(")") else path + "()", name,
                            self.t["board"]), where)
                    continue
                self.used(node, ctx, path + "." + name)
                if desc["kind"] == "class":
                    out.add(("cls", desc["class"]))
                elif desc["kind"] in ("method", "function", "staticmethod", "classmethod"):
                    out.add(("call", path, name))
            elif kind == "fwmod":
                sub = v[1] + "." + name
                if sub in self.trees:
                    out.add(("fwmod", sub))
                out |= self.get(("var", v[1], name))
            elif kind == "fwobj":
                out |= self.fw_member(v[1], name, bound=True)
            elif kind == "fwcls":
                out |= self.fw_member(v[1], name, bound=False)
        return frozenset(out)

    def fw_member(self, cls, name, bound):
        out = set()
        for c in self.mro(cls):
            out |= self.get(("attr", c, name))
            qual = c + "." + name
            if qual in self.funcs:
                out.add(("fwmeth", cls, qual) if bound else ("fwfn", qual))
                break
        return out

    def mro(self, cls):
        seen, todo = [], [cls]
        while todo:
            c = todo.pop(0)
            if c in seen or c not in self.classes:
                continue
            seen.append(c)
            todo += self.classes[c][2]
        return seen

    def check_call(self, sig, what, args, node, ctx, where):
        if not sig or sig.get("checked") is False:
            return
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords):
            return
        npos = len(node.args)
        if sig.get("min") is not None and npos < sig["min"]:
            self.say(node, ctx, "%s() takes at least %d positional arguments, given %d"
                     % (what, sig["min"], npos), where)
        if sig.get("max") is not None and npos > sig["max"]:
            self.say(node, ctx, "%s() takes at most %d positional arguments, given %d"
                     % (what, sig["max"], npos), where)
        if sig.get("kw") is not None:
            for k in node.keywords:
                if k.arg not in sig["kw"]:
                    self.say(node, ctx, "%s(%s=...): the port takes %s" % (
                        what, k.arg, ", ".join(sig["kw"]) if sig["kw"] else
                        "no keyword arguments"), where)
        rng = sig.get("arg0_range")
        if rng and args:
            for v in args[0]:
                if v[0] == "int" and ((rng[0] is not None and v[1] < rng[0]) or v[1] > rng[1]):
                    self.say(node, ctx, "%s(%d): the port takes %s to %d" % (
                        what, v[1], rng[0] if rng[0] is not None else "any", rng[1]), where)
        limit = sig.get("max_bytes")
        if limit is not None and args:
            for v in args[0]:
                if v[0] == "bytes" and v[1] > limit:
                    self.say(node, ctx, "%s() with %d bytes: the port keeps at most %d"
                             % (what, v[1], limit), where)

    # -- evaluation ---------------------------------------------------------------------

    def ev(self, node, ctx):
        if node is None:
            return EMPTY
        m = getattr(self, "ev_" + type(node).__name__, None)
        if m is not None:
            return m(node, ctx)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.ev(child, ctx)
            elif isinstance(child, ast.comprehension):
                self.comprehension(child, ctx)
            elif isinstance(child, ast.keyword):
                self.ev(child.value, ctx)
        return EMPTY

    def ev_Constant(self, node, ctx):
        v = node.value
        if isinstance(v, bool) or v is None:
            return EMPTY
        if isinstance(v, int):
            return frozenset({("int", v)})
        if isinstance(v, str):
            return frozenset({("str", v)})
        if isinstance(v, bytes):
            return frozenset({("bytes", len(v))})
        return EMPTY

    def ev_UnaryOp(self, node, ctx):
        vals = self.ev(node.operand, ctx)
        if isinstance(node.op, ast.USub):
            return frozenset(("int", -v[1]) for v in vals if v[0] == "int")
        return EMPTY

    def ev_BinOp(self, node, ctx):
        a, b = self.ev(node.left, ctx), self.ev(node.right, ctx)
        # arithmetic is folded for what the source spells out (b"x" * 3000, 2048 + 1),
        # not for values that flow in: a counter would never reach a fixed point
        if not (self.literal(node.left) and self.literal(node.right)):
            return EMPTY
        out = set()
        for x in a:
            for y in b:
                if isinstance(node.op, ast.Mult):
                    if x[0] == "bytes" and y[0] == "int":
                        out.add(("bytes", x[1] * y[1]))
                    elif x[0] == "int" and y[0] == "bytes":
                        out.add(("bytes", x[1] * y[1]))
                    elif x[0] == y[0] == "int":
                        out.add(("int", x[1] * y[1]))
                elif isinstance(node.op, ast.Add):
                    if x[0] == y[0] and x[0] in ("int", "bytes"):
                        out.add((x[0], x[1] + y[1]))
                elif isinstance(node.op, ast.Sub) and x[0] == y[0] == "int":
                    out.add(("int", x[1] - y[1]))
        return frozenset(out)

    def literal(self, node):
        if isinstance(node, ast.Constant):
            return True
        if isinstance(node, ast.UnaryOp):
            return self.literal(node.operand)
        if isinstance(node, ast.BinOp):
            return self.literal(node.left) and self.literal(node.right)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("bytes", "bytearray") and len(node.args) == 1:
            return self.literal(node.args[0])
        return False

    def ev_Name(self, node, ctx):
        return self.get(self.scope_key(ctx, node.id))

    def ev_Attribute(self, node, ctx):
        return self.attribute(self.ev(node.value, ctx), node.attr, node, ctx)

    def ev_Tuple(self, node, ctx):
        return frozenset({("tup", tuple(self.ev(e, ctx) for e in node.elts))})

    def ev_List(self, node, ctx):
        return frozenset({("seq", _u(*[self.ev(e, ctx) for e in node.elts]))})

    ev_Set = ev_List

    def ev_IfExp(self, node, ctx):
        self.ev(node.test, ctx)
        return self.ev(node.body, ctx) | self.ev(node.orelse, ctx)

    def ev_BoolOp(self, node, ctx):
        return _u(*[self.ev(v, ctx) for v in node.values])

    def ev_NamedExpr(self, node, ctx):
        v = self.ev(node.value, ctx)
        self.bind(node.target, v, ctx)
        return v

    def elements(self, values):
        out = set()
        for v in values:
            if v[0] == "seq":
                out |= v[1]
            elif v[0] == "tup":
                for e in v[1]:
                    out |= e
        return frozenset(out)

    def ev_Subscript(self, node, ctx):
        vals = self.ev(node.value, ctx)
        idx = self.ev(node.slice, ctx)
        if isinstance(node.slice, ast.Slice):
            return frozenset(v for v in vals if v[0] in ("seq", "tup"))
        out = set()
        for v in vals:
            if v[0] == "seq":
                out |= v[1]
            elif v[0] == "tup":
                ints = [i[1] for i in idx if i[0] == "int"]
                if ints and all(-len(v[1]) <= i < len(v[1]) for i in ints):
                    for i in ints:
                        out |= v[1][i]
                else:
                    for e in v[1]:
                        out |= e
        return frozenset(out)

    def comprehension(self, comp, ctx):
        self.bind(comp.target, self.elements(self.ev(comp.iter, ctx)), ctx)
        for cond in comp.ifs:
            self.ev(cond, ctx)

    def ev_ListComp(self, node, ctx):
        for comp in node.generators:
            self.comprehension(comp, ctx)
        return frozenset({("seq", self.ev(node.elt, ctx))})

    ev_GeneratorExp = ev_SetComp = ev_ListComp

    def ev_DictComp(self, node, ctx):
        for comp in node.generators:
            self.comprehension(comp, ctx)
        self.ev(node.key, ctx)
        self.ev(node.value, ctx)
        return EMPTY

    def ev_Lambda(self, node, ctx):
        self.ev(node.body, ctx)
        return EMPTY

    def ev_Call(self, node, ctx):
        func = node.func
        args = [self.ev(a.value if isinstance(a, ast.Starred) else a, ctx) for a in node.args]
        kwargs = {k.arg: self.ev(k.value, ctx) for k in node.keywords}
        if isinstance(func, ast.Name) and func.id in ("getattr", "hasattr") and \
                not self.get(self.scope_key(ctx, func.id)) and len(node.args) >= 2:
            target = args[0]
            name = node.args[1]
            chip = {v for v in target if v[0] in ("mod", "cls", "obj")}
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                if func.id == "hasattr":
                    return EMPTY
                if len(node.args) > 2 and chip:
                    # a default: a name the target lacks is allowed to be missing
                    saved, self.report = self.report, False
                    out = self.attribute(target, name.value, node, ctx)
                    self.report = saved
                    return out | args[2]
                return self.attribute(target, name.value, node, ctx) | (
                    args[2] if len(args) > 2 else EMPTY)
            if chip and func.id == "getattr":
                self.say(node, ctx, "getattr(%s, <not a constant>): a name the check cannot "
                         "read" % sorted(v[1] for v in chip)[0])
            return EMPTY
        if isinstance(func, ast.Attribute) and func.attr in ("append", "add", "insert",
                                                              "extend"):
            recv = self.key_of(func.value, ctx)
            if recv is not None:
                if func.attr == "extend":
                    new = self.elements(args[0]) if args else EMPTY
                else:
                    new = args[-1] if args else EMPTY
                if new:
                    self.join(recv, frozenset({("seq", new)}))
        if isinstance(func, ast.Name) and func.id in ("list", "tuple", "sorted", "reversed") \
                and not self.get(self.scope_key(ctx, func.id)):
            return frozenset({("seq", self.elements(args[0]))}) if args else EMPTY
        if isinstance(func, ast.Name) and func.id in ("bytes", "bytearray") \
                and not self.get(self.scope_key(ctx, func.id)) and len(args) == 1:
            return frozenset(("bytes", v[1]) for v in args[0] if v[0] in ("int", "bytes"))
        if isinstance(func, ast.Name) and func.id == "enumerate" \
                and not self.get(self.scope_key(ctx, func.id)):
            return frozenset({("seq", frozenset({("tup", (EMPTY, self.elements(args[0])))}))}) \
                if args else EMPTY
        fvals = self.ev(func, ctx)
        out = set()
        for f in fvals:
            kind = f[0]
            if kind == "cls":
                desc = self.t["classes"][f[1]]
                self.used(node, ctx, f[1] + "()")
                self.check_call(desc.get("new"), f[1], args, node, ctx,
                                (desc.get("new") or {}).get("where") or desc["where"])
                out.add(("obj", f[1]))
            elif kind == "call":
                owner, name = f[1], f[2]
                names = (self.t["modules"][owner]["names"] if owner in self.t["modules"]
                         else self.t["classes"][owner]["names"])
                desc = names[name]
                sig = desc.get("sig")
                self.check_call(sig, owner + "." + name, args, node, ctx,
                                (sig or {}).get("where") or desc.get("where"))
                ret = RETURNS.get((owner, name))
                if ret:
                    inner = frozenset({("obj", ret[1])})
                    out.add(("seq", inner) if ret[0] == "seq" else ("obj", ret[1]))
            elif kind == "fwfn":
                fn = self.funcs.get(f[1])
                if fn is not None:
                    self.pass_args(fn, args, kwargs, node, skip_self=False)
                    out |= self.get(("ret", f[1]))
            elif kind == "fwmeth":
                fn = self.funcs.get(f[2])
                if fn is not None:
                    self.pass_args(fn, args, kwargs, node, skip_self=True,
                                   self_value=frozenset({("fwobj", f[1])}))
                    out |= self.get(("ret", f[2]))
            elif kind == "fwcls":
                for c in self.mro(f[1]):
                    init = self.funcs.get(c + ".__init__")
                    if init is not None:
                        self.pass_args(init, args, kwargs, node, skip_self=True,
                                       self_value=frozenset({("fwobj", f[1])}))
                        break
                out.add(("fwobj", f[1]))
        return frozenset(out)

    def pass_args(self, fn, args, kwargs, node, skip_self, self_value=EMPTY):
        a = fn.node.args
        params = [p.arg for p in a.posonlyargs + a.args]
        if skip_self and params:
            self.join(("var", fn.qual, params[0]), self_value)
            params = params[1:]
        for i, v in enumerate(args):
            if i < len(params):
                self.join(("var", fn.qual, params[i]), v)
            elif a.vararg:
                self.join(("var", fn.qual, a.vararg.arg), frozenset({("seq", v)}))
        names = set(params) | {p.arg for p in a.kwonlyargs}
        for k, v in kwargs.items():
            if k in names:
                self.join(("var", fn.qual, k), v)

    def key_of(self, node, ctx):
        if isinstance(node, ast.Name):
            return self.scope_key(ctx, node.id)
        if isinstance(node, ast.Attribute):
            for v in self.ev(node.value, ctx):
                if v[0] == "fwobj":
                    return ("attr", v[1], node.attr)
        return None

    # -- binding ------------------------------------------------------------------------

    def bind(self, target, values, ctx):
        if isinstance(target, ast.Name):
            self.join(self.scope_key(ctx, target.id), values)
        elif isinstance(target, ast.Attribute):
            for v in self.ev(target.value, ctx):
                if v[0] == "fwobj":
                    self.join(("attr", v[1], target.attr), values)
                elif v[0] == "fwcls":
                    self.join(("attr", v[1], target.attr), values)
                elif v[0] == "fwmod":
                    self.join(("var", v[1], target.attr), values)
        elif isinstance(target, (ast.Tuple, ast.List)):
            elts = target.elts
            for i, e in enumerate(elts):
                part = set()
                for v in values:
                    if v[0] == "tup" and len(v[1]) == len(elts):
                        part |= v[1][i]
                    elif v[0] == "seq":
                        part |= v[1]
                if isinstance(e, ast.Starred):
                    self.bind(e.value, frozenset({("seq", frozenset(part))}), ctx)
                else:
                    self.bind(e, frozenset(part), ctx)
        elif isinstance(target, ast.Subscript):
            self.ev(target.value, ctx)
            self.ev(target.slice, ctx)
            recv = self.key_of(target.value, ctx)
            if recv is not None and values:
                self.join(recv, frozenset({("seq", values)}))

    # -- statements ---------------------------------------------------------------------

    def run_body(self, body, ctx):
        for stmt in body:
            self.stmt(stmt, ctx)

    def stmt(self, node, ctx):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            qual = ctx["prefix"] + "." + node.name
            for d in node.decorator_list:
                self.ev(d, ctx)
            for d in node.args.defaults + [d for d in node.args.kw_defaults if d]:
                self.ev(d, ctx)
            if ctx.get("cls"):
                self.join(("attr", ctx["cls"], node.name), EMPTY)
            else:
                self.join(self.scope_key(ctx, node.name), frozenset({("fwfn", qual)}))
            inner = dict(ctx, chain=[qual] + ctx["chain"], prefix=qual, cls=None, func=qual)
            if ctx.get("cls"):
                params = node.args.posonlyargs + node.args.args
                if params and not any(isinstance(d, ast.Name) and d.id == "staticmethod"
                                      for d in node.decorator_list):
                    self.join(("var", qual, params[0].arg),
                              frozenset({("fwobj", ctx["cls"])}))
            self.run_body(node.body, inner)
        elif isinstance(node, ast.ClassDef):
            qual = ctx["prefix"] + "." + node.name
            bases = []
            for b in node.bases:
                for v in self.ev(b, ctx):
                    if v[0] == "fwcls":
                        bases.append(v[1])
            entry = self.classes.get(qual)
            if entry is not None:
                for b in bases:
                    if b not in entry[2]:
                        entry[2].append(b)
            self.join(self.scope_key(ctx, node.name), frozenset({("fwcls", qual)}))
            self.run_body(node.body, dict(ctx, prefix=qual, cls=qual))
        elif isinstance(node, ast.Return):
            v = self.ev(node.value, ctx)
            if ctx.get("func"):
                self.join(("ret", ctx["func"]), v)
        elif isinstance(node, ast.Assign):
            v = self.ev(node.value, ctx)
            for t in node.targets:
                if ctx.get("cls") and isinstance(t, ast.Name):
                    self.join(("attr", ctx["cls"], t.id), v)
                else:
                    self.bind(t, v, ctx)
        elif isinstance(node, ast.AnnAssign):
            v = self.ev(node.value, ctx)
            self.bind(node.target, v, ctx)
        elif isinstance(node, ast.AugAssign):
            self.ev(node.target, ctx)
            self.bind(node.target, self.ev(node.value, ctx), ctx)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            self.bind(node.target, self.elements(self.ev(node.iter, ctx)), ctx)
            self.run_body(node.body, ctx)
            self.run_body(node.orelse, ctx)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                v = self.ev(item.context_expr, ctx)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, v, ctx)
            self.run_body(node.body, ctx)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.name
                top = name.split(".")[0]
                if top in self.chip_modules:
                    self.import_chip(node, ctx, name)
                    self.join(self.scope_key(ctx, alias.asname or top),
                              frozenset({("mod", name)}) if name in self.t["modules"] else EMPTY)
                elif alias.asname:
                    if name in self.trees:
                        self.join(self.scope_key(ctx, alias.asname),
                                  frozenset({("fwmod", name)}))
                elif top in self.trees:
                    self.join(self.scope_key(ctx, top), frozenset({("fwmod", top)}))
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if mod in self.chip_modules:
                if self.import_chip(node, ctx, mod):
                    for alias in node.names:
                        v = self.attribute(frozenset({("mod", mod)}), alias.name, node, ctx)
                        self.join(self.scope_key(ctx, alias.asname or alias.name), v)
            elif mod in self.trees:
                for alias in node.names:
                    sub = mod + "." + alias.name
                    v = self.get(("var", mod, alias.name))
                    if sub in self.trees:
                        v = v | {("fwmod", sub)}
                    self.join(self.scope_key(ctx, alias.asname or alias.name), frozenset(v))
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    self.stmt(child, ctx)
                elif isinstance(child, ast.expr):
                    self.ev(child, ctx)
                elif isinstance(child, ast.ExceptHandler):
                    if child.type is not None:
                        self.ev(child.type, ctx)
                    self.run_body(child.body, ctx)
                elif isinstance(child, ast.match_case) if hasattr(ast, "match_case") else False:
                    self.run_body(child.body, ctx)

    def import_chip(self, node, ctx, name):
        if name not in self.t["modules"]:
            self.say(node, ctx, "no module %s on %s" % (name, self.t["board"]))
            return False
        self.used(node, ctx, name)
        return True

    # -- driver -------------------------------------------------------------------------

    def run(self):
        for _ in range(MAX_ROUNDS):
            self.changed = False
            self._pass()
            if not self.changed:
                break
        self.report = True
        self._pass()
        return self

    def _pass(self):
        for mod, (display, tree) in self.trees.items():
            ctx = {"module": mod, "display": display, "chain": [mod], "prefix": mod,
                   "cls": None, "func": None}
            self.run_body(tree.body, ctx)


def _key(line):
    parts = line.split(":")
    return parts[0], int(parts[1]) if parts[1].isdigit() else 0, line


def module_name(path: Path, root: Path) -> str:
    rel = Path(path).relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _sources(paths, root: Path, display_root: Path):
    out = {}
    for p in paths:
        p = Path(p)
        out[module_name(p, root)] = (str(p.relative_to(display_root)), p.read_text())
    return out


def problems_in_sources(sources: dict, targets_=None) -> list[str]:
    found = set()
    for target in targets_ or targets():
        found |= Checker(sources, target).run().found
    return sorted(found, key=_key)


def problems_in(paths, root: Path, targets_=None) -> list[str]:
    """Every use in the firmware files `paths` (modules named from firmware/) that a
    target's port lacks or refuses."""
    paths = [Path(p) for p in paths]
    fw_root = _firmware_root(paths, root)
    return problems_in_sources(_sources(paths, fw_root, root), targets_)


def uses_in(paths, root: Path, targets_=None) -> set:
    return analyse(paths, root, targets_)[1]


def analyse(paths, root: Path, targets_=None):
    """(problems, uses) of the firmware files `paths`, one run per target; a use is
    (file, line, target, "machine.Pin.irq")."""
    paths = [Path(p) for p in paths]
    sources = _sources(paths, _firmware_root(paths, root), root)
    found, uses = set(), set()
    for target in targets_ or targets():
        checker = Checker(sources, target).run()
        found |= checker.found
        uses |= checker.uses
    return sorted(found, key=_key), uses


def _firmware_root(paths, root):
    fw = Path(root) / "firmware"
    if all(fw in Path(p).parents for p in paths):
        return fw
    return Path(root)


def problems(path: Path, display: str | None = None, targets_=None) -> list[str]:
    """One file on its own (its module named by its stem)."""
    path = Path(path)
    return problems_in_sources({path.stem: (display or str(path), path.read_text())}, targets_)


# -- the fakes ------------------------------------------------------------------------

def port_names(path: str) -> set[str]:
    """The names a module or class ("machine", "machine.Pin") has on any target."""
    names = set()
    for t in api()["targets"].values():
        if "." not in path and path in t["modules"]:
            names |= set(t["modules"][path]["names"])
        elif path in t["classes"]:
            names |= set(t["classes"][path]["names"])
    return names


def port_entry(path: str, name: str):
    """The descriptions of `path.name` on the targets that have it."""
    out = []
    for t in api()["targets"].values():
        table = (t["modules"].get(path) if "." not in path else t["classes"].get(path))
        if table and name in table["names"]:
            out.append(table["names"][name])
    return out
