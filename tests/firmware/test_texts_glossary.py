# The glossary of the texts: one word per thing in each language, wherever a player or
# referee reads it.  The panels (`clock`), the terminal (`terminal`) and the device's
# own notes (`app`) are translated apart, so a word can drift in one of them (the German
# panels once said ANFECHTEN and EINSPRUCH while the terminal said ANFECHTUNG; the
# English confirm screen said "C=right", read as the right-hand player).  Each entry
# names the texts (package, key) that speak of one thing and the stem each language
# uses for it; a text must contain its stem, whatever its case.  The known bad forms
# must appear in no text at all.

from i18n import LANGUAGES, PACKAGES, _texts, tr

# thing -> ({lang: stem}, {package: keys whose text names it})
GLOSSARY = {
    "challenge": (
        {"de": "anfechtung", "en": "challenge", "pl": "sprawdzeni", "nb": "utfordring"},
        {"clock": ("challenge",),
         "terminal": ("challenge", "key_challenge", "menu_challenge", "cancel_ask",
                      "pen_challenge")}),
    "hold": (
        {"de": "vorbehalt", "en": "hold", "pl": "wstrzyma", "nb": "hold"},
        {"clock": ("hold",), "terminal": ("key_hold", "hold_on", "hold_noted")}),
    "pause": (
        {"de": "pause", "en": "pause", "pl": "pauz", "nb": "pause"},
        {"clock": ("pause",), "app": ("resume_hint", "skip", "charge_hint")}),
    "overtime": (
        {"de": "zeitüberschreitung", "en": "overtime", "pl": "dogrywka", "nb": "overtid"},
        {"clock": ("overtime",)}),
    # the penalty for overtime on the result screen: the TSO's own word in German
    # (5.2 "Zeitüberschreitung und Zeitstrafen"), the overtime word where a language has
    # no word of its own for it
    "overtime penalty": (
        {"de": "zeitstrafe", "en": "overtime", "pl": "kara czasu", "nb": "overtid"},
        {"terminal": ("pen_overtime",)}),
    "referee": (
        {"de": "schiedsrichter", "en": "referee", "pl": "sędzi", "nb": "dommer"},
        {"terminal": ("call_referee", "key_referee", "referee_decides", "menu_title")}),
    "opponent": (
        {"de": "gegner", "en": "opponent", "pl": "przeciwnik", "nb": "motspiller"},
        {"app": ("opponent",), "terminal": ("opponent",)}),
    # the confirm screen: C means the entry is right, not the right-hand player
    "confirm": (
        {"de": "c=ja", "en": "c=correct", "pl": "c=tak", "nb": "c=riktig"},
        {"terminal": ("confirm_keys",)}),
    # a game that could not be restored: the same meaning in every language (no game
    # was saved), not "game lost"
    "nothing restored": (
        {"de": "kein spielstand", "en": "no saved game", "pl": "brak zapisu gry",
         "nb": "ingen lagring"},
        {"app": ("not_recovered",)}),
}

# forms that were replaced and must not come back, in any text of the language
BAD_FORMS = {
    "de": ("einspruch", "anfechten", "spiel verloren", "überzeit"),
    "en": ("c=right", "game not saved", "game lost"),
    "pl": (),
    "nb": ("vent",),
}

# MicroPython's str.lower() folds ASCII only: the capitals of the alphabets' own letters
_CAPITALS = "ÄÖÜĄĆĘŁŃÓŚŹŻÆØÅ"
_SMALL = "äöüąćęłńóśźżæøå"


# The tests that take more than a few seconds: left out of `python3 -m tests --fast`
# (tests/conftest.py reads this; a firmware test module cannot import pytest).
SLOW = ("test_every_thing_has_one_word_per_language_on_panels_terminal_and_notes",)


def fold(text):
    out = text.lower()
    for capital, small in zip(_CAPITALS, _SMALL):
        out = out.replace(capital, small)
    return out


def all_texts(package, lang):
    """(key, text) of every text of a package in a language, from its TEXTS table."""
    table = _texts(package, lang)[0]
    out = []
    for line in table.split("\n"):
        if line:
            key, _, text = line.partition(" ")
            out.append((key, text.replace("\\n", " ")))
    return out


def test_every_thing_has_one_word_per_language_on_panels_terminal_and_notes():
    wrong = []
    for thing in GLOSSARY:
        stems, where = GLOSSARY[thing]
        for lang in LANGUAGES:
            stem = stems[lang]
            for package in where:
                for key in where[package]:
                    text = tr(package, key, lang).replace("\n", " ")
                    if stem not in fold(text):
                        wrong.append("%s %s.%s %r lacks %r (%s)"
                                     % (lang, package, key, text, stem, thing))
    assert not wrong, "\n".join(wrong)


def uses(text, form):
    """A form of several words (or with "=") anywhere in the text; one word as a word."""
    text = fold(text)
    if " " in form or "=" in form:
        return form in text
    for mark in ".,:;?!()/%<>*#+-=0123456789":
        text = text.replace(mark, " ")
    return form in text.split()


def test_no_text_uses_a_replaced_form():
    found = []
    for lang in LANGUAGES:
        for package in PACKAGES:
            for key, text in all_texts(package, lang):
                for bad in BAD_FORMS[lang]:
                    if uses(text, bad):
                        found.append("%s %s.%s %r: %r" % (lang, package, key, text, bad))
    assert not found, "\n".join(found)


def test_the_glossary_names_texts_that_exist_and_every_language():
    # a renamed key must not let its entry check nothing
    for thing in GLOSSARY:
        stems, where = GLOSSARY[thing]
        assert sorted(stems) == sorted(LANGUAGES), thing
        for package in where:
            assert package in PACKAGES, (thing, package)
            for lang in LANGUAGES:
                keys = [k for k, _ in all_texts(package, lang)]
                for key in where[package]:
                    assert key in keys, (thing, lang, package, key)


def test_fold_and_the_check_catch_a_drifted_word():
    # the check itself fails on the drift it is for (case and the alphabets' capitals)
    assert fold("ZEITÜBERSCHREITUNG") == "zeitüberschreitung"
    assert fold("ŁÓDŹ ÆØÅ") == "łódź æøå"
    stem = GLOSSARY["challenge"][0]["de"]
    assert stem in fold("ANFECHTUNG") and stem not in fold("EINSPRUCH")
    assert stem not in fold("ANFECHTEN")
    assert uses("EINSPRUCH!", "einspruch") and uses("C=right *=edit", "c=right")
    assert not uses("Event", "vent") and uses("VENT", "vent")
