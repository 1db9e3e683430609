"""Every test starts in English whatever the machine's locale: the golden files and messages are English.

A test about Chinese output asks for it (``micrograph.i18n.using("zh")`` or ``MICROGRAPH_LANG``).
"""

from __future__ import annotations

import pytest

from micrograph import i18n


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(i18n.ENV_VAR, "en")
    i18n.set_language(None)
