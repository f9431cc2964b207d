"""The firmware drops modules only through lazy.unload() with a group of lazy.DROPPED,
the one table of what is loaded and dropped again (firmware/lazy.py)."""

import ast
import importlib.util

from tests.host.structure import ROOT


def _dropped():
    spec = importlib.util.spec_from_file_location("lazy_table", ROOT / "firmware" / "lazy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.DROPPED


def _unload_calls():
    calls = []
    for path in sorted((ROOT / "firmware").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "unload":
                calls.append((path.relative_to(ROOT).as_posix(), node))
            if isinstance(node, ast.Attribute) and node.attr == "modules" \
                    and getattr(node.value, "id", None) == "sys":
                calls.append((path.relative_to(ROOT).as_posix(), node))
    return calls


def test_every_drop_names_a_declared_group():
    groups = _dropped()
    found = []
    for path, node in _unload_calls():
        if path == "firmware/lazy.py":
            continue          # the table's own unload()
        assert isinstance(node, ast.Call), "%s touches sys.modules itself" % path
        arg = node.args[0]
        assert isinstance(arg, ast.Constant) and arg.value in groups, (path, ast.dump(arg))
        found.append(arg.value)
    # every group is used, none declared for nothing
    assert sorted(set(found)) == sorted(groups)


def test_each_group_says_why():
    source = (ROOT / "firmware" / "lazy.py").read_text(encoding="utf-8")
    for group in _dropped():
        at = source.index('"%s":' % group)
        comment = source[source.rindex("\n\n", 0, at):at]
        assert " KB" in comment, "group %s has no figure" % group
