"""The languages the bot speaks: the one list every other module reads.

A language is an entry of ``REGISTRY`` and a catalog folder
``locales/<code>/`` (every area file, every key; tests/views/test_catalog.py
says what is missing). Nothing else names a language: the settings' choices
and summaries, the config's and the command line's choices, the Discord
locales and command choices, the Telegram menus, the page's words and the
reading of a client's language code (``zh-TW``, ``en-US``, ``zh_CN``) all
derive from this list, and tests/test_languages.py fails on a language code
written anywhere else in ``bot/``.

The pictures draw every language with one font, the subsets in
``bot/pictures/fonts`` (Latin, Greek, Cyrillic, kana, CJK): a language
whose catalog has a character outside them needs ``tools/subset_fonts.py``
run again (tests/pictures/test_fonts.py names the missing glyph).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    code: str
    """The catalog's folder and a room's language (``zh-Hans``)."""
    name: str
    """Its name in itself, in the settings' summary (``简体中文``)."""
    short: str
    """Its button on the settings panel (``简体``)."""
    prefix: str
    """What a client's language code starts with to mean it (``zh``)."""
    markers: tuple[str, ...] = ()
    """Of the languages sharing a prefix, the one whose marker the code
    holds (``zh-TW`` -> ``tw``); the one without markers is the rest."""
    discord_locales: tuple[str, ...] = ()
    """The Discord locales whose slash commands are named from its catalog."""
    telegram_menu: bool = False
    """Whether Telegram clients whose language code is ``prefix`` get the
    command menu from its catalog (the rest get ``COMMAND_LANGUAGE``'s)."""


REGISTRY: tuple[Language, ...] = (
    Language(
        "zh-Hans",
        "简体中文",
        "简体",
        "zh",
        discord_locales=("zh-CN",),
        telegram_menu=True,
    ),
    Language(
        "zh-Hant",
        "繁體中文",
        "繁體",
        "zh",
        markers=("tw", "hk", "mo", "hant"),
        discord_locales=("zh-TW",),
    ),
    Language("en", "English", "English", "en", discord_locales=("en-US", "en-GB")),
)

DEFAULT_LANGUAGE = "zh-Hans"
"""A room's, the config's and the command line's language when none is
given, and a client's when its code names no language of ours."""
COMMAND_LANGUAGE = "en"
"""The default names of the commands (Discord's, Telegram's menu)."""
FALLBACKS: tuple[str, ...] = (DEFAULT_LANGUAGE, COMMAND_LANGUAGE)
"""Where a key missing in a language's catalog is looked up, in order."""

LANGUAGES: tuple[str, ...] = tuple(language.code for language in REGISTRY)
BY_CODE: dict[str, Language] = {language.code: language for language in REGISTRY}


def _clean(code: str) -> str:
    return code.replace("_", "-").lower()


def is_language(code: str) -> bool:
    """Whether a client's or a player's code names a language of ours
    (``en-GB``, ``zh_TW``, ``zh-Hant``): it starts with a prefix."""
    return _clean(code).startswith(tuple(language.prefix for language in REGISTRY))


def normalize_language(code: str | None) -> str:
    """Map a client language code (``zh-TW``, ``en-US``, ``zh_CN``) to a catalog."""
    if not code:
        return DEFAULT_LANGUAGE
    c = _clean(code)
    sharing = [language for language in REGISTRY if c.startswith(language.prefix)]
    for language in sharing:
        if any(marker in c for marker in language.markers):
            return language.code
    for language in sharing:
        if not language.markers:
            return language.code
    return DEFAULT_LANGUAGE


def listed(separator: str = ", ") -> str:
    """The codes, for a help line (``zh-Hans, zh-Hant, en``)."""
    return separator.join(LANGUAGES)
