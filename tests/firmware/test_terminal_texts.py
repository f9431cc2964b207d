# The terminal's texts: every language present, every line fits the 16-column screen.
from i18n import check_table
from terminal.texts import TEXTS


def test_every_text_in_every_language():
    assert check_table(TEXTS) == []


def test_every_line_fits_16_columns_with_its_values_filled_in():
    long = []
    for key in TEXTS:
        for lang in TEXTS[key]:
            text = TEXTS[key][lang].replace("%d", "99").replace("%s", "xxxxxx")
            for line in text.split("\n"):
                if len(line) > 16:
                    long.append((key, lang, line))
    assert not long, long
