"""The command menu: which slash command becomes which table verb, and the
menu registered with set_my_commands (per ``MENU_LANGUAGES``: a language's
for the clients of its prefix, the default language's for everyone else)."""

from __future__ import annotations

from telegram import Bot, BotCommand

from bot.i18n import t
from bot.i18n.languages import COMMAND_LANGUAGE, LANGUAGES, REGISTRY
from bot.table.actions import Verb

# group command -> verb; the command's first word (if any) is the verb's arg
GROUP_COMMANDS: dict[str, Verb] = {
    "newgame": Verb.NEW,
    "join": Verb.JOIN,
    "leave": Verb.LEAVE,
    "startgame": Verb.START,
    "rules": Verb.RULES,
    "settings": Verb.SETTINGS,
    "leaderboard": Verb.LEADERBOARD,
    "stats": Verb.STATS,
    "language": Verb.LANGUAGE,
    "cancel": Verb.CANCEL,
    "verify": Verb.VERIFY,
    "replay": Verb.REPLAY,
    "rounds": Verb.SET_OPTION,  # /rounds N: the match length (局数), the only typed option
    "help": Verb.HELP,
}

# Telegram menus have one language per language_code (a prefix: "zh"
# covers every Chinese client, so one catalog of a prefix is the menu for all
# of them); a client whose code has no menu gets the default one.
MENU_LANGUAGES: tuple[tuple[str | None, str], ...] = (
    (None, COMMAND_LANGUAGE),
    *((language.prefix, language.code) for language in REGISTRY if language.telegram_menu),
)


def menu(language: str) -> list[BotCommand]:
    codes = "/".join(LANGUAGES)  # the language command's: zh-Hans/zh-Hant/en
    return [
        BotCommand(name, t(language, f"tg.cmd.{name}", languages=codes)) for name in GROUP_COMMANDS
    ]


async def register_menu(bot: Bot) -> None:
    for code, language in MENU_LANGUAGES:
        await bot.set_my_commands(menu(language), language_code=code)
