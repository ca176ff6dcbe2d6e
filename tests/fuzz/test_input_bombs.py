"""Small inputs that used to exhaust memory or never end (issue 31, items 3 and 4).

Each bomb is built here, small on disk, and given to the headless runner as a user would
(``python main.py run``) under the conftest's 4 GiB address-space cap: every one must end
in exit 2 with one ``error:`` line that names what to change, never in "unexpected",
a traceback or the cap.  In-process Hypothesis tests then vary the sizes around each
bound (workbook extents, ARFF widths, caps of the experiment's settings).
"""
import contextlib
import json
import os
import socket
import threading
import zipfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.input import excel, text_lengths
from engine.foundation import machine, param_caps
from engine.foundation.schema import experiment_schema
from engine.evaluation.experiment import parse_experiment

from .conftest import headless

QUICK_CV = {"n_splits": 2, "n_repeats": 1}


def experiment_file(folder, dataset=None, models=None, **sections):
    """An experiment file in ``folder`` (one cheap model, 2 folds x 1 repeat)."""
    data = {"dataset": dataset or {"builtin": "iris"},
            "models": models or [{"estimator": "GaussianNB"}], "cv": QUICK_CV, **sections}
    path = folder / "experiment.json"
    path.write_text(json.dumps(data))
    return path


def refused(tmp_path, experiment, *fragments, extra=()):
    """Run the runner on ``experiment``: exit 2, one ``error:`` line holding every
    fragment, nothing written to the output folder."""
    out = tmp_path / "out"
    done = headless(experiment, "--out", out, "--quiet", *extra, cwd=tmp_path)
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode == 2, done.stderr[-2000:]
    assert len(errors) == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    for fragment in fragments:
        assert fragment in errors[0], errors[0]
    assert not out.exists() or not any(p.suffix == ".csv" for p in out.iterdir())
    return errors[0]


# ----------------------------------------------------------------------------- data files

def write_rows(path, header, rows):
    path.write_text("\n".join([header, *rows]) + "\n")
    return path


def test_a_label_of_250000_characters(tmp_path):
    """319 KB with one 250,000-character label allocated 9.3 GiB in a fixed-width copy."""
    rows = [f"{i % 7},{i % 5},{'x' if i % 2 else 'y'}" for i in range(10_000)]
    rows.insert(5, "1,2," + "L" * 250_000)
    write_rows(tmp_path / "labels.csv", "a,b,label", rows)
    line = refused(tmp_path, experiment_file(tmp_path, {"csv": "labels.csv", "target": "label"}),
                   "column 'label', row 6", "250,000 characters", "Shorten that cell")
    assert len(line) < 400


@pytest.mark.slow
def test_a_csv_whose_padded_rows_start_after_the_first_64_kb(tmp_path):
    """A 2,000-column header, 64 KB of ordinary rows, then 300,000 rows of one cell that
    pandas pads to 2,000 (9.6 GB as a table): the estimate from the first 64 KB passed it
    and the read ended in MemoryError (the campaign's file: 572 MB, 3.3 GB)."""
    header = ",".join(f"c{i}" for i in range(1_999)) + ",label"
    ordinary = "".join(f"{i},{'t' * 900},x\n" for i in range(80))
    path = tmp_path / "dense.csv"
    path.write_text(header + "\n" + ordinary + "1\n" * 300_000)
    assert path.stat().st_size < 1_000_000
    refused(tmp_path, experiment_file(tmp_path, {"csv": "dense.csv", "target": "label"}),
            "lines already make", "rows x 2,000 columns (every row has the header's columns)",
            "use a sample of its rows")


