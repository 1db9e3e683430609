"""The engine guide's "Not modelled" table is the parity suite's list of what it stopped checking: a reader
of docs/engine.md and a maintainer reading tests/parity/NOT_MODELLED.md must see the same rows."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADER = "| Not modelled |"


def table_rows(path: Path) -> list[str]:
    """The lines of the table that starts at HEADER, up to the first line that is not a table row."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(HEADER))
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def test_the_engine_guide_and_the_parity_list_hold_the_same_rows():
    guide = table_rows(ROOT / "docs" / "engine.md")
    parity = table_rows(ROOT / "tests" / "parity" / "NOT_MODELLED.md")
    assert len(guide) > 3
    assert guide == parity
