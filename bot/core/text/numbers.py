"""Numbers as each language writes them (Babel): 1,523.4 in English, 1.523,4 in German,
1 523,4 in Russian. Digits stay Western Arabic in every language, as chat players type them."""

from __future__ import annotations

from datetime import timedelta

from babel.dates import format_timedelta
from babel.numbers import format_decimal


def whole(locale: str, number: int) -> str:
    """A count with the locale's grouping: 1,000 / 1.000 / 1 000."""
    return format_decimal(number, "#,##0", locale=locale)


def decimal(locale: str, value: float, digits: int) -> str:
    """``value`` with exactly ``digits`` decimals and the locale's separators."""
    pattern = "#,##0." + "0" * digits if digits else "#,##0"
    return format_decimal(value, pattern, locale=locale)


def signed(locale: str, value: float, digits: int) -> str:
    """A change with its sign, always shown: +8.2, −3.1 (a true minus sign)."""
    return ("+" if value >= 0 else "−") + decimal(locale, abs(value), digits)


def duration(locale: str, seconds: float) -> str:
    """A time span in its largest whole unit, with the unit's plural as ``locale`` writes it:
    "23 hours", "23 часа", "40 minutes" (a unit is used from one whole of it on)."""
    span = timedelta(seconds=max(60.0, seconds))
    return format_timedelta(span, threshold=1, granularity="minute", locale=locale)
