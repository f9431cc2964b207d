"""The firmware and the host tools keep their arrows pointing down
(tests/host/structure.py says why and how each rule is read)."""

from tests.host import structure

TREES = structure.trees()


def test_no_import_cycle_in_the_firmware_or_the_host_tools():
    found = {label: structure.cycles(structure.import_graph(mods))
             for label, mods in TREES.items()}
    assert found == {label: [] for label in TREES}


def test_no_module_uses_another_modules_private_names():
    found = {label: ["%s:%d %s (%s)" % c for c in structure.private_crossings(mods)]
             for label, mods in TREES.items()}
    assert found == {label: [] for label in TREES}


def test_no_firmware_module_is_over_600_lines():
    assert structure.long_modules(TREES["firmware"]) == []


def test_the_checks_see_what_they_claim(tmp_path):
    """The checker itself finds a cycle, a crossing and a long module."""
    (tmp_path / "a.py").write_text("import b\n\ndef f():\n    return b._hidden\n")
    (tmp_path / "b.py").write_text("_hidden = 1\n\ndef g():\n    import a\n")
    (tmp_path / "c.py").write_text("from b import _hidden\n" + "x = 1\n" * 700)
    mods = structure.modules(tmp_path)
    assert structure.cycles(structure.import_graph(mods)) == [["a", "b"]]
    assert sorted((m, n, how) for m, _, n, how in structure.private_crossings(mods)) == [
        ("a", "_hidden", "attribute"), ("c", "_hidden", "from-import")]
    assert structure.long_modules(mods) == [("c", 701)]
