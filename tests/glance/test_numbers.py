"""Stored scores read as numbers: percent signs and thousands separators read, anything else left as text."""
from __future__ import annotations

import pytest

from pipeline.glance.numbers import parse_number


@pytest.mark.parametrize(("text", "number"), [
    ("9.5", 9.5), ("10.2", 10.2), ("71.46%", 71.46), (" 71.46 % ", 71.46), ("1,204.5", 1204.5), ("12,050", 12050.0),
    ("-3", -3.0), (".5", 0.5), ("0", 0.0), ("1234567", 1234567.0)])
def test_numbers_as_orkg_stores_them(text: str, number: float) -> None:
    assert parse_number(text) == number


@pytest.mark.parametrize("text", ["N/A", "—", "12 M", "", "%", "1,2,3", "12,34", "1.2.3", "nan", "inf", "1e5",
                                  "9.5 ± 0.3", "approx. 10"])
def test_values_that_are_not_plain_numbers_stay_text(text: str) -> None:
    assert parse_number(text) is None

