# UI languages.  Each package keeps one small module per language,
#     <package>/texts_<lang>.py:  TEXTS = {"key": "text", ...}
# and looks its texts up here with tr(package, key, lang).  Only the tables of
# the language in use are in RAM (a 4-language table of every text cost about
# 40 KB of heap); English is loaded as well only when a key lacks a
# translation.  Switching the language drops the previous language's tables.

from micropython import const

LANGUAGES = ("de", "en", "pl", "nb")
_DEFAULT_LANGUAGE = const("de")
_FALLBACK = const("en")
PACKAGES = ("app", "clock", "terminal")

_tables = {}     # "terminal.texts_de" -> dict
_current = [None]


def _module_name(package, lang):
    return package + ".texts_" + lang


def _unload(name):
    from lazy import unload

    _tables.pop(name, None)
    unload((name,))


def _load(package, lang):
    name = _module_name(package, lang)
    found = _tables.get(name)
    if found is None:
        top = __import__(name)
        found = getattr(top, name.partition(".")[2]).TEXTS
        _tables[name] = found
    return found


def table(package, lang):
    """The dict of texts of `package` in `lang` (ImportError if there is none)."""
    if lang != _current[0]:
        # a new language: forget the old one's tables (English stays if loaded)
        for old in list(_tables):
            if not old.endswith("_" + _FALLBACK):
                _unload(old)
        _current[0] = lang
    return _load(package, lang)


def tr(package, key, lang):
    """The text `key` of `package` in `lang`, else in English (KeyError if neither has it)."""
    if lang not in LANGUAGES:
        lang = _FALLBACK
    text = table(package, lang).get(key)
    if text is None:
        text = _load(package, _FALLBACK)[key]
    return text


def check_package(package, languages=LANGUAGES):
    """(key, lang) pairs that break completeness: a key of the English table a
    language lacks, or a key a language has that English does not."""
    reference = _load(package, _FALLBACK)
    gaps = []
    for lang in languages:
        other = _load(package, lang)
        for key in reference:
            if key not in other:
                gaps.append((key, lang))
        for key in other:
            if key not in reference:
                gaps.append((key, lang))
    return gaps


def loaded():
    """Names of the text modules in RAM now (for the memory tests)."""
    return sorted(_tables)
