"""Every refusal of the headless runner is one line: ``error: `` and then a word.

Each case runs ``python main.py run`` in a subprocess and checks that the exit status is
2, stderr is exactly one line starting with ``error: `` followed by a letter or a quote
(never punctuation such as the ``.`` that pandas' two-line messages used to leave), that
no traceback is printed, and that the line says what it should.
"""
import io
import json
import os
import re
import resource
import subprocess
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ERROR_LINE = re.compile(r"error: [A-Za-z'\"][^\n\r]*\n")
TABLE = "a,b,c\n" + "".join(f"{i},{i * 2},{'xy'[i % 2]}\n" for i in range(30))


def zip_bytes(name: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, "a,b\n1,2\n")
    return buffer.getvalue()


#: name -> (file contents (bytes) or None, dataset entry, other experiment keys, fragment)
CSV_CASES = {
    "ragged rows": (b"a,b,c\n1,2,x\n3,4,y,5,6\n5,6,x\n", {}, {},
                    "line 3 has 5 cells but the header has 3; put quotes around cells"),
    "one cell too many in every row": (b"a,b\n1,2,x\n3,4,y\n", {}, {},
                                       "line 2 has 3 cells but the header has 2"),
    "comment lines": (b"# exported by a tool\n# another, with, commas\na,b,c\n1,2,x\n", {}, {},
                      "line 1 is a comment ('# exported by a tool') but the first line must"),
    "unclosed quote": (b'a,b,c\n1,2,"x\n3,4,y\n', {}, {}, "opens a cell that never closes"),
    "PNG image": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), {}, {},
                  "it is a PNG image (a binary file), not a CSV text file"),
    "ZIP archive": (zip_bytes("a.csv"), {}, {}, "it is a ZIP archive (a binary file)"),
    "Excel workbook": (zip_bytes("xl/workbook.xml"), {}, {},
                       "it is an Excel workbook (.xlsx) (a binary file), not a CSV text file; "
                       'give it as "file" instead of "csv"'),
    "zero bytes": (b"a,b\x00\x01\x02\n1,2\n" * 5, {}, {}, "it looks like a binary file"),
    "UTF-16 read as UTF-8": (TABLE.encode("utf-16"), {"encoding": "utf-8"}, {},
                             "holds zero bytes even when read as utf-8"),
    "latin-1 read as UTF-8": ("a,b,c\n1,2,é\n3,4,y\n".encode("latin-1"), {"encoding": "utf-8"},
                              {}, "it holds bytes that are not utf-8"),
    "empty file": (b"", {}, {}, "the file is empty"),
    "only a header": (b"a,b,c\n", {}, {}, "has a header but no rows of data"),
    "one column": (b"a\n1\n2\n", {}, {}, "has only one column"),
    "missing file": (None, {}, {}, "the file does not exist"),
    "FIFO": ("fifo", {}, {}, "it is a named pipe (FIFO), not a CSV file"),
    "device": ("/dev/zero", {}, {}, "it is a character device, not a CSV file"),
}

EXPERIMENT_CASES = {
    "a huge built-in": ({"builtin": "moons", "n_samples": 10 ** 12}, {},
                        "1,000,000,000,000 rows x 2 columns would take 16.0 TB of memory"),
    "a huge number of features": ({"builtin": "classification", "n_features": 10 ** 9}, {},
                                  "lower n_features to at most"),
    "a billion trees": ({"builtin": "iris"},
                        {"models": [{"estimator": "RandomForestClassifier",
                                     "params": {"n_estimators": 10 ** 9}}]},
                        "n_estimators = 1,000,000,000 is more than 100,000 trees"),
    "too many neighbours": ({"builtin": "iris"},
                            {"models": [{"estimator": "KNeighborsClassifier",
                                         "params": {"n_neighbors": 1000}}]},
                            "n_neighbors = 1,000, but the smallest training fold has only"),
    "more than 20,000 fits": ({"builtin": "iris"},
                              {"models": [{"estimator": "GaussianNB", "grid": {
                                  "var_smoothing": [1e-9 * (i + 1) for i in range(201)]}}]},
                              "this run makes 20,100 fits (201 models x 10 folds x 10 repeats)"),
}


def run_main(*args, limit=None):
    return subprocess.run(command(*args), capture_output=True, text=True, timeout=120,
                          preexec_fn=limited(limit) if limit else None)


def command(*args):
    return [sys.executable, os.path.join(ROOT, "main.py"), "run", *map(str, args)]


def limited(limit):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return set_limit


def assert_error_line(done, fragment):
    assert done.returncode == 2, done.stderr
    assert ERROR_LINE.fullmatch(done.stderr), repr(done.stderr)
    assert "Traceback" not in done.stderr
    assert fragment in done.stderr, done.stderr


