"""Every gateway error has a text in both languages, with the same placeholders."""

from __future__ import annotations

import re

import pytest

from sheetgm.backends import errors
from sheetgm.core.texts import table

CODES = sorted(
    {cls.code for cls in vars(errors).values() if isinstance(cls, type) and issubclass(cls, errors.BackendError)}
)


@pytest.mark.parametrize("code", CODES)
def test_code_has_zh_and_en_with_the_same_placeholders(code: str) -> None:
    zh, en = table("zh").get(code), table("en").get(code)
    assert zh and en, code
    assert set(re.findall(r"\{(\w+)\}", zh)) == set(re.findall(r"\{(\w+)\}", en))
