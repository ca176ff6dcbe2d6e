"""A CSV file bounded while it is read (engine.input.csv_bounds, issue 36): rows times the
header's width against memory, and the longest row, counted in the one pass pandas makes."""
import io
import re

import numpy as np
import pandas as pd
import pytest

from engine.input import csv_bounds, data as data_module
from engine.input.csv_bounds import Bound, BoundedFile, ReadStopped, header_width
from engine.input.data import read_csv_table


def drained(path, bound, block=7):
    """Read ``path`` through a BoundedFile in blocks of ``block`` bytes."""
    stream = BoundedFile(str(path), bound)
    with io.BufferedReader(stream, buffer_size=block) as reader:
        while reader.read(block):
            pass
    return stream


@pytest.mark.parametrize("block", [1, 5, 64, 2**16])
def test_rows_and_lines_are_counted_with_quoted_newlines_in_any_block_size(tmp_path, block):
    text = 'a,b\n1,"x\ny"\n2,"say ""hi""\n"\n3,z\n'
    (tmp_path / "q.csv").write_text(text)
    stream = drained(tmp_path / "q.csv", Bound(2, None, 2, max_row_bytes=10**6), block)
    assert (stream.rows, stream.lines) == (4, 6)              # the header and 3 rows
    assert len(pd.read_csv(tmp_path / "q.csv")) == 3


@pytest.mark.parametrize("block", [3, 64, 2**16])
def test_the_longest_row_is_found_and_named_by_its_first_line(tmp_path, block):
    rows = ["a,b", "1,2", '3,"' + "long\n" * 8 + '"', "5,6"]
    (tmp_path / "long.csv").write_text("\n".join(rows) + "\n")
    drained(tmp_path / "long.csv", Bound(2, None, 2, max_row_bytes=45), block)   # 45 bytes
    with pytest.raises(ReadStopped, match=r"^the row that starts on line 3 is longer than "
                                          r"44 bytes"):
        drained(tmp_path / "long.csv", Bound(2, None, 2, max_row_bytes=44), block)


def test_rows_times_the_header_width_stop_the_read_where_they_pass_memory(tmp_path):
    """A wide header, then short rows: pandas pads every row to the header's width."""
    header = ",".join(f"c{i}" for i in range(1_000))
    (tmp_path / "pad.csv").write_text(header + "\n" + "1\n" * 5_000)
    assert header_width(str(tmp_path / "pad.csv"), ",", "utf-8") == 1_000
    bound = Bound(1_000, 1_000 * 8 * 2 * 3_000, 2)          # 3,000 rows fit
    assert bound.max_rows == 3_000
    with pytest.raises(ReadStopped, match=r"^its first [\d,]+ lines already make ([\d,]+) rows "
                                          r"x 1,000 columns \(every row has the header's "
                                          r"columns\)") as caught:
        drained(tmp_path / "pad.csv", bound, 2**12)
    made = int(re.match(r"its first [\d,]+ lines already make ([\d,]+)",
                        str(caught.value)).group(1).replace(",", ""))
    assert 3_000 < made <= 3_001 + 2**12 // 2            # stopped within one block of rows
    drained(tmp_path / "pad.csv", Bound(1_000, 1_000 * 8 * 2 * 5_001, 2), 2**12)


def test_a_dense_part_after_the_first_64_kb_is_refused_by_the_reader(tmp_path, monkeypatch):
    """The first 64 KB are sparse (long text cells); then 2-byte rows under a 20-column
    header: the head's estimate passes, the count while reading does not."""
    header = ",".join(f"c{i}" for i in range(19)) + ",label"
    sparse = "".join(f"{i},{'t' * 600}" + "," * 18 + "\n" for i in range(120))
    (tmp_path / "d.csv").write_text(header + "\n" + sparse + "1\n" * 400_000)
    monkeypatch.setattr(data_module, "available_memory", lambda: 20 * 8 * 2 * 200_000)
    with pytest.raises(ValueError, match=r"^cannot read .*d.csv: its first [\d,]+ lines "
                                         r"already make 2\d\d,\d{3} rows x 20 columns"):
        read_csv_table(str(tmp_path / "d.csv"))
    monkeypatch.setattr(data_module, "available_memory", lambda: 20 * 8 * 2 * 400_200)
    frame, _ = read_csv_table(str(tmp_path / "d.csv"))
    assert frame.shape == (400_120, 20)


