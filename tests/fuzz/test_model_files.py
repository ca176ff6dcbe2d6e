"""Issue 36: model files from someone else, and where ``predict`` writes.

Every hostile model file (a pipeline that reaches ``builtins.eval``, one that reaches
``numpy.testing``'s ``runstring`` without any ``builtins.`` type, archive bombs, a named
pipe, records with wrong fields) and every bad ``--out`` (a device, a pipe, a folder,
the data file, the model file or a hard link to it, a folder that does not exist) ends in
exit 2 with one ``error:`` line and no traceback, with no code run and no file changed.
The two code chains are first shown to run their code when loaded as skops itself would
with every type trusted, so the refusal is what stops them.  The bombs run headless in a
child process whose own peak memory is measured.
"""
import io
import json
import os
import stat
import subprocess
import sys
import zipfile

import numpy as np
import pandas as pd
import pytest
from sklearn.naive_bayes import GaussianNB
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import FunctionTransformer

from engine.cli import predict
from engine.foundation.errors import EngineError
from engine.input.data import dataset_from_frame
from engine.input.readers import read_table
from engine.runs.heldout import model_archive
from engine.runs.heldout.saved import load_model, model_record
from tests.fuzz.conftest import CAP_BYTES, ROOT
from tests.peers import peer

sio = peer("skops.io")

#: Most memory (bytes) a refused bomb may take in its own process: the interpreter,
#: pandas and scikit-learn take about 200 MB before anything is read.
BOMB_PEAK = 400 * 1024 ** 2


# ----------------------------------------------------------------------------- helpers

def frame(n: int = 60, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    data = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n),
                         "c": rng.normal(size=n)})
    return data.assign(t=np.where(data.a > 0, "yes", "no"))


def dataset(data=None):
    return dataset_from_frame(frame() if data is None else data, "t")


def fitted(model, data=None):
    train = dataset(data)
    return model.fit(train.X.to_numpy(float), train.y), train


def save(path, record) -> str:
    path.write_bytes(sio.dumps(record))
    return str(path)


@pytest.fixture
def files(tmp_path):
    """A model file as the app writes it (naive Bayes), a data file and a marker path."""
    model, train = fitted(GaussianNB())
    model_path = save(tmp_path / "model_nb.skops", model_record("nb", model, train))
    frame(20, seed=1).drop(columns="t").to_csv(tmp_path / "new.csv", index=False)
    return tmp_path, model_path, str(tmp_path / "new.csv")


def refused(capsys, status: int, code_words: str = "") -> str:
    """Exit 2 and one ``error:`` line (holding ``code_words``), no traceback."""
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert status == 2, err
    assert len(lines) == 1 and "Traceback" not in err, err
    assert code_words in lines[0], lines[0]
    return lines[0]


def read(path) -> bytes:
    with open(path, "rb") as stream:
        return stream.read()


def code_of(path) -> str:
    with pytest.raises(EngineError) as caught:
        load_model(str(path))
    return caught.value.code


def measured_predict(*args, timeout: float = 120, command: str = "predict"):
    """``python main.py COMMAND ARGS`` in a child of a small wrapper under the fuzz cap:
    (exit status, stderr, the child's own peak resident memory in bytes)."""
    wrapper = ("import resource, subprocess, sys\n"
               "cap = int(sys.argv[1])\n"
               "def limit():\n"
               "    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))\n"
               "done = subprocess.run([sys.executable, *sys.argv[2:]], preexec_fn=limit,\n"
               "                      stderr=subprocess.PIPE, text=True)\n"
               "sys.stderr.write(done.stderr)\n"
               "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024\n"
               "print(done.returncode, peak)\n")
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", wrapper, str(CAP_BYTES),
                           os.path.join(ROOT, "main.py"), command, *map(str, args)],
                          env=env, capture_output=True, text=True, timeout=timeout,
                          check=False)
    status, peak = map(int, done.stdout.split())
    return status, done.stderr, peak


def one_headless_error(status: int, err: str, *fragments) -> str:
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert status == 2 and len(lines) == 1 and "Traceback" not in err, err[-2000:]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


# ----------------------------------------------------------------------------- the baseline