@pytest.mark.slow
def test_a_quoted_cell_of_100_mb_after_the_first_64_kb(tmp_path):
    """Its lines are short (newlines inside the quotes): refused when the row passes
    64 MB, not read whole before the 32,767-character refusal."""
    path = tmp_path / "cell.csv"
    with open(path, "w") as stream:
        stream.write("a,b,label\n" + "".join(f"{i},{i % 3},x\n" for i in range(9_000)))
        stream.write('1,2,"')
        for _ in range(50):
            stream.write("y\n" * 1_000_000)
        stream.write('"\n')
    refused(tmp_path, experiment_file(tmp_path, {"csv": "cell.csv", "target": "label"}),
            "the row that starts on line 9,002 is longer than 64.0 MB")


def test_a_class_label_longer_than_a_name(tmp_path):
    rows = [f"{i % 7},{'x' if i % 2 else 'y'}" for i in range(40)] + ["3," + "K" * 2_000]
    write_rows(tmp_path / "labels.csv", "a,label", rows)
    refused(tmp_path, experiment_file(tmp_path, {"csv": "labels.csv", "target": "label"}),
            "the target 'label', row 41", "class label of 2,000 characters",
            f"the {text_lengths.MAX_NAME_CHARS:,} a class label can have")


def test_a_column_name_of_100000_characters(tmp_path):
    rows = [f"{i % 7},{'x' if i % 2 else 'y'}" for i in range(40)]
    write_rows(tmp_path / "names.csv", "N" * 100_000 + ",label", rows)
    refused(tmp_path, experiment_file(tmp_path, {"csv": "names.csv", "target": "label"}),
            "column 1 has a name of 100,000 characters", "Shorten the name")


def small_workbook(path, far_cell=None):
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["a", "b", "label"])
    rng = np.random.default_rng(0)
    for i in range(40):
        sheet.append([float(rng.random()), float(rng.random()), "x" if i % 2 else "y"])
    if far_cell:
        sheet[far_cell] = "stray"
    book.save(path)
    return path


@pytest.mark.slow
def test_a_workbook_with_one_cell_at_XFD1048576(tmp_path):
    """6 KB padded to 1,048,576 x 16,384 cells by pandas."""
    path = small_workbook(tmp_path / "far.xlsx", "XFD1048576")
    assert path.stat().st_size < 20_000
    refused(tmp_path, experiment_file(tmp_path, {"file": "far.xlsx", "target": "label"}),
            "reaches row 1,048,576 and column XFD", "delete the stray cells")


@pytest.mark.slow
def test_a_workbook_that_unpacks_to_padding(tmp_path):
    """An XML comment of 30 MB inside the sheet (the campaign's was 3 GB: 5 minutes)."""
    plain = small_workbook(tmp_path / "plain.xlsx")
    with zipfile.ZipFile(plain) as source, \
            zipfile.ZipFile(tmp_path / "bomb.xlsx", "w", zipfile.ZIP_DEFLATED) as bomb:
        for part in source.infolist():
            data = source.read(part.filename)
            if part.filename == "xl/worksheets/sheet1.xml":
                data = b"<!--" + b" " * 30_000_000 + b"-->" + data
            bomb.writestr(part.filename, data)
    assert (tmp_path / "bomb.xlsx").stat().st_size < 100_000
    refused(tmp_path, experiment_file(tmp_path, {"file": "bomb.xlsx", "target": "label"}),
            "'xl/worksheets/sheet1.xml' unpacks to 30.0 MB", "mostly padding")


SST_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
SST_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"


def with_shared_strings(plain, path, n_strings, cycle=100):
    """``plain`` (a workbook) with a shared-strings part of ``n_strings`` short strings
    (``s0`` ... repeating every ``cycle``), about 20 bytes each unpacked."""
    body = b"".join(b"<si><t>s%d</t></si>" % (i % cycle) for i in range(n_strings))
    strings = (b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.'
               b'openxmlformats.org/spreadsheetml/2006/main">' + body + b"</sst>")
    with zipfile.ZipFile(plain) as source, \
            zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as book:
        for part in source.infolist():
            data = source.read(part.filename)
            if part.filename == "[Content_Types].xml":
                data = data.replace(b"</Types>", b'<Override PartName="/xl/sharedStrings.'
                                    b'xml" ContentType="' + SST_TYPE.encode() + b'"/></Types>')
            elif part.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", b'<Relationship Id="rIdS" Type="'
                                    + SST_REL.encode() + b'" Target="sharedStrings.xml"/>'
                                    b"</Relationships>")
            book.writestr(part.filename, data)
        book.writestr("xl/sharedStrings.xml", strings)
    return path


