"""Every normalisation rule of the seeds (ORZ, NSF, PFS) and of the issue, one named test each."""

import pytest

from wordlist_packer.normalise import (ABBREVIATION, CAPITAL, DUPLICATE, FOREIGN_LETTER,
                                       NON_LETTER, TOO_LONG, TOO_SHORT, Profile,
                                       normalise_lines)


def norm(lang, entry):
    p = Profile.builtin(lang)
    codes, reason = p.normalise(entry)
    return (p.display(codes) if codes is not None else None), reason


# --- German, ORZ I.1-I.3 -------------------------------------------------------------------
def test_de_sharp_s_is_double_s():                 # ORZ I.2 "ß wird stets durch SS ersetzt"
    assert norm("de", "schließen") == ("SCHLIESSEN", "")
    assert norm("de", "Größe") == ("GRÖSSE", "")


def test_de_umlauts_are_tiles_not_ae_oe_ue():      # ORZ I.2
    assert norm("de", "Ängström") == ("ÄNGSTRÖM", "")
    p = Profile.builtin("de")
    codes, _ = p.normalise("über")
    assert len(codes) == 4 and p.display(codes) == "ÜBER"


def test_de_other_accents_dropped():               # ORZ I.2 Agrément, Cañon
    assert norm("de", "Agrément") == ("AGREMENT", "")
    assert norm("de", "Cañon") == ("CANON", "")


def test_de_ligatures_split():                     # ORZ I.2 Œuvre, Cœur
    assert norm("de", "Œuvre") == ("OEUVRE", "")
    assert norm("de", "Cœur") == ("COEUR", "")


def test_de_hyphen_apostrophe_dot_not_allowed():   # ORZ I.1.2 a: Jo-Jo, 'naus
    assert norm("de", "Jo-Jo") == (None, NON_LETTER)
    assert norm("de", "'naus") == (None, NON_LETTER)
    assert norm("de", "usw.") == (None, NON_LETTER)


def test_de_capitalised_nouns_kept():
    assert norm("de", "Haus") == ("HAUS", "")


def test_de_abbreviations_dropped():               # ORZ I.3: only capitals / several capitals
    assert norm("de", "ABC") == (None, ABBREVIATION)
    assert norm("de", "GmbH") == (None, ABBREVIATION)


def test_de_umlaut_with_another_accent_keeps_the_umlaut():   # ORZ I.2: Ü is a tile
    assert norm("de", "dǘse") == ("DÜSE", "")
    assert norm("de", "Ǻse") == ("ASE", "")         # Å is not German: plain A


def test_de_decomposed_input_is_composed_first():
    assert norm("de", "A\u0308rger") == ("ÄRGER", "")


# --- Norwegian, NSF 1.2-1.3 ----------------------------------------------------------------
def test_nb_ae_oe_aa_are_tiles():
    p = Profile.builtin("nb")
    codes, _ = p.normalise("blåbærsyltetøy")
    assert p.display(codes) == "BLÅBÆRSYLTETØY"
    assert len(codes) == 14


@pytest.mark.parametrize("word,expected", [
    ("carità", "CARITA"), ("hácek", "HACEK"), ("débâcle", "DEBACLE"), ("garçon", "GARCON"),
    ("volière", "VOLIERE"), ("moské", "MOSKE"), ("crêpe", "CREPE"), ("maître", "MAITRE"),
    ("señor", "SENOR"), ("chokó", "CHOKO"), ("entrecôte", "ENTRECOTE"), ("goût", "GOUT")])
def test_nb_diacritics_count_as_plain_letter(word, expected):   # NSF 1.3 table
    assert norm("nb", word) == (expected, "")


def test_nb_a_o_u_umlaut_only_by_blank():         # NSF 1.3: ä ö ü are own letters, blank only
    p = Profile.builtin("nb")
    codes, _ = p.normalise("salongfähig")
    assert p.display(codes) == "SALONGFÄHIG"
    assert p.tiles[p.indices(codes)[7]] == "Ä" and "Ä" in p.blank_only
    assert set(p.blank_only) == {"Ä", "Ö", "Ü"}


