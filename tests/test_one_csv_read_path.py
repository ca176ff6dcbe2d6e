"""One CSV read path: every ``read_csv`` call of the engine and the app is in
engine/input/csv_pieces.py, so each read of a user's CSV file gets its bounds there."""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def read_csv_calls():
    for package in ("engine", "gui"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    name = getattr(node.func, "attr", getattr(node.func, "id", None))
                    if name == "read_csv":
                        yield path.relative_to(ROOT).as_posix()


def test_every_read_csv_call_is_in_the_one_read_path():
    assert sorted(set(read_csv_calls())) == ["engine/input/csv_pieces.py"]


def test_the_header_width_is_read_through_it(tmp_path, monkeypatch):
    from engine.input import csv_bounds, csv_pieces

    seen = []
    real = csv_pieces.pd.read_csv
    monkeypatch.setattr(csv_pieces.pd, "read_csv",
                        lambda what, **options: seen.append(options) or real(what, **options))
    path = tmp_path / "q.csv"
    path.write_text('"a,1",b,c\n1,2,3\n', encoding="utf-8")     # a quote: pandas reads it
    assert csv_bounds.header_width(str(path), ",", "utf-8", head=path.read_text()) == 3
    assert [options["nrows"] for options in seen] == [0]
    path.write_text('"a' + "x" * 100 + '",b\n1,2\n', encoding="utf-8")
    monkeypatch.setattr(csv_bounds, "MAX_ROW_BYTES", 50)
    with pytest.raises(csv_bounds.ReadStopped, match="the row that starts on line 1 is longer "
                       "than 50 bytes"):
        csv_bounds.header_width(str(path), ",", "utf-8", head="")