@pytest.mark.slow
def test_a_workbook_of_148_mb_of_shared_strings(tmp_path):
    """openpyxl parses every shared string when it opens a workbook, about 1 MB a second:
    the campaign's 148 MB (94 times compressed) took 1.46 GB and 160 s."""
    plain = small_workbook(tmp_path / "plain.xlsx")
    path = with_shared_strings(plain, tmp_path / "strings.xlsx", 7_400_000)
    assert path.stat().st_size < 2_000_000
    refused(tmp_path, experiment_file(tmp_path, {"file": "strings.xlsx", "target": "label"}),
            "its shared strings ('xl/sharedStrings.xml') unpack to 1", "more than the 100 MB "
            "this app reads")


def write_wide_arff(path, n_attributes, n_rows):
    with open(path, "w") as handle:
        handle.write("@relation wide\n")
        handle.writelines(f"@attribute a{i} numeric\n" for i in range(n_attributes))
        handle.write("@attribute class {x,y}\n@data\n")
        handle.writelines(f"{{{r % n_attributes} 1, {n_attributes} {'x' if r % 2 else 'y'}}}\n"
                          for r in range(n_rows))
    return path


@pytest.mark.slow
def test_a_sparse_arff_declaring_200000_attributes(tmp_path):
    """A few MB of sparse rows that become 32 GB dense."""
    path = write_wide_arff(tmp_path / "wide.arff", 200_000, 20_000)
    assert path.stat().st_size < 8_000_000
    refused(tmp_path, experiment_file(tmp_path, {"file": "wide.arff"}),
            "declares 200,001 attributes and has up to 20,000 rows", "remove attributes")


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")
@pytest.mark.parametrize("what", ["data", "experiment"])
def test_a_fifo_and_dev_zero(tmp_path, what):
    os.mkfifo(tmp_path / "pipe.csv")
    if what == "data":
        refused(tmp_path, experiment_file(tmp_path, {"csv": "pipe.csv"}), "named pipe (FIFO)")
    else:
        refused(tmp_path, tmp_path / "pipe.csv", "named pipe (FIFO)")
        refused(tmp_path, "/dev/zero", "character device")


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="Linux /proc")
def test_a_file_of_proc_is_refused_before_it_is_read(tmp_path):
    """/proc's regular files have no size and some block on read (/proc/kmsg): refused by
    where they are, also through a link of a data file's name."""
    os.symlink("/proc/kmsg", tmp_path / "kmsg.csv")
    refused(tmp_path, experiment_file(tmp_path, {"csv": "kmsg.csv"}),
            "one of the system's own files (under /proc)", "not a CSV file")
    refused(tmp_path, "/proc/self/status", "one of the system's own files (under /proc)",
            "not an experiment file")


@pytest.mark.slow
def test_the_training_file_given_as_the_held_out_test(tmp_path):
    """It was accepted and reported as a held-out AUC of 0.9996; a file of mostly its rows
    likewise."""
    rows = [f"{i % 7},{(i * 3) % 11},{'x' if i % 2 else 'y'}" for i in range(60)]
    write_rows(tmp_path / "train.csv", "a,b,label", rows)
    write_rows(tmp_path / "most.csv", "a,b,label", rows[:40] + ["99,99,x"] * 10)
    dataset = {"csv": "train.csv", "target": "label"}
    refused(tmp_path, experiment_file(tmp_path, dataset, test={"file": "train.csv"}),
            "the test file train.csv is the training file itself")
    refused(tmp_path, experiment_file(tmp_path, dataset, test={"file": "most.csv"}),
            "the test file most.csv: 40 of its 50 rows (80%) are also rows of the training")


