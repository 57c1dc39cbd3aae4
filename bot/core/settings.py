"""A player's settings (the on/off switches, the board theme, the language, the next client
seed) and a chat's defaults (match length, language, organisers), changed by its
administrators."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.context import Context
from bot.core.model import Button, Message, Private
from bot.core.organisers import KEY as ORGANISERS
from bot.core.organisers import Organisers, organiser_names, split_organisers
from bot.core.people import mentioned_users
from bot.core.refusal import Refusal
from bot.core.runtime.time_source import TimeSource
from bot.core.text.i18n import N_, language_choices, normalize_locale, speech
from bot.core.text.player_text import isolated
from bot.core.tokens import Token, Verb, format_token
from storage import ChatRepository, Preferences, UserRepository


@dataclass(frozen=True)
class SettingsService:
    users: UserRepository
    chats: ChatRepository
    time: TimeSource

    # The on/off settings: a button's verb, the field of Preferences it switches (whose
    # default is the setting's) and the button's label.
    _SWITCHES: tuple[tuple[str, str, str], ...] = (
        (Verb.AUTO_ROLL, "auto_roll", N_("Auto-roll when I cannot double")),
        (Verb.AUTO_FORCED, "auto_forced", N_("Auto-play forced moves")),
        (Verb.CONFIRM_MOVES, "confirm_moves", N_("Confirm each move")),
        (Verb.NOTIFY, "notify", N_("Private notifications")),
    )

    async def show(self, context: Context, _argument: str) -> list[Message]:
        return [self._settings_message(context, context.user.prefs)]

    def _settings_message(self, context: Context, preferences: Preferences) -> Message:
        _ = context._
        buttons = []
        flags = preferences.to_json()
        for verb, key, label in self._SWITCHES:
            state = _("on") if flags[key] else _("off")
            token = format_token(Token(verb, "u", context.user.id, 0))
            buttons.append(Button(f"{_(label)}: {state}", token))
        theme = preferences.theme
        buttons.append(
            Button(
                _("Board: {theme}").format(theme=_("dark") if theme == "dark" else _("classic")),
                format_token(Token(Verb.THEME, "u", context.user.id, 0)),
            )
        )
        return Message(
            context.request.chat,
            _("Your settings (press to change):"),
            tuple(buttons),
            kind=Private(context.request.actor.user_id),
        )

    async def press(self, context: Context, token: Token) -> list[Message]:
        _ = context._
        if token.target != context.user.id:
            return context.refuse(_("These are someone else's settings."))
        changed: dict[str, object]
        if token.verb == Verb.THEME:
            changed = {"theme": "classic" if context.user.prefs.theme == "dark" else "dark"}
        else:
            key = {verb: key for verb, key, _label in self._SWITCHES}.get(token.verb)
            if key is None:
                return context.refuse(_("That button is out of date."))
            changed = {key: not context.user.prefs.to_json()[key]}
        updated = await self.users.set_preferences(context.user.id, changed)
        return [self._settings_message(context, updated.prefs)]

    async def chat_defaults(self, context: Context, argument: str) -> list[Message]:
        """``/defaults [length N | money] [language xx] [organisers=@name… | none]``: a chat
        admin's defaults (the core lets only administrators change them: see the registry's
        restriction)."""
        _ = context._
        if not argument.split():
            return context.refuse(await self._defaults_text(context))
        said, rest = split_organisers(argument)
        words = rest.lower().split()
        settings: dict[str, object] = {}
        if said is not None:
            settings[ORGANISERS] = (await self._organisers(context, said)).stored()
        pairs = dict(zip(words[::2], words[1::2], strict=False))
        if "length" in pairs:
            value = pairs["length"]
            if value == "money":
                settings["default_length"] = 0
            elif value.isascii() and value.isdigit() and 1 <= int(value) <= 25:
                settings["default_length"] = int(value)
            else:
                return context.refuse(_("A match length is 1 to 25, or money."))
        if "language" in pairs:
            chosen = normalize_locale(pairs["language"])
            if chosen is None:
                return context.refuse(
                    _("Choose one of: {choices}").format(choices=language_choices())
                )
            settings["language"] = chosen
        if not settings:
            return context.refuse(_("Use /defaults length 5 or /defaults language de."))
        await self.chats.update_chat(context.chat.id, settings=settings)
        _ = speech(str(settings.get("language") or context.chat_locale))  # in its new language
        return [Message(context.request.chat, _("The chat's defaults are updated."))]

    async def _defaults_text(self, context: Context) -> str:
        _ = context._
        length = context.chat.settings.get("default_length", 3)
        language = context.chat.settings.get("language") or "-"
        if not length:
            shown = _("This chat: money games by default, language {language}.").format(
                language=language
            )
        else:
            shown = _.ngettext(
                "This chat: matches of {length} point by default, language {language}.",
                "This chat: matches of {length} points by default, language {language}.",
                int(str(length)),
            ).format(length=length, language=language)
        names = await organiser_names(context, self.users)
        if names:
            shown += "\n" + _(
                "Besides its administrators, these open and run tournaments: {organisers}."
            ).format(organisers=names)
        return shown

    async def _organisers(self, context: Context, said: str) -> Organisers:
        """The organisers ``/defaults organisers=…`` names: none, or those it mentions."""
        if said == "none":
            return Organisers()
        named = Organisers(
            tuple(user.id for user in await mentioned_users(context, self.users)),
            context.request.roles[0] if context.request.roles else None,
        )
        if not named:
            raise Refusal(
                context._(
                    "Name the organisers: /defaults organisers=@name @name, on Discord a role "
                    "too (@role); /defaults organisers=none names none."
                )
            )
        return named

    async def language(self, context: Context, argument: str) -> list[Message]:
        chosen = normalize_locale(argument.strip())
        if chosen is None:
            return context.refuse(
                context._("Choose one of: {choices}").format(choices=language_choices())
            )
        await self.users.set_preferences(context.user.id, {"language": chosen})
        if context.request.chat.private:  # the chat is theirs alone: it speaks their language
            await self.chats.update_chat(context.chat.id, settings={"language": chosen})
        _ = speech(chosen)
        return [
            Message(
                context.request.chat,
                _("I will speak English with you."),
                kind=Private(context.request.actor.user_id),
                locale=chosen,
            )
        ]

    async def seed(self, context: Context, argument: str) -> list[Message]:
        _ = context._
        seed = " ".join(argument.split())[:64]
        if not seed:
            return context.refuse(_("Give your seed after /seed, e.g. /seed lucky-7."))
        await self.users.set_next_seed(context.user.id, seed, self.time())
        return context.refuse(
            _(
                "Your client seed is “{seed}”. It counts for the next match you start from a "
                "challenge that is already posted: choose it after you have seen the "
                "challenge's dice commitment and before the match starts."
            ).format(seed=isolated(seed))
        )
