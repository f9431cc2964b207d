# UI languages.  Each package keeps one small module per language,
#     <package>/texts_<lang>.py:  TEXTS = """key text\nkey text\n..."""
# (a line per text, "\\n" for a line break in a text) and looks its texts up here
# with tr(package, key, lang).  Only the texts of the language in use are in
# RAM (a 4-language table of every text cost about 40 KB of heap), and of those
# only the ones shown so far as strings of their own; English is loaded as well
# only when a key lacks a translation.  Switching the language forgets the previous
# language's texts (its module, 64 B on the frozen image, stays imported).

from micropython import const

LANGUAGES = ("de", "en", "pl", "nb")
_DEFAULT_LANGUAGE = const("de")
_FALLBACK = const("en")
PACKAGES = ("app", "clock", "terminal")

_tables = {}     # "terminal.texts_de" -> [its TEXTS, {key: text} of the texts used]
_current = [None]


def _module_name(package, lang):
    return package + ".texts_" + lang


def _texts(package, lang):
    """[TEXTS, cache] of `package` in `lang` (ImportError if there is none)."""
    name = _module_name(package, lang)
    found = _tables.get(name)
    if found is None:
        top = __import__(name)
        found = [getattr(top, name.partition(".")[2]).TEXTS, {}]
        _tables[name] = found
    return found


def _find(texts, key):
    """The text of `key` in a TEXTS string, or None.  Only the texts a clock shows are
    made into strings of their own, once (then kept in the cache): the others stay in
    the TEXTS string, in flash on the chip."""
    n = len(key)
    at = texts.find(key + " ")
    while at >= 0:
        if at == 0 or texts[at - 1] == "\n":
            end = texts.find("\n", at)
            text = texts[at + n + 1:end if end >= 0 else len(texts)]
            return text.replace("\\n", "\n") if "\\" in text else text
        at = texts.find(key + " ", at + 1)
    return None


def _table_of(texts):
    out = {}
    for line in texts.split("\n"):
        if line:
            key, _, text = line.partition(" ")
            out[key] = text.replace("\\n", "\n") if "\\" in text else text
    return out


def _load(package, lang):
    """Every text of `package` in `lang`, as a new dict (checks and tests)."""
    return _table_of(_texts(package, lang)[0])


def table(package, lang):
    """The dict of texts of `package` in `lang` (ImportError if there is none)."""
    return _load(package, lang)


def _lookup(package, key, lang):
    entry = _texts(package, lang)
    text = entry[1].get(key)
    if text is None:
        text = _find(entry[0], key)
        if text is not None:
            entry[1][key] = text
    return text


def tr(package, key, lang):
    """The text `key` of `package` in `lang`, else in English (KeyError if neither has it).
    Allocates nothing once a text was shown."""
    if lang not in LANGUAGES:
        lang = _FALLBACK
    if lang != _current[0]:
        # a new language: forget the old one's texts (English stays if loaded)
        for old in list(_tables):
            if not old.endswith("_" + _FALLBACK):
                del _tables[old]
        _current[0] = lang
    text = _lookup(package, key, lang)
    if text is None:
        text = _lookup(package, key, _FALLBACK)
        if text is None:
            raise KeyError(key)
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
