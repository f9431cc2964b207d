from i18n import LANGUAGES, check_table, tr

TABLE = {"pause": {"de": "PAUSE", "en": "PAUSED", "pl": "PAUZA", "nb": "PAUSE"},
         "only_en": {"en": "ONLY"}}


def test_lookup_in_each_language():
    assert tr(TABLE, "pause", "de") == "PAUSE"
    assert tr(TABLE, "pause", "pl") == "PAUZA"


def test_missing_language_falls_back_to_english():
    assert tr(TABLE, "only_en", "nb") == "ONLY"


def test_check_table_names_every_gap():
    gaps = check_table(TABLE)
    assert ("only_en", "de") in gaps and ("only_en", "nb") in gaps
    assert len(gaps) == 3
    assert "de" in LANGUAGES and "en" in LANGUAGES
