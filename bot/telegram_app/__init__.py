"""Telegram: the bot in groups and private chats (python-telegram-bot 22.x)."""

from bot.telegram_app.adapter import TelegramAdapter

__all__ = ["TelegramAdapter"]