def test_a_model_the_app_saved_predicts(files, capsys):
    folder, model_path, data_path = files
    status = predict([model_path, data_path, "--out", str(folder / "p.csv")])
    assert status == 0, capsys.readouterr().err
    written = pd.read_csv(folder / "p.csv", float_precision="round_trip")
    model = load_model(model_path)["model"]
    X = read_table(data_path).frame.to_numpy(float)       # as predict reads it
    np.testing.assert_array_equal(written[["p_no", "p_yes"]].to_numpy(),
                                  model.predict_proba(X))
    assert list(written["predicted"]) == [["no", "yes"][c] for c in model.predict(X)]


# ----------------------------------------------------------------------------- code in a file

def eval_chain(marker):
    """``numpy.full_like -> numpy.ravel -> builtins.max -> builtins.eval``: the code
    string fills the rows, and eval runs it."""
    code = f"open({str(marker)!r}, 'w').write('ran')"
    return Pipeline([
        ("fill", FunctionTransformer(np.full_like, kw_args={"fill_value": code,
                                                            "dtype": object})),
        ("flat", FunctionTransformer(np.ravel)), ("max", FunctionTransformer(max)),
        ("run", FunctionTransformer(eval)), ("model", GaussianNB())])


def runstring_chain(marker):
    """``numpy.full_like -> numpy.take -> numpy.testing``'s ``runstring`` (exec): no
    ``builtins.`` type at all."""
    from numpy.testing import runstring

    code = f"open({str(marker)!r}, 'w').write('ran')"
    return Pipeline([
        ("fill", FunctionTransformer(np.full_like, kw_args={"fill_value": code,
                                                            "dtype": object})),
        ("first", FunctionTransformer(np.take, kw_args={"indices": 0})),
        ("run", FunctionTransformer(runstring, kw_args={"dict": {}})),
        ("model", GaussianNB())])


def hostile_record(chain, train) -> dict:
    record = model_record("nb", GaussianNB(), train)
    return {**record, "model": chain}


@pytest.mark.parametrize("make", [eval_chain, runstring_chain], ids=["eval", "runstring"])
def test_a_model_file_that_runs_code_is_refused_before_anything_is_built(make, files,
                                                                          capsys):
    folder, _, data_path = files
    live, marker = folder / "live.skops", folder / "ran.txt"
    save(live, hostile_record(make(folder / "live_ran.txt"), dataset()))
    trusting = sio.loads(live.read_bytes(), trusted=sio.get_untrusted_types(
        data=live.read_bytes()))                     # skops trusting every type: it runs
    trusting["model"].steps[-1] = ("model", fitted(GaussianNB())[0])
    with pytest.raises(Exception):                  # noqa: B017 - the code ran first
        trusting["model"].predict(np.zeros((2, 3)))
    assert (folder / "live_ran.txt").read_text() == "ran"
    hostile = save(folder / "model_x.skops", hostile_record(make(marker), dataset()))
    status = predict([hostile, data_path, "--out", str(folder / "p.csv")])
    refused(capsys, status, "type(s) or function(s) the app does not write")
    assert not marker.exists() and not (folder / "p.csv").exists()
    with pytest.raises(EngineError) as caught:
        load_model(hostile)
    assert caught.value.code == "model_untrusted"
    types = caught.value.fields["types"]
    assert "sklearn.preprocessing._function_transformer.FunctionTransformer (ObjectNode)" \
        in types
    assert ("builtins.eval (TypeNode)" in types) == (make is eval_chain)
    assert ("numpy.testing._private.utils.runstring (FunctionNode)" in types) == \
        (make is runstring_chain)
    assert not marker.exists()


# ----------------------------------------------------------------------------- bombs

