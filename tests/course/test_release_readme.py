"""The release README says what the release holds: its examples use the release's first
exercise, and it describes the pictures its exercises get (micrograph's, the build track's, or
both), in English and Chinese."""

from __future__ import annotations

import pytest

from grader.course import catalog
from grader.publish.readme import student_readme
from micrograph.i18n import using


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_build_only_release_speaks_of_the_track_only(lang: str) -> None:
    with using(lang):
        readme = student_readme([catalog.load("ex16"), catalog.load("ex17")], notebooks=False)
    assert "grade ex16" in readme and 'grader.check("ex16")' in readme
    assert "ex03" not in readme
    assert "backward.html" not in readme and "backward_replayed.html" in readme
    assert "difference.svg" in readme


def test_a_release_without_the_track_says_nothing_of_it() -> None:
    readme = student_readme([catalog.load("ex03")], notebooks=False)
    assert "grade ex03" in readme and "backward.html" in readme
    assert "ex16" not in readme and "backward_replayed" not in readme
    assert "nothing is fetched.\n\n## In a notebook" in readme
