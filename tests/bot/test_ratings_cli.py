"""`gammonbot ratings rebuild`: compares every stored rating with the one recomputed from the
rated matches, reports as JSON, and repairs (not with --check)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

import sqlalchemy as sa
from click.testing import CliRunner

from bot.cli import main
from bot.core.events import rate_match
from storage.schema import ratings
from storage.transaction import Transaction
from tests.storage.players import open_table
from tests.storage.postgres import sync_url


async def _three_rated_matches(url: str) -> int:
    """Anna beats Bob three times; Bob's user id."""
    table = await open_table(url, migrate=False)
    try:
        anna, bob = table.player_ids
        for _ in range(3):
            match = await table.new_match()
            await table.database.engine.write(
                lambda connection, match_id=match.info.id: rate_match(
                    Transaction(connection, datetime.now(UTC)),
                    match_id=match_id,
                    chat_id=table.chat_id,
                    game="backgammon",
                    length=3,
                    winner_id=anna,
                    loser_id=bob,
                )
            )
        return bob
    finally:
        await table.database.close()


def _rebuild(url: str, *options: str) -> tuple[int, dict[str, object]]:
    result = CliRunner().invoke(main, ["ratings", "rebuild", *options], env={"DATABASE_URL": url})
    return result.exit_code, json.loads(result.output.strip().splitlines()[-1])


def test_rebuild_finds_the_stored_ratings_and_repairs_a_changed_one(migrated_url: str) -> None:
    bob = asyncio.run(_three_rated_matches(migrated_url))
    code, report = _rebuild(migrated_url, "--check")
    assert code == 0
    assert report["identical"] is True
    assert (report["rated_matches"], report["players"]) == (3, 2)
    engine = sa.create_engine(sync_url(migrated_url))
    with engine.begin() as connection:
        connection.execute(sa.update(ratings).where(ratings.c.user_id == bob).values(rating=1.0))
    engine.dispose()
    code, report = _rebuild(migrated_url, "--check")
    assert code == 1
    assert (report["differing_players"], report["written"]) == (1, False)
    code, report = _rebuild(migrated_url)
    assert (code, report["written"]) == (0, True)
    code, report = _rebuild(migrated_url, "--check")
    assert (code, report["identical"]) == (0, True)
