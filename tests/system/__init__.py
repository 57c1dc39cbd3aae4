"""Tests with real ``gammonbot run`` processes on one PostgreSQL database (and the harness
``benchmarks/scale.py`` shares with them)."""
