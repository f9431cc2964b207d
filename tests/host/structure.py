"""Static structure of the firmware and the host tools (docs/architecture.md).

Three rules a newcomer can rely on:
- no import cycle: a module loaded on demand depends on a small core, never on
  its importer (imports inside functions count, they are cycles all the same);
- no module reaches into another module's private names (`_name`): neither by
  `from m import _name`, nor `m._name`, nor `obj._name` on an object whose class
  lives elsewhere (a private name read or written in a module that does not
  define it);
- no firmware module over MAX_LINES lines.

Run as a script to print every finding:  python3 -m tests.host.structure
"""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 600

# Private names of the language and its libraries, not of the project.
FOREIGN_PRIVATE = {"_exit", "_getframe", "_thread", "_asdict", "_replace", "_fields",
                   "_make", "_name_", "_value_", "_missing_"}


class Module:
    def __init__(self, name, path, is_package):
        self.name = name
        self.path = path
        self.package = name if is_package else name.rpartition(".")[0]
        self.tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        self.lines = len(path.read_text(encoding="utf-8").splitlines())


def modules(top, package_prefix=""):
    """Every module under `top` keyed by its import name.  The firmware's
    modules import each other from the filesystem root (`import clock.engine`),
    the host tools as a package (`host_tools.link`)."""
    found = {}
    for path in sorted(top.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(top).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        name = ".".join([p for p in [package_prefix] if p] + parts)
        if not name:
            continue
        found[name] = Module(name, path, is_package)
    return found


def _resolve(module, node):
    """The absolute module names an import node names."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.package.split(".") if module.package else []
        if node.level > 1:
            package = package[: len(package) - (node.level - 1)]
        base = ".".join(package + ([base] if base else []))
    return [base] + [base + "." + alias.name if base else alias.name for alias in node.names]


def import_graph(mods):
    graph = {name: set() for name in mods}
    for name, module in mods.items():
        for node in ast.walk(module.tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _resolve(module, node):
                    # importing a.b.c also runs a and a.b
                    parts = target.split(".")
                    for i in range(len(parts), 0, -1):
                        candidate = ".".join(parts[:i])
                        if candidate in mods and candidate != name:
                            graph[name].add(candidate)
                            break
    return graph


def cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, result = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return result


def _private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__")) \
        and name not in FOREIGN_PRIVATE


def _defined_private(tree):
    """Private names a module defines: functions, classes, globals, class
    attributes, and attributes it assigns on `self` (writing another object's
    private field is a crossing like reading it)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)) \
                and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            names.add(node.attr)
        elif isinstance(node, ast.alias) and node.asname:
            names.add(node.asname)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return {n for n in names if _private(n)}


def private_crossings(mods):
    """(module, line, name, how) for every private name a module uses but does
    not define."""
    found = []
    for name, module in sorted(mods.items()):
        own = _defined_private(module.tree)
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if _private(alias.name):
                        found.append((name, node.lineno, alias.name, "from-import"))
            elif isinstance(node, ast.Attribute) and _private(node.attr):
                if node.attr not in own:
                    found.append((name, node.lineno, node.attr, "attribute"))
    return found


def long_modules(mods, limit=MAX_LINES):
    return [(name, m.lines) for name, m in sorted(mods.items()) if m.lines > limit]


def trees():
    return {
        "firmware": modules(ROOT / "firmware"),
        "host_tools": modules(ROOT / "host_tools", "host_tools"),
    }


def main():
    for label, mods in trees().items():
        print("==", label)
        for component in cycles(import_graph(mods)):
            print("cycle:", " <-> ".join(component))
        for name, line, attr, how in private_crossings(mods):
            print("private: %s:%d %s (%s)" % (name, line, attr, how))
        if label == "firmware":
            for name, lines in long_modules(mods):
                print("long: %s %d lines" % (name, lines))


if __name__ == "__main__":
    main()