def zip_of(members: dict, compression=zipfile.ZIP_STORED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_schema_that_unpacks_to_100_mb_is_refused_unread(files):
    """A deflated member: the app stores its members uncompressed, so nothing can unpack
    to more than the file holds."""
    folder, _, data_path = files
    bomb = folder / "model_bomb.skops"
    bomb.write_bytes(zip_of({"schema.json": b" " * (100 * 1024 ** 2) + b"{}"},
                            zipfile.ZIP_DEFLATED))
    assert bomb.stat().st_size < 200_000
    status, err, peak = measured_predict(bomb, data_path, "--out", folder / "p.csv")
    one_headless_error(status, err, "'schema.json' is compressed")
    assert peak < BOMB_PEAK, peak
    assert code_of(bomb) == "model_foreign"


def test_a_schema_over_its_limit_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(model_archive, "MAX_SCHEMA_BYTES", 1000)
    (tmp_path / "m.skops").write_bytes(zip_of({"schema.json": b" " * 1001 + b"{}"}))
    with pytest.raises(EngineError, match="its schema.json is 1.0 KB, more than the limit"):
        model_archive.read_archive(str(tmp_path / "m.skops"), available=10 ** 9)
    with pytest.raises(EngineError, match=r"\(held 12 times\) is 12.0 KB, more than the "
                                          r"memory available \(11.0 KB\)"):
        monkeypatch.setattr(model_archive, "MAX_SCHEMA_BYTES", 10 ** 6)
        model_archive.read_archive(str(tmp_path / "m.skops"), available=11_000)


def declared_size(data: bytes, member: str, size: int) -> bytes:
    """``data`` with the unpacked size of ``member`` in the central directory set to
    ``size`` (the member itself unchanged)."""
    at = data.index(b"PK\x01\x02")
    while True:
        name_length = int.from_bytes(data[at + 28:at + 30], "little")
        if data[at + 46:at + 46 + name_length] == member.encode():
            break
        at = data.index(b"PK\x01\x02", at + 4)
    return data[:at + 24] + size.to_bytes(4, "little") + data[at + 28:]


def test_members_declaring_more_than_the_memory_are_refused_unread(files):
    folder, model_path, data_path = files
    data = read(model_path)
    npy = next(n for n in zipfile.ZipFile(model_path).namelist() if n.endswith(".npy"))
    bomb = folder / "model_big.skops"
    bomb.write_bytes(declared_size(data, npy, 0xFFFF_FFF0))
    status, err, peak = measured_predict(bomb, data_path, "--out", folder / "p.csv")
    one_headless_error(status, err, "what it unpacks to is 4.3 GB")
    assert peak < BOMB_PEAK, peak
    with pytest.raises(EngineError) as caught:
        model_archive.read_archive(str(bomb), available=8 * 1024 ** 3)
    assert caught.value.code == "model_too_large"
    assert caught.value.fields["limit"] == model_archive.MAX_UNPACKED_BYTES
    data = read(model_path)
    (folder / "model_3g.skops").write_bytes(declared_size(data, npy, 3 * 1024 ** 3))
    with pytest.raises(EngineError, match="memory available") as caught:
        model_archive.read_archive(str(folder / "model_3g.skops"), available=4 * 1024 ** 3)
    assert caught.value.fields["size"] > 2 * 3 * 1024 ** 3


def test_an_array_declaring_a_billion_values_is_refused_before_numpy_allocates(files):
    folder, model_path, _ = files
    with zipfile.ZipFile(model_path) as archive:
        members = {n: archive.read(n) for n in archive.namelist()}
    npy = next(n for n in members if n.endswith(".npy"))
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False,
                                                  "shape": (10 ** 9,)})
    members[npy] = header.getvalue() + b"\0" * 64     # the header writes the magic too
    (folder / "model_npy.skops").write_bytes(zip_of(members))
    with pytest.raises(EngineError, match="declares 1,000,000,000 values") as caught:
        load_model(str(folder / "model_npy.skops"))
    assert caught.value.code == "model_foreign"


@pytest.mark.parametrize("members, words", [
    ({"schema.json": b"[" * 200_000}, "schema.json cannot be read"),
    ({"schema.json": b"{}", "evil.py": b"print(1)"}, "unexpected member 'evil.py'"),
    ({"1.npy": b""}, "no schema.json"),
    ({"schema.json": b"[1, 2]"}, "schema.json is not an object")])
def test_an_archive_skops_does_not_write_is_refused(tmp_path, members, words):
    (tmp_path / "m.skops").write_bytes(zip_of(members))
    with pytest.raises(EngineError, match=words) as caught:
        load_model(str(tmp_path / "m.skops"))
    assert caught.value.code == "model_foreign"


