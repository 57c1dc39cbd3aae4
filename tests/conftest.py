"""Shared test settings: hypothesis profiles sized for the 3-minute suite."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")
