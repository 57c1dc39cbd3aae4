"""Settings from the environment or a ``.env`` file, read and validated once at start.

Tokens are never logged: they are ``SecretStr`` values whose ``repr`` hides them.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from storage import DEFAULT_URL


class Settings(BaseSettings):
    """Every setting of the bot; see ``.env.example`` for a commented list."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str = Field(
        default=DEFAULT_URL,
        description="SQLAlchemy URL of the database; the default is a SQLite file here.",
    )
    discord_token: SecretStr | None = Field(default=None, description="Discord bot token.")
    telegram_token: SecretStr | None = Field(default=None, description="Telegram bot token.")
    console_image_dir: Path = Field(
        default=Path("boards"), description="Where the console chat writes board pictures."
    )


def load_settings() -> Settings:
    return Settings()
