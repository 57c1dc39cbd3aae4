"""gammonbot on Discord: slash commands, restart-proof buttons, boards as channel messages."""

from bot.discord_app.adapter import DiscordAdapter

__all__ = ["DiscordAdapter"]
