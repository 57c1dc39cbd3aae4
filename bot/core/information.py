"""Information and preferences: boards, match lists, help, rules, settings, languages,
seeds, transcripts and exports."""

from __future__ import annotations

from dataclasses import replace

from bot.core import registry, rules_text
from bot.core.context import Context
from bot.core.i18n import LOCALES, normalize_locale, translator
from bot.core.model import Button, Message
from bot.core.playing import PlayCommands
from bot.core.tokens import Token, format_token
from storage import (
    LoadedMatch,
    Preferences,
)


class InfoCommands(PlayCommands):
    async def _board_command(self, context: Context, _argument: str) -> list[Message]:
        """The board again, where it was asked for (in a private chat: the match that waits
        for the caller). A match that waits for its opening roll is rolled first."""
        found = await self._addressed_match(context)
        if isinstance(found, list):
            return found
        in_match, match_id = found
        async with self._lock(match_id):
            loaded = await self.matches.load_match(match_id)
            resumed, loaded = await self._resume(in_match, loaded)
        if resumed and in_match is context:
            return resumed
        players = await self._names(loaded)
        board = await self.presenter.prompt(context, loaded, players, None)
        if context.request.chat.private:  # a look for the caller: nobody else is pinged
            board = replace(board, mention=(), notify=())
        return [*resumed, board]

    async def _matches_command(self, context: Context, _argument: str) -> list[Message]:
        _ = context._
        infos = await self.matches.active_matches_of(context.user.id)
        if not infos:
            return context.refuse(_("You have no active matches."))
        lines = [_("Your active matches:")]
        for info in infos:
            loaded = await self.matches.load_match(info.id)
            players = await self._names(loaded)
            me = info.player_index(context.user.id) or 0
            opponent = players[1 - me].display_name
            if info.turn_user_id is None:
                turn = _("waiting for the opening roll")
            elif info.turn_user_id == context.user.id:
                turn = _("your turn")
            else:
                turn = _("{name}'s turn").format(name=opponent)
            left = ""
            if info.deadline is not None:
                hours = max(0, (info.deadline - self.clock()).total_seconds() / 3600)
                left = " · " + _("{hours} h left").format(hours=round(hours))
            lines.append(
                _("Match {id} vs {name}: {mine}–{theirs}, {turn}").format(
                    id=info.id,
                    name=opponent,
                    mine=loaded.state.score[me],
                    theirs=loaded.state.score[1 - me],
                    turn=turn,
                )
                + left
            )
        return context.refuse("\n".join(lines))

    async def _help(self, context: Context, _argument: str) -> list[Message]:
        _ = context._
        lines = [_("gammonbot plays backgammon and long nardy in this chat.")]
        lines += [_(command.help) for command in registry.COMMANDS if command.help]
        text = "\n".join(lines)
        return [Message(context.request.chat, text, private_to=context.request.actor.user_id)]

    # The on/off settings: a button's verb and the field of Preferences it switches (whose
    # default is the setting's).
    _SETTINGS: tuple[tuple[str, str], ...] = (
        ("autoroll", "auto_roll"),
        ("forced", "auto_forced"),
        ("confirmmoves", "confirm_moves"),
        ("notify", "notify"),
    )

    async def _settings(self, context: Context, _argument: str) -> list[Message]:
        return [self._settings_message(context, context.user.prefs)]

    def _settings_message(self, context: Context, preferences: Preferences) -> Message:
        _ = context._
        labels = {
            "autoroll": _("Roll by myself when I cannot double"),
            "forced": _("Play forced moves by myself"),
            "confirmmoves": _("Confirm each move"),
            "notify": _("Private notifications"),
        }
        buttons = []
        flags = preferences.to_json()
        for verb, key in self._SETTINGS:
            state = _("on") if flags[key] else _("off")
            token = format_token(Token(verb, "u", context.user.id, 0))
            buttons.append(Button(f"{labels[verb]}: {state}", token))
        theme = preferences.theme
        buttons.append(
            Button(
                _("Board: {theme}").format(theme=_("dark") if theme == "dark" else _("classic")),
                format_token(Token("theme", "u", context.user.id, 0)),
            )
        )
        return Message(
            context.request.chat,
            _("Your settings (press to change):"),
            tuple(buttons),
            private_to=context.request.actor.user_id,
        )

    async def _toggle(self, context: Context, token: Token) -> list[Message]:
        _ = context._
        if token.target != context.user.id:
            return context.refuse(_("These are someone else's settings."))
        changed: dict[str, object]
        if token.verb == "theme":
            changed = {"theme": "classic" if context.user.prefs.theme == "dark" else "dark"}
        else:
            key = dict(self._SETTINGS).get(token.verb)
            if key is None:
                return context.refuse(_("That button is out of date."))
            changed = {key: not context.user.prefs.to_json()[key]}
        updated = await self.users.set_preferences(context.user.id, changed)
        return [self._settings_message(context, updated.prefs)]

    async def _chat_defaults(self, context: Context, argument: str) -> list[Message]:
        """``/defaults [length N | money] [language en|de]``: a chat admin's defaults."""
        _ = context._
        words = argument.lower().split()
        if not words:
            length = context.chat.settings.get("default_length", 3)
            language = context.chat.settings.get("language") or "-"
            return context.refuse(
                _("This chat: matches of {length} points by default, language {language}.").format(
                    length=length or _("money"), language=language
                )
            )
        if not context.request.admin:
            return context.refuse(_("Only an administrator of this chat can change its defaults."))
        settings: dict[str, object] = {}
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
                    _("Choose one of: {choices}").format(choices=", ".join(LOCALES))
                )
            settings["language"] = chosen
        if not settings:
            return context.refuse(_("Use /defaults length 5 or /defaults language de."))
        await self.chats.update_chat(context.chat.id, settings=settings)
        return [Message(context.request.chat, _("The chat's defaults are updated."))]

    async def _rules(self, context: Context, argument: str) -> list[Message]:
        _ = context._
        chapter = rules_text.find_chapter(argument or "overview")
        if chapter is None:
            topics = ", ".join(item.topic.replace(" ", "") for item in rules_text.CHAPTERS)
            return context.refuse(_("I know these chapters: {topics}").format(topics=topics))
        title = rules_text.chapter_title(_, chapter)
        text = f"{title}\n{rules_text.chapter_text(_, chapter)}"
        view = rules_text.chapter_view(chapter)
        image = None
        if view is not None:
            highlight = rules_text.chapter_highlight(chapter)
            image = await self._render(context, view, [_("White"), _("Black")], highlight, 0)
        return [Message(context.request.chat, text, image=image, board=view)]

    async def _language(self, context: Context, argument: str) -> list[Message]:
        chosen = normalize_locale(argument.strip())
        if chosen is None:
            return context.refuse(
                context._("Choose one of: {choices}").format(choices=", ".join(LOCALES))
            )
        await self.users.set_preferences(context.user.id, {"language": chosen})
        _ = translator(chosen).gettext
        return [
            Message(
                context.request.chat,
                _("I will speak English with you."),
                private_to=context.request.actor.user_id,
                locale=chosen,
            )
        ]

    async def _seed(self, context: Context, argument: str) -> list[Message]:
        _ = context._
        seed = " ".join(argument.split())[:64]
        if not seed:
            return context.refuse(_("Give your seed after /seed, e.g. /seed lucky-7."))
        await self.users.set_next_seed(context.user.id, seed, self.clock())
        return context.refuse(
            _(
                "Your client seed is “{seed}”. It counts for the next match you start from a "
                "challenge that is already posted: choose it after you have seen the "
                "challenge's dice commitment and before the match starts."
            ).format(seed=seed)
        )

    async def _latest(self, context: Context) -> LoadedMatch | None:
        found = await self.matches.latest_match_for(context.chat.id, context.user.id)
        return await self.matches.load_match(found.id) if found else None

    async def _verify(self, context: Context, _argument: str) -> list[Message]:
        _ = context._
        loaded = await self._latest(context)
        if loaded is None:
            return context.refuse(_("You have no match in this chat. Start one with /challenge."))
        if loaded.info.status == "active":
            return context.refuse(
                _(
                    "Match {id} is still being played. Its dice commitment is {commitment}; "
                    "the seed is revealed when the match ends."
                ).format(id=loaded.info.id, commitment=loaded.info.dice_commitment)
            )
        players = await self._names(loaded)
        seed = await self.dice.reveal_seed(loaded.info.id)
        files = await self.presenter.files(
            loaded, [player.display_name for player in players], seed
        )
        text = _("The transcript of match {id}. Check it with: gammonbot verify FILE").format(
            id=loaded.info.id
        )
        return [
            Message(
                context.request.chat,
                text,
                attachments=files[:1],
                private_to=context.request.actor.user_id,
            )
        ]

    async def _export(self, context: Context, _argument: str) -> list[Message]:
        _ = context._
        loaded = await self._latest(context)
        if loaded is None:
            return context.refuse(_("You have no match in this chat. Start one with /challenge."))
        players = await self._names(loaded)
        files = [
            file
            for file in await self.presenter.files(
                loaded, [player.display_name for player in players], None
            )
            if file.filename.endswith(".mat")
        ]
        if not files:
            return context.refuse(_("Money games cannot be exported to a .mat file."))
        return [
            Message(
                context.request.chat,
                _("Match {id} for GNU Backgammon and eXtreme Gammon.").format(id=loaded.info.id),
                attachments=tuple(files),
                private_to=context.request.actor.user_id,
            )
        ]