def test_a_named_pipe_as_the_model_file_is_refused_at_once(files):
    folder, _, data_path = files
    os.mkfifo(folder / "model_pipe.skops")
    status, err, _ = measured_predict(folder / "model_pipe.skops", data_path, "--out",
                                      folder / "p.csv", timeout=60)
    one_headless_error(status, err, "named pipe (FIFO)")
    assert code_of(folder / "model_pipe.skops") == "model_unreadable"


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_as_the_model_file_is_refused(tmp_path):
    os.mknod(tmp_path / "zero", stat.S_IFCHR | 0o600, os.makedev(1, 5))
    assert code_of(tmp_path / "zero") == "model_unreadable"


def test_layers_times_rows_beyond_the_memory_are_refused(tmp_path):
    """An MLP of one 2,000-unit layer on 300,000 rows needs about 9.6 GB for its layer
    outputs: refused before predicting, under the 4 GiB cap."""
    model, train = fitted(MLPClassifier(hidden_layer_sizes=(2000,), max_iter=5))
    model_path = save(tmp_path / "model_mlp.skops", model_record("mlp", model, train))
    rows = frame(300_000, seed=2).drop(columns="t").round(3)
    rows.to_csv(tmp_path / "many.csv", index=False)
    status, err, peak = measured_predict(model_path, tmp_path / "many.csv", "--out",
                                         tmp_path / "p.csv", timeout=300)
    line = one_headless_error(status, err, "a layer of 2,000 units", "300,000 rows")
    assert "9.6 GB" in line, line
    assert peak < CAP_BYTES // 2, peak
    assert not (tmp_path / "p.csv").exists()


def test_a_network_of_two_12000_unit_layers_is_refused_before_the_run(tmp_path):
    """Within the parameter caps, yet 4.7 GB for its fit: refused by the run budget
    before anything is fitted."""
    experiment = tmp_path / "mlp.json"
    experiment.write_text(json.dumps({
        "dataset": {"builtin": "iris"}, "cv": {"n_splits": 2, "n_repeats": 1},
        "models": [{"estimator": "MLPClassifier",
                    "params": {"hidden_layer_sizes": [12000, 12000]}}]}))
    status, err, peak = measured_predict(experiment, "--out", tmp_path / "out", "--quiet",
                                         command="run")
    one_headless_error(status, err, "a neural network's fit 4.7 GB", "smaller hidden layers")
    assert peak < BOMB_PEAK, peak


# ----------------------------------------------------------------------------- wrong records

def record_with(**changes) -> dict:
    model, train = fitted(GaussianNB())
    return {**model_record("nb", model, train), **changes}


@pytest.mark.parametrize("changes, field", [
    ({"model": {"predict": "no"}}, "model"),
    ({"classes": ["no", "yes", "maybe"]}, "model"),
    ({"classes": ["only"]}, "classes"),
    ({"classes": ["a", "a"]}, "classes"),
    ({"features": ["a", "b"]}, "dtypes"),
    ({"dtypes": ["float64", "float64", "datetime64[ns]"]}, "dtypes"),
    ({"plain_numeric": "yes"}, "plain_numeric"),
    ({"format": "another app 1"}, "format")])
def test_a_record_with_a_wrong_field_is_refused(files, capsys, changes, field):
    folder, _, data_path = files
    path = save(folder / "model_w.skops", record_with(**changes))
    with pytest.raises(EngineError) as caught:
        load_model(path)
    assert caught.value.code == "model_record" and caught.value.fields["field"] == field
    refused(capsys, predict([path, data_path, "--out", str(folder / "p.csv")]),
            f"its {field}")
    assert not (folder / "p.csv").exists()


def test_a_record_without_features_is_refused(files, capsys):
    folder, _, data_path = files
    record = record_with()
    del record["features"]
    path = save(folder / "model_nf.skops", record)
    refused(capsys, predict([path, data_path, "--out", str(folder / "p.csv")]),
            "not the app's record")


def test_a_model_that_fails_while_predicting_is_one_line(files, capsys):
    folder, _, data_path = files
    model, train = fitted(GaussianNB())
    model.theta_ = np.zeros((2, 5))                 # five features' means for three columns
    path = save(folder / "model_f.skops", model_record("nb", model, train))
    line = refused(capsys, predict([path, data_path, "--out", str(folder / "p.csv")]),
                   "failed while predicting")
    assert "ValueError" in line


