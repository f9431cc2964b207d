# No text is cut: every UI text of every language fits the panel at the size and in
# the room it is drawn (render.typeset's widths; SMALL is 8 pixels a character), with
# its %d / %s filled with the longest value it takes.  A new text key must say here
# where it is drawn, else the coverage test fails.  The verdict is drawn in the largest
# size its longest translation fits.

import i18n
from render import player, typeset

LANGS = i18n.LANGUAGES
SMALL, MEDIUM, LARGE, XLARGE = typeset.SMALL, typeset.MEDIUM, typeset.LARGE, typeset.XLARGE
PANEL = 128

# package -> {key: (size, room in pixels)}; SMALL lines have 16 characters
_TOP = (MEDIUM, player.TOP_WIDTH)          # a player's state line
_SMALL = (SMALL, PANEL)
PLACES = {
    "clock": {key: _TOP for key in ("overtime", "pause", "challenge", "hold", "forfeit",
                                    "game_over", "late", "lent", "window", "reset_confirm",
                                    "accepted", "withdrawn", "penalty", "move", "time_up")},
    "app": dict({key: _SMALL for key in (
        "recovered_note", "recovered_wdt", "recovered_sleep", "not_recovered", "config_bad",
        "selftest", "press", "key", "done", "missing", "skip", "game_saved", "charge_hint",
        "resume_hint", "preset_next", "log_full", "not_saving", "wake_power", "wake_pause",
        "wake_other", "wake_watchdog", "wake_reset", "referee_called")},
        # a storage fault's mark: beside the battery on the idle screen's title row, four
        # characters at most, so that a title keeps 11 of its 16 (flow._neutral_lines)
        mark_log_full=(SMALL, 8 * 4), mark_not_saving=(SMALL, 8 * 4),
        recovered=_TOP, battery_low=_TOP, battery_empty=_TOP,
        opponent=(MEDIUM, player.OPPONENT_WIDTH)),
    "terminal": None,      # every key SMALL, but for the ones below
}
TERMINAL_SPECIAL = {"acceptable": (LARGE, PANEL), "not_acceptable": (LARGE, PANEL)}


def _sides(lang):
    t = i18n.table("terminal", lang)
    return max((t["side_0"], t["side_1"]), key=len)


def _filled(package, key, text, lang):
    """The text with its placeholders filled by the longest values they take."""
    fills = {
        ("terminal", "word_n"): (8, 8), ("terminal", "list"): ("pl",),
        ("terminal", "penalty"): (990,), ("terminal", "clock_runs"): (_sides(lang),),
        ("terminal", "locked"): (900,), ("terminal", "set_lang"): ("de",),
        ("terminal", "set_verdict"): (60,), ("terminal", "set_preset"): ("naspa_nwl",),
        ("terminal", "forfeit_by"): (_sides(lang),), ("terminal", "menu_resume"): (_sides(lang),),
        ("app", "preset_next"): ("naspa_nwl",),
        ("clock", "move"): (99,), ("terminal", "moves_n"): (99,),
        ("terminal", "set_move"): (9, 59), ("terminal", "withdraw_press"): (_sides(lang),),
        ("terminal", "g_lend"): (_sides(lang),), ("terminal", "g_turn"): (_sides(lang),),
        ("terminal", "score_of"): (_sides(lang),),
    }
    args = fills.get((package, key))
    if args is None:
        assert "%" not in text, (package, key, lang, "a placeholder this test does not fill")
        return text
    return text % args


def _width(text, size):
    return 8 * len(text) if size == SMALL else typeset.width(text, size)


def _place(package, key):
    if package == "terminal":
        return TERMINAL_SPECIAL.get(key, _SMALL)
    return PLACES[package][key]


def test_every_key_of_every_package_has_a_place():
    for package in ("clock", "app"):
        keys = set(i18n.table(package, "en"))
        assert keys == set(PLACES[package]), (package, keys ^ set(PLACES[package]))


def test_every_text_fits_where_it_is_drawn():
    too_wide = []
    for package in i18n.PACKAGES:
        for lang in LANGS:
            for key, text in i18n.table(package, lang).items():
                size, room = _place(package, key)
                for line in _filled(package, key, text, lang).split("\n"):
                    if _width(line, size) > room:
                        too_wide.append((package, key, lang, line, _width(line, size), room))
    assert not too_wide, too_wide


def test_the_result_lines_fit_with_three_digit_penalties():
    for lang in LANGS:
        t = i18n.table("terminal", lang)
        for key in ("pen_overtime", "pen_challenge"):
            assert len(t[key]) + 1 + len("-990") <= 16, (lang, key)


def test_the_score_table_fits_with_four_digit_scores_and_three_digit_penalties():
    # terminal.scores.result_lines: a label, then both sides' values 4 wide (a tab
    # between: one column of the 16)
    for lang in LANGS:
        t = i18n.table("terminal", lang)
        for key in ("col_sheet", "col_time", "col_chal", "col_final"):
            assert len(t[key]) + 1 + len("9999 -990") <= 16, (lang, key)
        assert len(t["result_title"]) + 1 + len("   L    R") <= 16, lang
        # the entry's title: the side and its time (terminal.scores.lines)
        assert len(t["result_title"]) + 1 + len("L -99:59") <= 16, lang


def test_the_verdict_is_in_the_largest_size_its_longest_translation_fits():
    words = [i18n.table("terminal", lang)[key] for lang in LANGS
             for key in ("acceptable", "not_acceptable")]
    longest = max(words, key=lambda w: typeset.width(w, XLARGE))
    assert typeset.width(longest, XLARGE) > PANEL, longest      # the next size would cut it
    for word in words:
        assert typeset.width(word, LARGE) <= PANEL, word


def test_every_character_of_the_pixel_font_texts_has_a_glyph():
    missing = []
    for package in i18n.PACKAGES:
        for lang in LANGS:
            for key, text in i18n.table(package, lang).items():
                if _place(package, key)[0] == SMALL:
                    continue
                for ch in _filled(package, key, text, lang):   # as drawn
                    if ch != "\n" and typeset.glyph(ch) == 255:
                        missing.append((package, key, lang, ch))
    assert not missing, missing
