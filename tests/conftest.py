"""Shared test settings: hypothesis profiles sized for the 5-minute suite, and the databases
every test folder may ask for (tests/databases.py)."""

from hypothesis import HealthCheck, settings

pytest_plugins = ["tests.databases"]

settings.register_profile(
    "default", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")