def test_nb_single_letter_words_dropped():         # NSF 1.2
    assert norm("nb", "å") == (None, TOO_SHORT)
    assert norm("nb", "åa") == ("ÅA", "")


def test_nb_capitals_dropped():                    # NSF 1.2 (proper names)
    assert norm("nb", "Oslo") == (None, CAPITAL)
    assert norm("nb", "tv-en") == (None, NON_LETTER)


def test_nb_other_accents_count_as_the_plain_letter():     # NSF 1.3: not only the table's
    assert norm("nb", "smørrebrød") == ("SMØRREBRØD", "")
    assert norm("nb", "façade") == ("FACADE", "")
    assert norm("nb", "òg") == ("OG", "")             # nynorsk: ÒG gives OG
    assert norm("nb", "ÒG") == (None, CAPITAL)
    assert norm("nb", "naïv") == ("NAIV", "")         # ï is no letter of its own in NSF 1.3
    assert norm("nb", "ǻ") == (None, TOO_SHORT)       # one letter...
    assert norm("nb", "ǻa") == ("ÅA", "")             # ...Å with an accent stays Å
    assert norm("nb", "dǘ") == ("DÜ", "")             # Ü with an accent stays Ü (blank only)
    assert norm("nb", "łosoś") == (None, FOREIGN_LETTER)   # Ł has no combining mark


def test_nb_every_accented_latin_letter_is_derived_from_unicode():
    import unicodedata
    p = Profile.builtin("nb")
    checked = 0
    for cp in range(0xC0, 0x250):
        ch = chr(cp)
        if not ch.islower() or ch in "äöüåæø":
            continue
        d = unicodedata.normalize("NFD", ch)
        base = d[0]
        if len(d) < 2 or not base.isascii() or not all(unicodedata.combining(x) for x in d[1:]):
            continue
        if any(x == "\u0308" for x in d[1:]) and base in "aou":
            continue                                # ä ö ü with another mark: own letters
        if base == "a" and "\u030a" in d:
            continue                                # å with another mark: Å
        codes, reason = p.normalise("x" + ch)
        assert reason == "" and p.display(codes) == "X" + base.upper(), (ch, reason)
        checked += 1
    assert checked > 100


# --- Polish, PFS ----------------------------------------------------------------------------
def test_pl_the_32_letters():
    p = Profile.builtin("pl")
    assert len(p.tiles) == 32
    codes, _ = p.normalise("zażółćgęśląjaźń")
    assert p.display(codes) == "ZAŻÓŁĆGĘŚLĄJAŹŃ"


@pytest.mark.parametrize("word", ["quizowy", "supernova", "exodus", "öre", "écru"])
def test_pl_other_letters_drop_the_word(word):     # PFS: Q, V, X and foreign letters
    assert norm("pl", word) == (None, FOREIGN_LETTER)


def test_pl_capital_drops_the_word():              # PFS: Warszawiak, mBank, dBASE
    for w in ("Warszawiak", "mBank", "dBASE"):
        assert norm("pl", w) == (None, CAPITAL)


def test_pl_apostrophe_and_hyphen_drop_the_word():
    assert norm("pl", "scrabble'owy") == (None, NON_LETTER)
    assert norm("pl", "ping-pong") == (None, NON_LETTER)


# --- English and Spanish --------------------------------------------------------------------
def test_en_apostrophes_and_capitals_dropped():
    assert norm("en", "aardvark's") == (None, NON_LETTER)
    assert norm("en", "Paris") == (None, CAPITAL)
    assert norm("en", "quiz") == ("QUIZ", "")


def test_es_digraph_tiles():
    p = Profile.builtin("es")
    codes, _ = p.normalise("chorrillo")
    assert [p.tiles[i] for i in p.indices(codes)] == ["CH", "O", "RR", "I", "LL", "O"]
    codes, _ = p.normalise("niño")
    assert [p.tiles[i] for i in p.indices(codes)] == ["N", "I", "Ñ", "O"]
    assert norm("es", "camión") == ("CAMION", "")


