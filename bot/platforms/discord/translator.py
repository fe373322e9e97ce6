"""Localized slash-command names and descriptions from the message catalogs.

Every name/description is a ``locale_str`` whose ``key`` extra names a
``dc.cmd.*`` catalog entry; discord.py asks this translator for each Discord
locale when it syncs the command tree.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import catalog
from bot.i18n.languages import COMMAND_LANGUAGE, REGISTRY

LOCALES: dict[discord.Locale, str] = {
    discord.Locale(locale): language.code
    for language in REGISTRY
    for locale in language.discord_locales
}


def cmd(key: str) -> app_commands.locale_str:
    """A command string: the default language's catalog text (English),
    translated per locale."""
    return app_commands.locale_str(catalog(COMMAND_LANGUAGE)[key], key=key)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        language = LOCALES.get(locale)
        if not key or language is None:
            return None
        # No cross-language fallback here: a missing key leaves Discord's default.
        return catalog(language).get(key)