def experiment_file(folder, dataset, **more):
    data = {"dataset": dataset, "models": [{"estimator": "GaussianNB"}],
            "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}, "metrics": ["accuracy"]}
    data.update(more)
    path = folder / "exp.json"
    path.write_text(json.dumps(data))
    return path


def csv_case(folder, name):
    content, options, more, _ = CSV_CASES[name]
    path = folder / "data.csv"
    if content == "fifo":
        os.mkfifo(path)
    elif isinstance(content, str):
        path = content
    elif content is not None:
        path.write_bytes(content)
    return experiment_file(folder, {"csv": str(path), **options}, **more)


def experiment_case(folder, name):
    dataset, more, _ = EXPERIMENT_CASES[name]
    return experiment_file(folder, dataset, **{"cv": {"n_splits": 10, "n_repeats": 10}, **more})


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """Every case run at once (each run is mostly interpreter start-up): name -> (result,
    out folder)."""
    cases = {}
    for name in CSV_CASES:
        cases[name] = csv_case(tmp_path_factory.mktemp("csv"), name)
    for name in EXPERIMENT_CASES:
        cases[name] = experiment_case(tmp_path_factory.mktemp("exp"), name)

    def one(item):
        name, exp = item
        out = exp.parent / "out"
        return name, (run_main(exp, "--out", out), out)
    with ThreadPoolExecutor(max_workers=2 * (os.cpu_count() or 1)) as pool:
        return dict(pool.map(one, cases.items()))


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CSV_CASES))
def test_csv_problems(outcomes, name):
    done, out = outcomes[name]
    assert_error_line(done, CSV_CASES[name][-1])
    assert not out.exists()


@pytest.mark.slow
@pytest.mark.parametrize("name", list(EXPERIMENT_CASES))
def test_requests_that_cannot_or_should_not_start(outcomes, name):
    done, out = outcomes[name]
    assert_error_line(done, EXPERIMENT_CASES[name][-1])
    assert not out.exists()


@pytest.mark.slow
def test_asking_says_the_time_and_how_to_proceed(outcomes):
    done, _ = outcomes["more than 20,000 fits"]
    assert_error_line(done, "more than the 20,000 that start without asking; it would take "
                            "about ")
    assert done.stderr.endswith(": add --yes to start it anyway, or use fewer models, folds or "
                                "repeats\n")


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc")
def test_a_run_larger_than_the_memory_left_is_refused(tmp_path):
    exp = experiment_file(tmp_path, {"builtin": "moons", "n_samples": 8_000_000},
                          cv={"n_splits": 3, "n_repeats": 2})
    done = run_main(exp, "--out", tmp_path / "out", limit=2 * 10 ** 9)
    assert_error_line(done, "this run needs about ")
    assert re.search(r"of memory \(.*out-of-fold predictions .*\) but .* is available: use fewer "
                     r"repeats or fewer models\n$", done.stderr), done.stderr


@pytest.mark.slow
def test_experiment_files_that_cannot_be_read(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "utf16.json").write_bytes("{}".encode("utf-16"))
    for path, fragment in ((tmp_path / "bad.json", "the experiment file "),
                           (tmp_path / "utf16.json", "the experiment file "),
                           (tmp_path / "none.json", "the file does not exist"),
                           (tmp_path, "it is a folder, not an experiment file")):
        assert_error_line(run_main(path, "--out", tmp_path / "out"), fragment)


@pytest.mark.slow
def test_bad_arguments(tmp_path):
    exp = experiment_file(tmp_path, {"builtin": "iris"})
    assert_error_line(run_main(exp, "--out", tmp_path / "o", "--jobs", "0"), "--jobs")
    assert_error_line(run_main(exp, "--out", " "), "--out")
    assert_error_line(run_main(exp, "--out", tmp_path / "o", "--jobs", "x"), "invalid int")


@pytest.mark.slow
def test_jobs_above_the_cores_are_capped_with_a_note_not_a_hang(tmp_path):
    exp = experiment_file(tmp_path, {"builtin": "iris"})
    done = run_main(exp, "--out", tmp_path / "out", "--jobs", "100000")
    assert done.returncode == 0, done.stderr
    assert re.match(r"note: --jobs 100000 is more than the \d+ core\(s\) of this computer: "
                    r"using \d+\n", done.stderr), done.stderr
    manifest = json.loads((tmp_path / "out" / "run.json").read_text())
    assert manifest["command"]["jobs"] == 100000


def test_error_text_keeps_one_line_and_a_leading_word():
    from engine.cli import error_text

    assert error_text("/tmp/x.csv is broken\n. Check it") == \
        "the file /tmp/x.csv is broken . Check it"
    assert error_text(". Check the separator") == "Check the separator"
    assert error_text('"decimal" must be "." or ","') == '"decimal" must be "." or ","'
    assert error_text("").startswith("unknown problem")