# --- generic profile --------------------------------------------------------------------------
def test_generic_alphabet_file(tmp_path):
    f = tmp_path / "ca.txt"
    f.write_text("# Catalan-like\nlanguage ca\nA\nL\nL·L\nÇ\nK blank-only\nmap À A\n"
                 "drop-capitalised\nmin-length 2\n", encoding="utf-8")
    p = Profile.from_alphabet_file(f)
    assert p.language == "ca" and p.blank_only == ["K"]
    codes, _ = p.normalise("al·la")
    assert [p.tiles[i] for i in p.indices(codes)] == ["A", "L·L", "A"]
    assert p.normalise("àl")[0] is not None
    assert p.normalise("a")[1] == TOO_SHORT
    assert p.normalise("Al")[1] == CAPITAL
    assert p.normalise("ab")[1] == FOREIGN_LETTER


# --- input handling ---------------------------------------------------------------------------
def test_lines_bom_crlf_blank_comments_duplicates_order():
    p = Profile.builtin("en")
    lines = "\ufeffzebra\r\n\r\n# a comment\r\n  apple  \r\nzebra\r\nApple\r\n".split("\n")
    lines[0] = lines[0].lstrip("\ufeff")
    res = normalise_lines(p, lines, want_report=True)
    assert [p.display(w) for w in res.words] == ["APPLE", "ZEBRA"]
    assert res.dropped[DUPLICATE] == 1 and res.dropped[CAPITAL] == 1
    assert res.lines == 4
    assert [(n, r) for n, r, _ in res.report] == [(5, DUPLICATE), (6, CAPITAL)]


def test_max_length_reported():
    p = Profile.builtin("en")
    p.max_length = 3
    assert p.normalise("abcd") == (None, TOO_LONG)


def test_nothing_dropped_silently():
    p = Profile.builtin("pl")
    lines = ["kot", "Kot", "kot", "x-y", "quiz", "", "# c", "pies"]
    res = normalise_lines(p, lines)
    assert len(res.words) + sum(res.dropped.values()) == res.lines == 6


# --- the bulk path on bytes gives what the per-entry rules give ----------------------------
_MIXED = ("kot\nKot\nżółw\nŻÓŁW\nzo\u0301lw\näpfel\nÄpfel\nÄ\nABC\naB\nß\nstraße\nquiz\n"
          "x-y\n\n# comment\n# A Comment\n   \n  Kot  \n  pies  \npies\nΣΟΦΊΑΣ\n?\n0\n12ab\nœuvre\nñu\nå\nÅl\nå\nøl\nære\nı\n"
          "a\nab\nabcdefghij\nchorro\nllama\nçà\n\u00e4\u0301\nmañana\nkanu\r\nkanu\n"
          "\u4e2d\nq\u0328\nzz\n")


@pytest.mark.parametrize("lang", ["de", "en", "nb", "pl"])   # es: tiles of two letters
                                                              # take the text path
@pytest.mark.parametrize("limits", [(None, None), (2, None), (1, 4), (3, 6)])
def test_bulk_bytes_path_agrees_with_the_entry_rules(lang, limits):
    """normalise_utf8 (chunks handled as bytes, lines found by patterns) and the text
    path (each line through Profile.normalise when it is off the bulk path) agree on
    the words, the counts and every report line, with and without length limits."""
    from wordlist_packer.normalise import normalise_text, normalise_utf8
    results = []
    for path in ("bytes", "text"):
        p = Profile.builtin(lang)
        if limits[0] is not None:
            p.min_length = limits[0]
        if limits[1] is not None:
            p.max_length = limits[1]
        text = _MIXED * 3
        if path == "bytes":
            res = normalise_utf8(p, ("\ufeff" + text).encode("utf-8"), want_report=True)
            assert res is not None
        else:
            res = normalise_text(p, text, want_report=True)
        results.append((res.words, dict(res.dropped), res.lines, res.report))
    assert results[0] == results[1]
    assert results[0][0]        # something was kept