# ----------------------------------------------------------------------------- settings

@pytest.mark.parametrize("entry, place, fragment", [
    ({"estimator": "RandomForestClassifier", "tune": {"grid": {"n_estimators": [10, 10 ** 9]}}},
     "models[0].tune.grid.n_estimators", "more than 100,000 trees"),
    ({"estimator": "MLPClassifier", "tune": {"grid": {"max_iter": [10 ** 9]}}},
     "models[0].tune.grid.max_iter", "more than 1,000,000 solver iterations"),
    ({"estimator": "GaussianNB", "threshold": {"scoring": "f1", "inner_splits": 10 ** 9}},
     "models[0].threshold.inner_splits", "from 2 to 100"),
    ({"estimator": "GaussianNB", "name": "M" * 2_000_000},
     "models[0].name", "at most 200 characters"),
])
@pytest.mark.slow
def test_model_settings_over_their_caps(tmp_path, entry, place, fragment):
    refused(tmp_path, experiment_file(tmp_path, {"builtin": "breast_cancer"}, [entry]),
            place, fragment)


@pytest.mark.parametrize("section, place", [
    ({"calibration": {"methods": ["sigmoid"], "map_buckets": 10_000_000}},
     "calibration.map_buckets: expected an integer from 2 to 100,000"),
    ({"aloocv": {"n_C": 10 ** 9}}, "aloocv.n_C: expected an integer from 2 to 10000"),
])
@pytest.mark.slow
def test_calibration_and_aloocv_settings_over_their_caps(tmp_path, section, place):
    refused(tmp_path, experiment_file(tmp_path, {"builtin": "breast_cancer"}, **section), place)


@pytest.mark.slow
def test_a_local_cluster_is_capped_like_jobs(tmp_path):
    pytest.importorskip("distributed")
    cores = machine.usable_cores()
    out = tmp_path / "out"
    done = headless(experiment_file(tmp_path), "--out", out, "--cluster", "local:100000",
                    cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (f"note: --cluster local:100000 is more than the {cores} core(s) of this computer: "
            f"using {cores}") in done.stderr
    assert (out / "fold_scores.csv").exists()


@pytest.mark.slow
def test_a_cluster_address_where_something_else_answers(tmp_path):
    """A server that speaks first (SSH's banner; a web server's answer likewise) used to
    become "unexpected failure (MemoryError: Unable to allocate 3.07 EiB)", exit 1."""
    pytest.importorskip("distributed")
    listener = socket.create_server(("127.0.0.1", 0))
    address = f"tcp://127.0.0.1:{listener.getsockname()[1]}"

    def banner():
        with contextlib.suppress(OSError):
            while True:
                connection, _ = listener.accept()
                connection.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")

    threading.Thread(target=banner, daemon=True).start()
    try:
        refused(tmp_path, experiment_file(tmp_path), f"{address} is not a Dask scheduler",
                "speaks another protocol", extra=("--cluster", address))
    finally:
        listener.close()
    refused(tmp_path, experiment_file(tmp_path), "asks for TLS, which this program does not "
            "support", extra=("--cluster", "tls://127.0.0.1:8786"))


# ----------------------------------------------------------------------------- in process

HYPOTHESIS = settings(max_examples=12, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])


@HYPOTHESIS
@given(row=st.integers(1, 3_000), column=st.integers(1, 200))
def test_a_workbook_is_refused_exactly_when_its_padded_extent_does_not_fit(
        tmp_path_factory, monkeypatch, row, column):
    from openpyxl.utils import get_column_letter

    budget = 60_000 * excel.BYTES_PER_CELL                  # 60,000 cells
    monkeypatch.setattr(excel, "available_memory", lambda: budget)
    folder = tmp_path_factory.mktemp("book")
    path = small_workbook(folder / "book.xlsx", f"{get_column_letter(column)}{row}")
    n_rows, width = max(41, row), max(3, column)
    if n_rows * width * excel.BYTES_PER_CELL > budget:
        with pytest.raises(ValueError, match=rf"reaches row {n_rows:,} and column "
                                             rf"{get_column_letter(width)} "):
            excel.read_excel_table(str(path))
    else:
        frame, _notes, _sheets = excel.read_excel_table(str(path))
        assert len(frame) == 40 + (row > 41)            # empty rows between are dropped
        assert frame.shape[1] <= width


