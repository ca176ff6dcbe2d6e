"""Excel workbooks: a sheet read with pandas and openpyxl gives the same table as the same
data saved as CSV and read by the CSV reader; sheets, dates, empty edges, old .xls files."""
import datetime as dt
import os
import zipfile

import numpy as np
import pandas as pd
import pytest
from tests.peers import peer

openpyxl = peer("openpyxl")

from engine.input.data import read_csv_table  # noqa: E402
from engine.input.readers import load_dataset  # noqa: E402
from engine.input.excel import read_excel_table, sheet_names  # noqa: E402
from engine.input.readers import read_table  # noqa: E402

HEADER = ["height", "colour", "weight", "count", "species"]


def rows(n=40):
    rng = np.random.default_rng(3)
    out = []
    for i in range(n):
        height = None if i % 9 == 4 else round(float(rng.normal(170, 10)), 2)
        weight = "about 70" if i == 7 else round(float(rng.normal(70, 8)), 3)
        colour = ["red", " green ", "blue"][i % 3]
        out.append([height, colour, weight, int(rng.integers(0, 9)), "cat" if i % 2 else "dog"])
    return out


def csv_cell(value):
    return "" if value is None else str(value)


def make_book(path, data, *, extra_sheets=("Notes",), dates=None):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Measurements"
    sheet.append(HEADER + (["when"] if dates else []))
    for i, row in enumerate(data):
        sheet.append(row + ([dates[i]] if dates else []))
    sheet.cell(row=len(data) + 30, column=12).number_format = "0.00"   # a formatted empty cell
    for name in extra_sheets:
        book.create_sheet(name).append(["a", "b"])
    book.save(path)
    return str(path)


def test_a_sheet_reads_as_the_same_table_saved_as_csv(tmp_path):
    data = rows()
    book = make_book(tmp_path / "animals.xlsx", data)
    csv = tmp_path / "animals.csv"
    csv.write_text("\n".join(",".join(map(csv_cell, r)) for r in [HEADER, *data]) + "\n",
                   encoding="utf-8")
    ours, notes, sheets = read_excel_table(book)
    theirs, csv_notes = read_csv_table(str(csv))
    assert sheets == ["Measurements", "Notes"]
    assert list(ours.columns) == HEADER
    pd.testing.assert_frame_equal(ours.reset_index(drop=True), theirs, check_dtype=False)
    assert ours["weight"].dtype == float and np.isnan(ours["weight"].iloc[7])
    stray = next(n for n in notes if n.code == "stray_cells_missing")
    assert stray.fields["lines"] == next(
        n for n in csv_notes if n.code == "stray_cells_missing").fields["lines"] == ((9, "about 70"),)
    assert next(n for n in notes if n.code == "sheet_read").fields["sheet"] == "Measurements"


def test_dates_become_seconds_since_1970(tmp_path):
    stamps = [dt.datetime(2020, 1, 2, 3, 4, 5) + dt.timedelta(days=37 * i, seconds=11 * i)
              for i in range(40)]
    book = make_book(tmp_path / "dated.xlsx", rows(), dates=stamps, extra_sheets=())
    frame, notes, _ = read_excel_table(book)
    expected = [(pd.Timestamp(s) - pd.Timestamp(0)).total_seconds() for s in stamps]
    np.testing.assert_allclose(frame["when"], expected, rtol=0, atol=1e-3)
    note = next(n for n in notes if n.code == "dates_as_numbers")
    assert note.fields["columns"] == ("when",)
    assert not any(n.code == "sheet_read" for n in notes)     # one sheet: nothing to say


def test_empty_rows_and_unnamed_empty_columns_are_dropped(tmp_path):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["x", "y", "k", None])
    sheet.append([1, 2.5, "a", None])
    sheet.append([None, None, None, None])
    sheet.append([3, "4", "b", None])
    sheet.append([5, 6, "a"])
    sheet.cell(row=40, column=9).value = None
    path = tmp_path / "edges.xlsx"
    book.save(path)
    frame, _, _ = read_excel_table(str(path))
    assert list(frame.columns) == ["x", "y", "k"]
    assert frame.index.tolist() == [0, 2, 3]                  # sheet rows 2, 4, 5
    np.testing.assert_array_equal(frame["y"], [2.5, 4, 6])    # the text cell "4" too


def test_the_sheet_option(tmp_path):
    book = openpyxl.Workbook()
    book.active.title = "Summary"
    book.active.append(["only", "text"])
    other = book.create_sheet("Data 2024")
    other.append(["x", "label"])
    for i in range(30):
        other.append([i, "yes" if i % 3 else "no"])
    path = str(tmp_path / "book.xlsm")
    book.save(path)
    assert sheet_names(path) == ["Summary", "Data 2024"]
    ds = load_dataset({"file": path, "sheet": "data 2024"})        # case does not matter
    assert ds.n_rows == 30 and ds.classes == ("no", "yes") and ds.target == "label"
    assert ds.source == {"file": path, "sheet": "data 2024"}
    with pytest.raises(ValueError) as caught:
        load_dataset({"file": path, "sheet": "Data"})
    assert caught.value.code == "sheet_unknown"
    assert dict(caught.value.fields) == {"sheet": "Data", "file": "book.xlsm",
                                         "sheets": ("Summary", "Data 2024")}
    with pytest.raises(ValueError, match="has no rows of data"):
        load_dataset({"file": path})
    table = read_table(path, sheet="Data 2024")
    assert table.sheets == ("Summary", "Data 2024") and table.name == "book"


def test_old_and_broken_workbooks_are_refused_with_advice(tmp_path):
    old = tmp_path / "old.xls"
    old.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(500))
    with pytest.raises(ValueError, match=r"old Excel 97-2003 format \(.xls\).*save it as an "
                                         r"Excel workbook \(.xlsx\) or as CSV"):
        load_dataset({"file": str(old)})
    renamed = tmp_path / "renamed.xlsx"
    renamed.write_bytes(old.read_bytes())
    with pytest.raises(ValueError, match="old Excel 97-2003 format"):
        load_dataset({"file": str(renamed)})
    text = tmp_path / "text.xlsx"
    text.write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="it is not an Excel workbook"):
        load_dataset({"file": str(text)})
    archive = tmp_path / "archive.xlsx"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("hello.txt", "hi")
    with pytest.raises(ValueError, match="not a valid Excel workbook"):
        load_dataset({"file": str(archive)})
    with pytest.raises(ValueError, match="it is a folder"):
        os.mkdir(tmp_path / "folder.xlsx")
        load_dataset({"file": str(tmp_path / "folder.xlsx")})