def test_the_data_file_is_called_the_data_file(files, capsys):
    folder, model_path, _ = files
    (folder / "other.csv").write_text("x,y\n1,2\n")
    line = refused(capsys, predict([model_path, str(folder / "other.csv"), "--out",
                                    str(folder / "p.csv")]), "the data file")
    assert "test file" not in line


# ----------------------------------------------------------------------------- --out

def out_refused(capsys, files, out, words):
    _, model_path, data_path = files
    return refused(capsys, predict([model_path, data_path, "--out", str(out)]), words)


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_out_on_a_character_device_leaves_it_a_device(files, capsys):
    device = files[0] / "null"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    out_refused(capsys, files, device, "it is a character device")
    assert stat.S_ISCHR(os.stat(device).st_mode)


def test_out_on_a_named_pipe_or_a_folder_is_refused(files, capsys):
    folder = files[0]
    os.mkfifo(folder / "pipe")
    out_refused(capsys, files, folder / "pipe", "it is a named pipe (FIFO)")
    os.symlink(folder / "pipe", folder / "link.csv")
    out_refused(capsys, files, folder / "link.csv", "it is a named pipe (FIFO)")
    assert stat.S_ISFIFO(os.stat(folder / "pipe").st_mode)
    assert os.path.islink(folder / "link.csv")
    (folder / "sub").mkdir()
    out_refused(capsys, files, folder / "sub", "it is a folder")


def test_out_never_replaces_the_data_or_the_model_file(files, capsys):
    folder, model_path, data_path = files
    before = {p: read(p) for p in (model_path, data_path)}
    out_refused(capsys, files, data_path, "it is the data file")
    out_refused(capsys, files, model_path, "it is the model file")
    os.link(model_path, folder / "linked.csv")
    out_refused(capsys, files, folder / "linked.csv", "it is the model file")
    os.symlink(data_path, folder / "alias.csv")
    out_refused(capsys, files, folder / "alias.csv", "it is the data file")
    assert {p: read(p) for p in before} == before


def test_out_in_a_missing_folder_makes_no_folder(files, capsys):
    folder = files[0]
    line = out_refused(capsys, files, folder / "new" / "deeper" / "p.csv", "does not exist")
    assert "create it first" in line and not (folder / "new").exists()


def test_out_replaces_a_regular_file(files, capsys):
    folder, model_path, data_path = files
    (folder / "p.csv").write_text("old\n")
    assert predict([model_path, data_path, "--out", str(folder / "p.csv")]) == 0
    assert len(pd.read_csv(folder / "p.csv")) == 20


def test_available_memory_bounds_the_archive_in_process(files):
    _, model_path, _ = files
    size = sum(i.file_size for i in zipfile.ZipFile(model_path).infolist())
    with pytest.raises(EngineError) as caught:
        model_archive.read_archive(model_path, available=size)
    assert caught.value.code == "model_too_large"
    data, trusted = model_archive.read_archive(model_path, available=100 * size)
    assert data == read(model_path)
    assert "sklearn.naive_bayes.GaussianNB" in trusted and len(trusted) == len(set(trusted))


def test_a_member_larger_than_its_directory_says_is_not_read_whole(files):
    """A member whose directory says 10 bytes but which holds 1 MB is read no further
    than 10 bytes: the archive is refused (its CRC fails), not read whole."""
    folder = files[0]
    data = zip_of({"schema.json": b"{" + b" " * 1_000_000 + b"}"})
    (folder / "m.skops").write_bytes(declared_size(data, "schema.json", 10))
    assert code_of(folder / "m.skops") == "model_foreign"


def test_class_codes_outside_the_classes_are_a_coded_failure():
    from engine.runs.heldout.saved import predictions

    class Wild(GaussianNB):                 # predicts a code the record has no class for
        def predict(self, X):
            return np.full(len(X), 7)

    model, train = fitted(Wild())
    record = model_record("wild", model, train)
    with pytest.raises(EngineError, match=r"class codes outside 0\.\.1") as caught:
        predictions(record, frame(5).drop(columns="t"), path="new.csv",
                    model_path="model_wild.skops")
    assert caught.value.code == "model_failed"
    assert caught.value.fields == {"path": "model_wild.skops",      # the DetailError's
                                   "detail": "it gave class codes outside 0..1 or not one "
                                             "per row"}


