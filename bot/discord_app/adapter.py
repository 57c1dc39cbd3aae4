"""The Discord adapter: interactions in, core requests through, Discord messages out.

Nothing here decides anything about backgammon: every interaction is acknowledged at once
(``defer()``, well inside Discord's 3 seconds), turned into a :class:`bot.core.model.Request`
with the true actor, answered by the core, and the answer posted by
:class:`bot.discord_app.posting.Poster`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import discord
from discord import app_commands

from bot.config import Settings
from bot.core import registry
from bot.core.model import Actor, ChatRef, Message, Request
from bot.core.ports import ChatFrontEnd
from bot.core.text.i18n import first_locale, speech
from bot.discord_app.admins import (
    ROLE_MENTION,
    SeenPermissions,
    as_role,
    held_roles,
    interaction_admin,
    mentioned_roles,
    message_admin,
)
from bot.discord_app.buttons import ActionButton
from bot.discord_app.commands import build_commands
from bot.discord_app.posting import NO_MENTIONS, PLATFORM, Poster
from bot.discord_app.threads import DiscordThreads
from bot.discord_app.translation import CatalogTranslator

logger = logging.getLogger(__name__)

READY_TIMEOUT: Final = 60.0
STOP_GRACE: Final = 10.0
_COMMANDS: Final = registry.NAMES  # what the text fallback reads as a command
_USER_MENTION: Final = re.compile(r"<@!?(\d{1,20})>")


def make_actor(user: discord.abc.User, locale: discord.Locale | None = None) -> Actor:
    return Actor(PLATFORM, str(user.id), user.display_name, str(locale) if locale else None)


def chat_of(interaction: discord.Interaction[Any]) -> ChatRef:
    return ChatRef(
        PLATFORM,
        str(interaction.channel_id),
        private=interaction.guild_id is None,
        locale=str(interaction.guild_locale) if interaction.guild_locale else None,
    )


def _gettext(interaction: discord.Interaction[Any]) -> Callable[[str], str]:
    """The user's Discord language (the core answers in the language chosen with /language;
    the few texts of the adapter itself follow the client)."""
    return speech(first_locale(str(interaction.locale)))


class _Handlers:
    """What both client classes do: commands, buttons, the text fallback."""

    adapter: DiscordAdapter
    tree: app_commands.CommandTree[Any]

    async def setup_hook(self) -> None:
        # May run again (a client started once more after a stop): every step is idempotent.
        client: Any = self
        client.add_dynamic_items(ActionButton)
        await self.adapter.sync_commands()

    async def press(self, interaction: discord.Interaction[Any], token: str) -> None:
        await self.adapter.answer(interaction, token=token)

    async def on_message(self, message: discord.Message) -> None:
        await self.adapter.on_message(message)


class GammonClient(_Handlers, discord.Client):
    pass


class ShardedGammonClient(_Handlers, discord.AutoShardedClient):
    pass


class DiscordAdapter:
    """:class:`bot.hosting.Adapter` for Discord."""

    platform = PLATFORM

    def __init__(
        self,
        core: ChatFrontEnd,
        *,
        settings: Settings,
        client_options: Mapping[str, Any] | None = None,
    ) -> None:
        """``client_options`` go to the discord.py client as they are (tests shorten its
        ``guild_ready_timeout``)."""
        self.core = core
        self.settings = settings
        discord.VoiceClient.warn_nacl = False  # no voice here: no warning about PyNaCl
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads, for links and permissions
        intents.guild_messages = True  # the mention-prefixed text fallback
        intents.dm_messages = True  # moves typed in a DM
        options: dict[str, Any] = {"intents": intents, "allowed_mentions": NO_MENTIONS}
        options.update(client_options or {})
        shards = settings.discord_shards
        if shards is not None:  # this process runs some of the shards, others run the rest
            options["shard_count"], options["shard_ids"] = shards[0], list(shards[1])
        sharded = settings.discord_sharded or shards is not None
        client_class = ShardedGammonClient if sharded else GammonClient
        self.client: GammonClient | ShardedGammonClient = client_class(**options)
        self.client.adapter = self
        self.tree: app_commands.CommandTree[Any] = app_commands.CommandTree(self.client)
        self.client.tree = self.tree
        self.tree.on_error = self._command_error  # type: ignore[method-assign]
        for command in build_commands(self.run_command, self.suggest):
            self.tree.add_command(command)
        self.poster = Poster(self.client, core)
        self.permissions = SeenPermissions()  # the core's port: who administers a server
        core.register_admins(PLATFORM, self.permissions, roles=self.permissions)
        core.register_threads(PLATFORM, DiscordThreads(self.client))  # a pairing's own thread
        self._running: asyncio.Task[None] | None = None
        self._answering: set[asyncio.Task[Any]] = set()  # finished before stopping
        self._synced = False

    # --- Adapter -------------------------------------------------------------------------

    async def start(self) -> None:
        """Log in (setup_hook registers buttons and syncs commands), connect, wait for READY."""
        token = self.settings.discord_token
        if token is None:
            raise RuntimeError("DISCORD_TOKEN is not set")
        await self.client.login(token.get_secret_value())
        await self.register_account()
        self._running = asyncio.create_task(self.client.connect(reconnect=True))
        ready = asyncio.create_task(self.client.wait_until_ready())
        done, _pending = await asyncio.wait(
            {self._running, ready}, timeout=READY_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if self._running in done:
                self._running.result()  # raises why the connection ended
            raise TimeoutError("Discord did not become ready")

    async def deliver(self, messages: Sequence[Message]) -> None:
        await self.poster.deliver(messages)

    async def settled(self, timeout: float = STOP_GRACE) -> None:
        """Wait until every interaction under way has been answered (at most ``timeout``)."""
        if self._answering:
            await asyncio.wait(set(self._answering), timeout=timeout)

    async def stop(self) -> None:
        """Let the answers under way finish (briefly), then disconnect."""
        await self.settled()
        await self.client.close()
        if self._running is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._running

    # --- registration --------------------------------------------------------------------

    async def register_account(self) -> None:
        """Tell the core which account the bot runs as (known once logged in): the player in
        matches against the bot, and whom ``/challenge @gammonbot`` means."""
        me = self.client.user
        if me is not None:
            await self.core.register_bot(PLATFORM, str(me.id), me.display_name or me.name)

    def is_me(self, user: discord.abc.User) -> bool:
        me = self.client.user
        return me is not None and user.id == me.id

    async def sync_commands(self) -> None:
        """Register the commands with Discord once per process; with a guild id, on that
        server (at once, for testing) instead of globally (up to an hour)."""
        await self.tree.set_translator(CatalogTranslator())
        if self._synced or not self._syncs_commands():
            return
        guild_id = self.settings.discord_guild_id
        if guild_id is not None:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self._synced = True

    def _syncs_commands(self) -> bool:
        """Whether this process registers the commands: of several processes sharing the
        shards, the one that runs shard 0 (the commands are the bot's, not a shard's)."""
        shards = self.settings.discord_shards
        return shards is None or 0 in shards[1]

    # --- interactions --------------------------------------------------------------------

    async def run_command(
        self,
        interaction: discord.Interaction[Any],
        command: str,
        argument: str,
        mentions: tuple[discord.abc.User, ...],
        roles: tuple[discord.Role, ...] = (),
    ) -> None:
        if self._other_bots(mentions):
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(
                    _bots_cannot_play(_gettext(interaction)), ephemeral=True
                )
            return
        await self.answer(
            interaction, command=command, argument=argument, mentions=mentions, roles=roles
        )

    def _other_bots(self, users: Sequence[discord.abc.User]) -> bool:
        """Whether another bot is mentioned: it would never press [Accept]. This bot itself
        is an opponent (``/challenge opponent:@gammonbot`` starts a match against it)."""
        return any(user.bot and not self.is_me(user) for user in users)

    async def answer(
        self,
        interaction: discord.Interaction[Any],
        *,
        command: str | None = None,
        argument: str = "",
        token: str | None = None,
        mentions: tuple[discord.abc.User, ...] = (),
        roles: tuple[discord.Role, ...] = (),
    ) -> None:
        """Acknowledge first, then let the core answer and post what it says."""
        task = asyncio.current_task()
        if task is not None:
            self._answering.add(task)
            task.add_done_callback(self._answering.discard)
        thinking = token is None
        try:
            if thinking:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()  # the clicked message stays as it is
        except discord.HTTPException:
            logger.warning("interaction %s expired before it was acknowledged", interaction.id)
            return
        try:
            request = Request(
                make_actor(interaction.user, interaction.locale),
                chat_of(interaction),
                command=command,
                argument=argument,
                token=token,
                event_id=str(interaction.id),
                mentions=tuple(make_actor(user) for user in mentions),
                roles=tuple(as_role(role) for role in roles),
            )
            self.permissions.note(
                request.chat.chat_id,
                request.actor.user_id,
                interaction_admin(interaction),
                held_roles(interaction.user),
            )
            if request.chat.private:
                await self.core.delivery.mark_unreachable(request.actor, unreachable=False)
            messages = await self.core.handle(request)
            await self.poster.answer(interaction, messages, thinking=thinking)
        except Exception:
            logger.exception(
                "interaction %s (%s) in channel %s failed",
                interaction.id,
                command or "button",
                interaction.channel_id,
            )
            await self._apologise(interaction)

    async def _apologise(self, interaction: discord.Interaction[Any]) -> None:
        _ = _gettext(interaction)
        with contextlib.suppress(Exception):  # e.g. the connection is closing
            await interaction.followup.send(
                _("Sorry, something went wrong. Please try again."), ephemeral=True
            )

    async def _command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        logger.error(
            "command %s failed in channel %s",
            interaction.command.name if interaction.command else "?",
            interaction.channel_id,
            exc_info=error,
        )
        if not interaction.response.is_done():
            _ = _gettext(interaction)
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(
                    _("Sorry, something went wrong. Please try again."), ephemeral=True
                )
        else:
            await self._apologise(interaction)

    async def suggest(self, interaction: discord.Interaction[Any], typed: str) -> list[str]:
        """Autocomplete for /move: the caller's legal plays (an empty list on any trouble)."""
        try:
            return await self.core.suggest_moves(
                make_actor(interaction.user, interaction.locale), chat_of(interaction), typed
            )
        except Exception:
            logger.exception("move suggestions failed in channel %s", interaction.channel_id)
            return []

    # --- the text fallback ---------------------------------------------------------------

    async def on_message(self, message: discord.Message) -> None:
        """``@gammonbot 13/10* 6/5`` in a server (Discord hands us the text of messages that
        mention the bot, no privileged intent needed), or any text in a DM with the bot."""
        me = self.client.user
        if me is None or message.author.bot:
            return
        private = message.guild is None
        text = message.content.strip()
        if not private:
            prefix = _USER_MENTION.match(text)
            if prefix is None or prefix.group(1) != str(me.id):
                return
            text = text[prefix.end() :].strip()
        if not text:
            return
        try:
            await self._typed(message, text, private)
        except Exception:
            logger.exception("message %s in channel %s failed", message.id, message.channel.id)

    async def _typed(self, message: discord.Message, text: str, private: bool) -> None:
        author = message.author
        chat = ChatRef(
            PLATFORM,
            str(message.channel.id),
            private=private,
            locale=str(message.guild.preferred_locale) if message.guild else None,
        )
        word, _space, rest = text.partition(" ")
        name = word.removeprefix("/").lower()
        mentioned = _mentioned_in(rest, message.mentions, self.client.user)
        actor = make_actor(author)
        if name in _COMMANDS and self._other_bots(mentioned):
            await message.reply(
                _bots_cannot_play(speech(first_locale(chat.locale))),
                allowed_mentions=discord.AllowedMentions.none(),
                mention_author=False,
            )
            return
        mentions = tuple(make_actor(user) for user in mentioned)
        self.permissions.note(
            chat.chat_id, actor.user_id, message_admin(message), held_roles(author)
        )
        if name in _COMMANDS:
            apart = ROLE_MENTION.sub(" ", _USER_MENTION.sub(" ", rest))  # mentions apart
            request = Request(
                actor,
                chat,
                command=name,
                argument=" ".join(apart.split()),
                event_id=str(message.id),
                mentions=mentions,
                roles=mentioned_roles(rest, message.role_mentions),
            )
        else:
            request = Request(actor, chat, text=text, event_id=str(message.id))
        if private:
            await self.core.delivery.mark_unreachable(actor, unreachable=False)
        await self.poster.reply_all(message, await self.core.handle(request), private)


def _bots_cannot_play(_: Callable[[str], str]) -> str:
    return _("Bots cannot play. Challenge a person, or anyone here.")


def _mentioned_in(
    text: str, users: Sequence[discord.abc.User], me: discord.abc.User | None
) -> tuple[discord.abc.User, ...]:
    """The users a message mentions, each once: first those ``text`` mentions, in its order,
    then the others Discord names (the author of a message replied to), except the bot.

    ``text`` is what follows the mention that addressed the bot, so a further mention of the
    bot in it (``@gammonbot challenge @gammonbot``) is the bot as the opponent. Discord lists
    each mentioned user once and in no particular order: the text says who comes first."""
    by_id = {user.id: user for user in users}
    found: dict[int, discord.abc.User] = {}
    for mention in _USER_MENTION.finditer(text):
        user = by_id.get(int(mention.group(1)))
        if user is not None:
            found.setdefault(user.id, user)
    for user in users:
        if me is None or user.id != me.id:
            found.setdefault(user.id, user)
    return tuple(found.values())
