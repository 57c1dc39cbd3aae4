"""Settings from the environment or a ``.env`` file, read and validated once at start.

Tokens are never logged: they are ``SecretStr`` values whose ``repr`` hides them. A setting
that cannot be used is refused here, so the command line names it in one line instead of
failing later with a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, Self
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_core import PydanticCustomError
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from storage import DEFAULT_URL
from storage.database import describe_database, driver_problem, sqlite_path, url_problem

ENV_FILE = ".env"
_URL_EXAMPLES = "e.g. sqlite:///gammonbot.db or postgresql://user@host/name"
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
_LOG_LEVELS: tuple[LogLevel, ...] = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class Settings(BaseSettings):
    """Every setting of the bot; see ``.env.example`` for a commented list."""

    model_config = SettingsConfigDict(env_file=ENV_FILE, env_file_encoding="utf-8", extra="ignore")

    database_url: str = Field(
        default=DEFAULT_URL,
        description="The database: a SQLite file (sqlite:///FILE, a relative path is taken "
        "from the current folder) or PostgreSQL (postgresql://USER@HOST/NAME, needs "
        "gammonbot[postgresql]).",
    )
    discord_token: SecretStr | None = Field(
        default=None, description="Discord bot token; gammonbot run then starts on Discord."
    )
    telegram_token: SecretStr | None = Field(
        default=None, description="Telegram bot token; gammonbot run then starts on Telegram."
    )
    discord_guild_id: int | None = Field(
        default=None,
        description="A Discord server to sync the commands to at once (for testing); "
        "without it commands are synced globally.",
    )
    discord_sharded: bool = Field(
        default=False, description="Run Discord as an AutoShardedBot (one process, many shards)."
    )
    discord_shard_count: int | None = Field(
        default=None,
        ge=1,
        description="How many shards the bot runs in all, across every process (Discord "
        "requires sharding past 2,500 servers).",
    )
    discord_shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None,
        description="The shards this process runs, e.g. 0,1 (each below DISCORD_SHARD_COUNT); "
        "without it, all of them.",
    )
    telegram_base_url: str | None = Field(
        default=None,
        description="Another Bot API server, e.g. a self-hosted one: http://localhost:8081/bot",
    )
    telegram_webhook_url: str | None = Field(
        default=None,
        description="Public HTTPS URL for Telegram webhook mode; without it the bot long-polls.",
    )
    telegram_webhook_listen: str = Field(
        default="127.0.0.1", description="Address the webhook server listens on."
    )
    telegram_webhook_port: int = Field(
        default=8443, ge=1, le=65535, description="Port the webhook server listens on."
    )
    telegram_webhook_secret: SecretStr | None = Field(
        default=None, description="Secret token Telegram sends with every webhook call."
    )
    telegram_webhook_stale_seconds: float = Field(
        default=120.0,
        gt=0,
        description="An update a process stored and has not handled this long after is taken "
        "over by another process (its own died); longer than any update takes to handle.",
    )
    telegram_webhook_sweep_seconds: float = Field(
        default=20.0, gt=0, description="How often each process looks for such updates."
    )
    telegram_mini_app: str | None = Field(
        default=None,
        description="The short name of the bot's Mini App (made with @BotFather's /newapp, its "
        "address WEB_BASE_URL/app): [Open board] in groups opens the board page through it. "
        "Without it the button there sends the player a private link.",
    )
    telegram_init_data_max_age: float = Field(
        default=86400.0,
        gt=0,
        description="Seconds a Telegram Mini App's initData (who opened the board page) is "
        "accepted after Telegram signed it.",
    )
    telegram_flood_limits: bool = Field(
        default=True,
        description="Hold each process to Telegram's flood limits (30 messages a second, 20 a "
        "minute per group); off only for a Bot API server without them (a test fake).",
    )
    web_base_url: str | None = Field(
        default=None,
        description="The public address of the bot's web pages (replays, dice checks), e.g. "
        "https://gammon.example.org; without it no web server runs and the dice check is "
        "sent as an .html file.",
    )
    page_link_hours: float = Field(
        default=24.0,
        gt=0,
        description="Hours a private link to the board page (Discord, console) lets its "
        "player act there.",
    )
    web_host: str = Field(default="127.0.0.1", description="Address the web pages listen on.")
    web_port: int = Field(default=8080, ge=1, le=65535, description="Port the web pages listen on.")
    web_max_connections: int | None = Field(
        default=None,
        ge=1,
        description="Connections to the web port open at once; more are answered 503 and "
        "closed. Without it a quarter of the open-file limit (at most 512); never more than "
        "half of that limit less 64, so the chats and the database keep their files.",
    )
    web_header_timeout: float = Field(
        default=15.0,
        gt=0,
        description="Seconds a new web connection has to send its request's line and headers.",
    )
    web_keepalive_timeout: float = Field(
        default=75.0,
        gt=0,
        description="Seconds a web connection may stay idle between requests, or leave an "
        "answer untaken, before it is closed.",
    )
    clock_seconds: float = Field(
        default=60.0,
        gt=0,
        description="How often each process checks the deadlines (reminders, expired "
        "challenges, claims).",
    )
    console_image_dir: Path = Field(
        default=Path("boards"), description="Where the console chat writes board pictures."
    )
    console_admins: Annotated[tuple[str, ...], NoDecode] = Field(
        default=(),
        description="Console users who administer the console's chats (their /defaults and "
        "/chouette end count as an administrator's), e.g. alice,bob; without it, nobody.",
    )
    log_level: LogLevel = Field(
        default="INFO",
        description="How much the running bot logs to standard error: DEBUG, INFO, WARNING, "
        "ERROR or CRITICAL.",
    )

    @field_validator("database_url")
    @classmethod
    def _a_database_url(cls, url: str) -> str:
        """Refuse a URL SQLAlchemy cannot read at start, as one line naming the setting, and
        not as a traceback at the first connection. The reasons never quote the URL: it may
        hold a password."""
        problem = url_problem(url)
        if problem is not None:
            raise PydanticCustomError("database_url", f"{problem} ({_URL_EXAMPLES})")
        missing = driver_problem(url)
        if missing is not None:
            raise PydanticCustomError("database_url", missing)
        file = sqlite_path(url)
        if file is not None and not file.parent.exists():
            # SQLite would make the file but not the folder; making folders is the
            # administrator's business (a typing slip would otherwise store matches elsewhere).
            raise PydanticCustomError(
                "database_url",
                "the folder {folder} for the SQLite file does not exist: make it first, or "
                "choose a file in a folder that exists",
                {"folder": str(file.parent.absolute())},
            )
        return url

    @field_validator("discord_token", "telegram_token", "telegram_webhook_secret", mode="before")
    @classmethod
    def _not_empty(cls, value: Any) -> Any:
        """``TELEGRAM_TOKEN=`` with nothing after it (an example line uncommented, a value
        that did not arrive) is a mistake to name, not a platform to leave off quietly: a
        bot meant for Telegram would start the console chat instead."""
        if isinstance(value, str) and not value.strip():
            raise PydanticCustomError(
                "empty",
                "is empty: put the value after the = sign, or remove the line (or comment it "
                "out) to leave it unset",
            )
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _a_log_level(cls, value: Any) -> Any:
        """Any case, as Python's logging names the levels."""
        if isinstance(value, str):
            value = value.strip().upper()
            if value not in _LOG_LEVELS:
                raise PydanticCustomError(
                    "log_level", "must be one of " + ", ".join(_LOG_LEVELS) + " (any case)"
                )
        return value

    @field_validator("console_admins", mode="before")
    @classmethod
    def _console_names(cls, value: Any) -> Any:
        """``alice,bob`` (or ``alice bob``) from the environment, in lower case as the console
        reads names; a list or tuple as it is."""
        if isinstance(value, str):
            return tuple(word.lower() for word in value.replace(",", " ").split())
        return value

    @field_validator("discord_shard_ids", mode="before")
    @classmethod
    def _shard_numbers(cls, value: Any) -> Any:
        """``0,1`` (or ``0 1``) from the environment; a list or tuple as it is."""
        if isinstance(value, str):
            words = value.replace(",", " ").split()
            if not words:
                return None
            if not all(word.isascii() and word.isdigit() for word in words):
                raise PydanticCustomError(
                    "shard_ids", "shard numbers separated by commas, e.g. 0,1"
                )
            return tuple(int(word) for word in words)
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Self:
        ids = self.discord_shard_ids
        if ids is None:
            return self
        if self.discord_shard_count is None:
            raise PydanticCustomError(
                "shard_ids", "DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT, the shards in all"
            )
        if len(set(ids)) != len(ids) or any(n >= self.discord_shard_count for n in ids):
            raise PydanticCustomError(
                "shard_ids",
                "DISCORD_SHARD_IDS must name different shards, each below DISCORD_SHARD_COUNT",
            )
        return self

    @property
    def discord_shards(self) -> tuple[int, tuple[int, ...]] | None:
        """How many shards there are, and which of them this process runs; None when Discord
        chooses (one process, ``DISCORD_SHARDED``) or there is one connection."""
        count = self.discord_shard_count
        if count is None:
            return None
        return count, self.discord_shard_ids or tuple(range(count))

    @field_validator("web_base_url")
    @classmethod
    def _a_web_address(cls, url: str | None) -> str | None:
        """An http(s) address without a trailing slash (links append ``/m/<slug>``); empty
        means none."""
        if url is None or not url.strip():
            return None
        parsed = urlsplit(url.strip())
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise PydanticCustomError(
                "web_base_url", "an http or https address, e.g. https://gammon.example.org"
            )
        if parsed.query or parsed.fragment:
            raise PydanticCustomError("web_base_url", "an address without ? or #")
        return url.strip().rstrip("/")


def load_settings() -> Settings:
    return Settings()


def where_from(settings: Settings, folder: Path) -> str:
    """One line for the start: which database, and whether a ``.env`` in ``folder`` (the
    working folder, where it is looked for) was read. Never a password."""
    env_file = folder / ENV_FILE
    if env_file.is_file():
        source = f"settings from the environment and {env_file.absolute()}"
    else:
        source = f"settings from the environment only (no {ENV_FILE} in {folder.absolute()})"
    return f"Using {describe_database(settings.database_url)}; {source}"


def settings_help() -> list[tuple[str, str]]:
    """Every setting as its environment variable and what it is for, with its default."""
    rows: list[tuple[str, str]] = []
    for name, field in Settings.model_fields.items():
        text = field.description or ""
        if field.default not in (None, ()):
            text = f"{text} [default: {_as_written(field.default)}]"
        rows.append((name.upper(), text))
    return rows


def _as_written(value: object) -> str:
    """A default as it would be written in ``.env``."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
