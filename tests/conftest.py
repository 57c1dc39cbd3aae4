"""Shared test settings: hypothesis profiles sized for the 5-minute suite, and the databases
every test folder may ask for (tests/databases.py)."""

from hypothesis import HealthCheck, settings

pytest_plugins = ["tests.databases"]

# derandomize: the same examples every run, so a run's verdict never depends on luck (a
# failure found once is found again, on every machine); what they explore is widened by
# adding cases, not by chance.
settings.register_profile(
    "default",
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")
