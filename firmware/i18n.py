# UI languages.  Each package keeps its own table of texts:
#     TEXTS = {"key": {"de": "...", "en": "...", "pl": "...", "nb": "..."}}
# and looks them up here, so that a missing translation shows English
# instead of failing at the table.

LANGUAGES = ("de", "en", "pl", "nb")
DEFAULT_LANGUAGE = "de"


def tr(table, key, lang):
    entry = table[key]
    text = entry.get(lang)
    return text if text is not None else entry["en"]


def check_table(table):
    """Keys whose entry lacks a language; empty when the table is complete."""
    return [(key, lang) for key in table for lang in LANGUAGES if lang not in table[key]]
