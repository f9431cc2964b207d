
import i18n
from i18n import LANGUAGES, PACKAGES, check_package, tr


def test_lookup_in_each_language():
    assert tr("clock", "pause", "de") == "PAUSE"
    assert tr("clock", "pause", "pl") == "PAUZA"
    assert tr("clock", "pause", "en") == "PAUSED"
    assert tr("terminal", "ready", "nb") == "Klar"


def test_unknown_language_falls_back_to_english():
    assert tr("clock", "pause", "xx") == "PAUSED"


def test_missing_key_falls_back_to_english():
    tr("clock", "pause", "nb")                  # Norwegian in use
    entry = i18n._texts("clock", "nb")
    saved = entry[0]
    entry[0] = "\n".join(line for line in saved.split("\n") if not line.startswith("late "))
    entry[1].clear()
    try:
        assert tr("clock", "late", "nb") == "LATE"
        assert check_package("clock") == [("late", "nb")]
    finally:
        entry[0] = saved
        entry[1].clear()
    assert tr("clock", "late", "nb") == "FORSINKET"


def test_a_text_is_found_by_its_whole_key_and_kept():
    # "list" is also the end of "no_list" and the start of "list_version"-like keys
    assert tr("terminal", "list", "en") == "List %s"
    assert tr("terminal", "no_list", "en") == "No word list"
    assert tr("terminal", "call_referee", "en") == "Call the\nreferee"
    assert tr("terminal", "list", "en") is tr("terminal", "list", "en")


def test_a_key_in_no_table_is_an_error():
    try:
        tr("clock", "no_such_key", "de")
    except KeyError:
        return
    raise AssertionError("expected KeyError")


def test_only_the_language_in_use_stays_loaded():
    tr("terminal", "ready", "pl")
    tr("clock", "pause", "pl")
    assert "terminal.texts_pl" in i18n.loaded() and "clock.texts_pl" in i18n.loaded()
    tr("terminal", "ready", "de")
    names = i18n.loaded()
    assert "terminal.texts_de" in names
    assert not [n for n in names if n.endswith("_pl")], names
    assert not [n for n in names if not n.endswith(("_de", "_en"))], names


def test_every_package_has_every_language_module():
    for package in PACKAGES:
        for lang in LANGUAGES:
            assert len(i18n._load(package, lang)) > 5, (package, lang)


def test_device_label_keys_are_the_clock_tables_keys():
    from app.device import CLOCK_KEYS

    assert sorted(CLOCK_KEYS) == sorted(i18n._load("clock", "en"))