def test_a_workbook_part_over_the_size_cap(tmp_path, monkeypatch):
    path = small_workbook(tmp_path / "book.xlsx")
    largest = max(p.file_size for p in zipfile.ZipFile(path).infolist())
    monkeypatch.setattr(excel, "MAX_PART_BYTES", largest - 1)
    with pytest.raises(ValueError, match=r"unpacks to .* more than the .* this app reads"):
        excel.read_excel_table(str(path))
    monkeypatch.setattr(excel, "MAX_PART_BYTES", largest)
    assert len(excel.read_excel_table(str(path))[0]) == 40


def test_shared_strings_are_bounded_by_size_and_by_memory(tmp_path, monkeypatch):
    plain = small_workbook(tmp_path / "plain.xlsx")
    path = str(with_shared_strings(plain, tmp_path / "strings.xlsx", 5_000))
    size = zipfile.ZipFile(path).getinfo("xl/sharedStrings.xml").file_size
    frame = excel.read_excel_table(path)[0]            # the strings are parsed, not used
    assert frame.shape == (40, 3)
    excel.check_parts(path, available=size * excel.SHARED_STRINGS_COPIES)
    with pytest.raises(ValueError, match=r"its part 'xl/sharedStrings.xml' unpacks to "
                                         r"[\d.]+ KB, which would take about [\d.]+ KB of "
                                         r"memory while it is read, more than the"):
        excel.check_parts(path, available=size * excel.SHARED_STRINGS_COPIES - 1)
    monkeypatch.setattr(excel, "MAX_SHARED_STRINGS_BYTES", size - 1)
    with pytest.raises(ValueError, match=r"its shared strings \('xl/sharedStrings.xml'\) "
                                         r"unpack to .* about 1 MB a second\); save the sheet "
                                         r"as CSV$"):
        excel.read_excel_table(path)


def test_a_part_that_would_not_fit_in_memory(tmp_path):
    """One cell can be a whole part (a sheet's): its size three times must fit."""
    path = str(small_workbook(tmp_path / "book.xlsx"))
    largest = max(zipfile.ZipFile(path).infolist(), key=lambda p: p.file_size)
    excel.check_parts(path, available=largest.file_size * excel.PART_COPIES)
    with pytest.raises(ValueError, match=rf"its part '{largest.filename}' unpacks to "):
        excel.check_parts(path, available=largest.file_size * excel.PART_COPIES - 1)


@HYPOTHESIS
@given(n_attributes=st.integers(1, 400), n_rows=st.integers(1, 60))
def test_an_arff_is_refused_exactly_when_attributes_times_rows_do_not_fit(
        tmp_path_factory, monkeypatch, n_attributes, n_rows):
    from engine.input import arff

    budget = 5_000 * machine.BYTES_PER_VALUE * arff.COPIES_WHILE_READ     # 5,000 values
    monkeypatch.setattr(arff, "available_memory", lambda: budget)
    path = write_wide_arff(tmp_path_factory.mktemp("arff") / "w.arff", n_attributes, n_rows)
    if n_rows * (n_attributes + 1) > 5_000:
        with pytest.raises(ValueError, match=rf"declares {n_attributes + 1:,} attributes and "
                                             rf"has up to {n_rows:,} rows"):
            arff.read_arff(str(path))
    else:
        table = arff.read_arff(str(path))
        assert table.frame.shape == (n_rows, n_attributes + 1)
        expected = np.zeros((n_rows, n_attributes))
        expected[np.arange(n_rows), np.arange(n_rows) % n_attributes] = 1.0
        np.testing.assert_array_equal(table.frame.iloc[:, :-1].to_numpy(), expected)