def nodes_of(schema) -> list:
    found, stack = [], [schema]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if "__loader__" in item:
                found.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def mutate(schema: dict, rng) -> dict:
    """``schema`` with one node changed: another allowed loader, module or name, a key
    removed or its content replaced."""
    from engine.runs.heldout.model_types import ALLOWED

    schema = json.loads(json.dumps(schema))
    node = rng.choice(nodes_of(schema))
    triple = sorted(ALLOWED)[rng.integers(len(ALLOWED))]
    kind = rng.integers(5)
    if kind < 3:
        node[("__loader__", "__module__", "__class__")[kind]] = triple[kind]
    elif kind == 3:
        node.pop(sorted(node)[rng.integers(len(node))])
    else:
        node["content"] = [None, 7, "x", [], {}, "\"7\""][rng.integers(6)]
    return schema


def test_damaged_nodes_are_a_coded_refusal_or_a_coded_prediction_failure(files):
    """One node of a saved model's schema changed at random, 300 times (as a hand-edited
    file would be): each load gives a record or one EngineError, and each record that
    loads predicts or fails with one EngineError -- never another exception."""
    from engine.runs.heldout.saved import predictions

    folder, model_path, data_path = files
    with zipfile.ZipFile(model_path) as archive:
        members = {n: archive.read(n) for n in archive.namelist()}
    schema, rng, codes = json.loads(members["schema.json"]), np.random.default_rng(36), {}
    rows = read_table(data_path).frame
    for attempt in range(300):
        path = folder / f"damaged_{attempt}.skops"
        path.write_bytes(zip_of({**members, "schema.json": json.dumps(mutate(schema, rng))}))
        try:
            predictions(load_model(str(path)), rows, path=data_path, model_path=str(path))
            codes["predicted"] = codes.get("predicted", 0) + 1
        except EngineError as exc:
            codes[exc.code] = codes.get(exc.code, 0) + 1
        path.unlink()
    assert set(codes) <= {"model_foreign", "model_record", "model_untrusted",
                          "model_failed", "predict_data", "predicted"}, codes
    assert codes.get("model_untrusted", 0) > 20 and codes.get("model_foreign", 0) > 20, codes


def test_a_usage_error_of_predict_points_to_predicts_help(capsys):
    with pytest.raises(SystemExit) as caught:
        predict(["only_a_model.skops"])
    assert caught.value.code == 2
    line = refused(capsys, 2, "the following arguments are required: data, --out")
    assert line.endswith("(see: honest-eval predict --help)")


def test_a_long_list_of_members_is_refused_before_zipfile_reads_it(tmp_path, monkeypatch):
    """20,000 empty members: their list is 1.0 MB, read into about 11 MB of objects."""
    members = {f"{i}.npy": b"" for i in range(20_000)}
    (tmp_path / "m.skops").write_bytes(zip_of({"schema.json": b"{}", **members}))
    monkeypatch.setattr(model_archive, "MAX_DIRECTORY_BYTES", 1_000_000)
    with pytest.raises(EngineError, match="its list of members is 1.1 MB, more than the "
                                          "limit") as caught:
        model_archive.read_archive(str(tmp_path / "m.skops"), available=10 ** 9)
    assert caught.value.code == "model_too_large"
    monkeypatch.setattr(model_archive, "MAX_DIRECTORY_BYTES", 10 ** 7)
    with pytest.raises(EngineError, match=r"\(held 12 times\) is 13.\d MB, more than the "
                                          "memory available"):
        model_archive.read_archive(str(tmp_path / "m.skops"), available=10 ** 7)


def test_a_model_asking_for_a_million_threads_is_refused(files, capsys):
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.preprocessing import StandardScaler

    folder, _, data_path = files
    model, train = fitted(Pipeline([("scale", StandardScaler()),
                                    ("model", KNeighborsClassifier(n_jobs=1_000_000))]))
    path = save(folder / "model_knn.skops", model_record("knn", model, train))
    with pytest.raises(EngineError, match="n_jobs = 1,000,000 threads") as caught:
        load_model(path)
    assert caught.value.code == "model_record" and caught.value.fields["field"] == "model"
    refused(capsys, predict([path, data_path, "--out", str(folder / "p.csv")]),
            "beyond the app's caps")
