"""The suite writes only into temporary folders: conftest.py fails a run that leaves files in the checkout."""

from __future__ import annotations

from pathlib import Path

from checkout import CHECKOUT, checkout_changes, checkout_files


def test_a_file_written_changed_or_removed_is_named(tmp_path: Path) -> None:
    (tmp_path / "kept.txt").write_text("a", "utf-8")
    (tmp_path / "gone.txt").write_text("b", "utf-8")
    (tmp_path / "__pycache__").mkdir()
    before = checkout_files(tmp_path)
    (tmp_path / "map-N1-hunter-public.png").write_bytes(b"png")
    (tmp_path / "kept.txt").write_text("longer", "utf-8")
    (tmp_path / "gone.txt").unlink()
    (tmp_path / "__pycache__" / "x.pyc").write_bytes(b"")  # an ignored folder is not the checkout's
    assert checkout_changes(before, checkout_files(tmp_path)) == [
        "changed: kept.txt", "gone: gone.txt", "new: map-N1-hunter-public.png"]


def test_no_output_of_a_run_at_the_top_of_the_checkout() -> None:
    left = [p.name for p in CHECKOUT.iterdir() if p.name == ".coverage" or p.suffix == ".png"]
    assert left == []
    ignored = (CHECKOUT / ".gitignore").read_text("utf-8").split()
    assert ".coverage" in ignored and "/map-*.png" in ignored