def test_a_huge_cell_after_the_first_64_kb_is_refused_before_it_is_whole(tmp_path,
                                                                         monkeypatch):
    monkeypatch.setattr(csv_bounds, "MAX_ROW_BYTES", 100_000)
    rows = [f"{i},{i % 3},x" for i in range(9_000)]
    (tmp_path / "cell.csv").write_text("a,b,c\n" + "\n".join(rows) + '\n1,2,"'
                                       + "y\n" * 200_000 + '"\n')
    with pytest.raises(ValueError, match=r"cell.csv: the row that starts on line 9,002 is "
                                         r"longer than 100 KB"):
        read_csv_table(str(tmp_path / "cell.csv"))


def test_the_bounded_read_gives_the_same_table(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=500), "t": rng.choice(['x "q"', "y,z", "w\nv"],
                                                                     500),
                          "label": rng.choice(["p", "n"], 500)})
    frame.to_csv(tmp_path / "f.csv", index=False)
    with BoundedFile(str(tmp_path / "f.csv"), Bound(3, 10**9, 2)) as stream:
        pd.testing.assert_frame_equal(pd.read_csv(stream), pd.read_csv(tmp_path / "f.csv"))
    assert stream.rows == 501


@pytest.mark.parametrize("text", ["a,b,c\n1,2,3\n", "a,b,\n1,2,\n", '"a,b",c\n1,2\n',
                                  "\n\na;b\n1;2\n", "\ufeffa,b\r\n1,2\r\n", "a,b,c"])
def test_the_header_width_counted_from_the_head_is_pandas_width(tmp_path, text):
    (tmp_path / "h.csv").write_text(text, encoding="utf-8")
    sep = ";" if ";" in text else ","
    expected = pd.read_csv(tmp_path / "h.csv", sep=sep, nrows=0, index_col=False).shape[1]
    assert header_width(str(tmp_path / "h.csv"), sep, "utf-8", head=text) == expected
    assert header_width(str(tmp_path / "h.csv"), sep, "utf-8") == expected


def test_a_file_too_small_to_pass_the_bound_is_read_without_counting(tmp_path, monkeypatch):
    bound = Bound(20, 20 * 8 * 2 * 1_000, 2)                   # 1,000 rows fit
    assert not bound.can_pass(999) and bound.can_pass(1_000)    # a row a byte, and the header
    assert Bound(None, None, 2).can_pass(csv_bounds.MAX_ROW_BYTES + 1)
    assert not Bound(None, None, 2).can_pass(csv_bounds.MAX_ROW_BYTES)
    opened = []
    monkeypatch.setattr(csv_bounds.BoundedFile, "__init__",
                        lambda self, *a: opened.append(a) or pytest.fail("counted"))
    (tmp_path / "s.csv").write_text("a,b\n" + "1,x\n2,y\n" * 50)
    assert read_csv_table(str(tmp_path / "s.csv"))[0].shape == (100, 2) and not opened


@pytest.mark.parametrize("block", [4, 2**16])
def test_lines_ended_by_carriage_returns_alone_are_rows(tmp_path, block):
    (tmp_path / "mac.csv").write_bytes(b"a,b\r1,2\r3,4\r5,6\r")
    stream = drained(tmp_path / "mac.csv", Bound(2, None, 2, max_row_bytes=8), block)
    assert (stream.rows, stream.lines) == (4, 4)
    assert len(pd.read_csv(tmp_path / "mac.csv")) == 3