CAPPED = [("n_estimators", "RandomForestClassifier", "params"),
          ("max_iter", "MLPClassifier", "tune"), ("inner_splits", "GaussianNB", "threshold"),
          ("map_buckets", None, "calibration"), ("n_C", None, "aloocv"),
          ("n_bins", None, "calibration")]


def capped_experiment(name, estimator, where, value):
    model = {"estimator": estimator or "LogisticRegression"}
    data = {"dataset": {"builtin": "iris"}, "models": [model]}
    if where == "params":
        model["params"] = {name: value}
    elif where == "tune":
        model["tune"] = {"grid": {name: [value]}}
    elif where == "threshold":
        model["threshold"] = {"scoring": "f1", name: value}
    else:
        data[where] = {name: value}
    return data


def cap_of(name, estimator):
    if name in param_caps.SETTING_CAPS:
        return param_caps.SETTING_CAPS[name][0]
    return param_caps.PARAM_CAPS[name][0]


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(CAPPED), factor=st.floats(0.5, 2.0), offset=st.integers(-1, 1))
def test_every_cap_is_checked_by_the_parser(case, factor, offset):
    name, estimator, where = case
    cap = cap_of(name, estimator)
    value = max(2, int(cap * factor) + offset)
    data = capped_experiment(name, estimator, where, value)
    if value <= cap:
        parse_experiment(data)
        return
    with pytest.raises(ValueError) as caught:
        parse_experiment(data)
    message = str(caught.value)
    assert "\n" not in message and name in message and f"{cap:,}" in message.replace(
        f"{cap}", f"{cap:,}")


def test_the_schema_declares_the_same_caps():
    schema = experiment_schema()
    props = schema["properties"]
    model = schema["$defs"]["model"]["properties"]
    declared = {
        "map_buckets": props["calibration"]["properties"]["map_buckets"]["maximum"],
        "n_bins": props["calibration"]["properties"]["n_bins"]["maximum"],
        "n_C": props["aloocv"]["properties"]["n_C"]["maximum"],
        "inner_splits": model["tune"]["properties"]["inner_splits"]["maximum"]}
    assert model["threshold"]["properties"]["inner_splits"]["maximum"] == \
        declared["inner_splits"]
    assert declared == {k: param_caps.SETTING_CAPS[k][0] for k in declared}
    assert model["name"]["maxLength"] == param_caps.MAX_MODEL_NAME_CHARS


def test_a_grid_that_makes_a_long_model_name():
    """The schema bounds a given name; a grid's values added to it are bounded after."""
    base = {"dataset": {"builtin": "iris"}}
    parse_experiment({**base, "models": [{"estimator": "GaussianNB", "name": "n" * 180,
                                          "grid": {"var_smoothing": [1e-9]}}]})
    with pytest.raises(ValueError, match=r"is 206 characters long, more than the 200 a name "
                                         r"can have .*: give the model a shorter name$"):
        parse_experiment({**base, "models": [{"estimator": "GaussianNB", "name": "n" * 200,
                                              "grid": {"var_smoothing": [1e-9]}}]})


def test_labels_are_encoded_without_a_fixed_width_copy():
    """Classes of up to the longest allowed label, encoded as before (sorted, codes)."""
    import pandas as pd

    from engine.input.data import dataset_from_frame

    long = "z" * text_lengths.MAX_NAME_CHARS
    frame = pd.DataFrame({"a": np.arange(40.0), "label": ["b", long, "a", "b"] * 10})
    dataset = dataset_from_frame(frame, "label")
    assert dataset.classes == ("a", "b", long)
    np.testing.assert_array_equal(dataset.y, np.tile([1, 2, 0, 1], 10))
    with pytest.raises(ValueError, match=r"class label of 1,001 characters"):
        dataset_from_frame(frame.assign(label=["b", long + "z", "a", "b"] * 10), "label")
