# The UI texts: every language present, every line fits the 16-column screen.
from i18n import LANGUAGES, PACKAGES, _load, check_package


def test_every_text_in_every_language():
    for package in PACKAGES:
        assert check_package(package) == [], package


def test_every_line_fits_16_columns_with_its_values_filled_in():
    long = []
    for lang in LANGUAGES:
        texts = _load("terminal", lang)
        for key in texts:
            text = texts[key].replace("%d", "99").replace("%s", "xxxxxx")
            for line in text.split("\n"):
                if len(line) > 16:
                    long.append((key, lang, line))
    assert not long, long
