"""Issue 31: nothing outside the result folder is written, no user file in it is lost.

Every case runs the headless runner as a user would (``tests/fuzz/conftest.py``'s
``headless``, under a 4 GiB address-space cap) on a tiny built-in data set (iris, one
naive Bayes, 2 folds once), and compares a hash of every file around and inside the
result folder before and after.
"""
import hashlib
import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.output.folder_entries import (MARKER_TEXT, STAGING_MARKER, WRITABLE, WRITTEN_BY,
                                          manifest_problem, read_manifest_file)
from tests.fuzz.conftest import headless

OURS = ".honest-eval-staging-abcd1234"          # a staging folder named like the app's
ATTACK = {"tables": ["../victim.txt", "../.ssh/authorized_keys"], "removed": [],
          "written_by": WRITTEN_BY}


def tiny_experiment(path):
    path.write_text(json.dumps({
        "dataset": {"builtin": "iris"},
        "models": [{"name": "nb", "estimator": "GaussianNB"}],
        "cv": {"n_splits": 2, "n_repeats": 1, "random_state": 0},
        "metrics": ["accuracy"]}))
    return path


def tree_hash(root, skip=None) -> dict:
    """``{relative path: sha256 or link target}`` of everything under ``root`` (links not
    followed), ``skip`` (a folder) left out."""
    found = {}
    for folder, dirs, files in os.walk(root):
        if skip is not None and os.path.samefile(folder, skip):
            dirs[:] = []
            continue
        for name in dirs + files:
            path = os.path.join(folder, name)
            key = os.path.relpath(path, root)
            if os.path.islink(path):
                found[key] = "link:" + os.readlink(path)
            elif os.path.isfile(path):
                with open(path, "rb") as stream:
                    found[key] = hashlib.sha256(stream.read()).hexdigest()
            else:
                found[key] = "folder"
    return found


@pytest.fixture
def place(tmp_path):
    """``home/`` with a victim file and ``.ssh/authorized_keys`` beside the result folder
    ``home/results/``, the experiment file outside ``home``."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / "victim.txt").write_text("the user's own file\n")
    (home / ".ssh" / "authorized_keys").write_text("ssh-ed25519 AAAA user\n")
    out = home / "results"
    out.mkdir()
    return home, out, tiny_experiment(tmp_path / "exp.json")


def earlier_run(out, exp):
    """A real earlier run of the app into ``out``."""
    done = headless(exp, "--out", out, "--quiet")
    assert done.returncode == 0, done.stderr
    return done


def plant_staging(out, name, manifest, marker=True):
    staging = out / name
    staging.mkdir()
    if marker:
        (staging / STAGING_MARKER).write_text(MARKER_TEXT)
    (staging / "run.json").write_text(manifest if isinstance(manifest, str)
                                      else json.dumps(manifest))
    (out / "victim.txt").write_text("planted\n")            # what would replace the victim
    (out / ".ssh").mkdir(exist_ok=True)
    (out / ".ssh" / "authorized_keys").write_text("ssh-rsa ATTACKER\n")
    return staging


def one_error_line(done, *fragments):
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


# ---------------------------------------------------------------------- planted manifests
@pytest.mark.slow
@pytest.mark.parametrize("name, marker", [(".staging-x", False), (OURS, True), (OURS, False)])
def test_a_planted_staging_manifest_never_writes_outside_the_folder(place, name, marker):
    home, out, exp = place
    earlier_run(out, exp)
    staging = plant_staging(out, name, ATTACK, marker)
    before = tree_hash(home, skip=out)
    planted = tree_hash(staging)
    done = headless(exp, "--out", out)
    assert done.returncode == 0, done.stderr
    assert tree_hash(home, skip=out) == before                  # nothing outside changed
    assert tree_hash(staging) == planted                        # left alone ...
    assert f"note: left '{name}' in {out} alone" in done.stderr  # ... and reported
    assert (out / "victim.txt").read_text() == "planted\n"      # not ours: not removed


@pytest.mark.slow
def test_a_planted_staging_manifest_in_a_folder_not_ours_is_refused(place):
    home, out, exp = place
    plant_staging(out, OURS, ATTACK)
    before = tree_hash(home)
    done = headless(exp, "--out", out)
    assert done.returncode == 2, done.stderr
    assert "holds files this app did not write ('.ssh', 'victim.txt')" in done.stderr
    assert tree_hash(home) == before


@pytest.mark.parametrize("manifest, problem", [
    ("{not json", "it is not JSON"),
    ("[" * 100_000 + "]" * 100_000, "it is not JSON"),
    (json.dumps({"written_by": WRITTEN_BY}), 'it has no "tables" list'),
    (json.dumps({"tables": "summary.csv", "written_by": WRITTEN_BY}),
     'its "tables" is not a list'),
    (json.dumps({"tables": {"a": 1}, "written_by": WRITTEN_BY}), 'its "tables" is not a list'),
    (json.dumps({"tables": ["../victim.txt"], "written_by": WRITTEN_BY}),
     "its \"tables\" names '../victim.txt', not a table of this app"),
    (json.dumps({"tables": ["thesis.csv"], "written_by": WRITTEN_BY}),
     "its \"tables\" names 'thesis.csv', not a table of this app"),
    (json.dumps({"tables": ["summary.csv"], "removed": "x", "written_by": WRITTEN_BY}),
     'its "removed" is not a list'),
    (json.dumps({"tables": ["thesis.csv"]}), "it was not written by this app"),
], ids=["not-json", "deep", "no-tables", "text", "object", "outside", "foreign-name",
        "removed-text", "foreign"])
@pytest.mark.slow
def test_a_broken_manifest_is_one_error_line_before_computing(place, manifest, problem):
    home, out, exp = place
    (out / "run.json").write_text(manifest)
    (out / "thesis.csv").write_text("two years of work\n")
    before = tree_hash(home)
    done = headless(exp, "--out", out)                # no --quiet: a fit would show progress
    line = one_error_line(done, f"the folder {out} holds files this app did not write",
                          f"'run.json' ({problem})", "'thesis.csv'")
    assert "Traceback" not in done.stderr and len(line) < 600
    assert tree_hash(home) == before


@pytest.mark.slow
@pytest.mark.parametrize("manifest", [
    "{not json", "[" * 100_000, json.dumps({"written_by": WRITTEN_BY}),
    json.dumps({"tables": 7, "written_by": WRITTEN_BY}),
    json.dumps({"tables": ["summary.csv", "/etc/passwd"], "written_by": WRITTEN_BY})],
    ids=["not-json", "deep", "no-tables", "number", "absolute"])
def test_a_broken_staging_manifest_is_left_alone_and_reported(place, manifest):
    home, out, exp = place
    earlier_run(out, exp)
    staging = plant_staging(out, OURS, manifest)
    planted = tree_hash(staging)
    done = headless(exp, "--out", out)
    assert done.returncode == 0, done.stderr
    note = f"left '{OURS}' in {out} alone"
    assert f"note: {note}" in done.stderr and "its run.json:" in done.stderr
    assert tree_hash(staging) == planted
    assert note in (out / "notes.txt").read_text(encoding="utf-8")      # kept with the run
    quiet = headless(exp, "--out", out, "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert note in (out / "notes.txt").read_text(encoding="utf-8")


# ---------------------------------------------------------------------- the user's files
@pytest.mark.slow
@pytest.mark.parametrize("entry", ["summary.csv", "notes.txt", "report.md", "ranks.csv",
                                   "tuning.csv", ".staging-photos", ".tmp-draft.txt",
                                   ".honest-eval-tmp-mine.txt", "run.json"])
def test_a_users_file_is_never_lost(place, entry):
    home, out, exp = place
    if entry.startswith(".staging"):
        (out / entry).mkdir()
        (out / entry / "holiday.jpg").write_bytes(b"\xff\xd8 a photo")
    else:
        (out / entry).write_text("the user's own text\n")
    before = tree_hash(home)
    done = headless(exp, "--out", out)
    one_error_line(done, f"holds files this app did not write ('{entry}'")
    assert tree_hash(home) == before


@pytest.mark.slow
def test_the_users_files_beside_the_apps_results_stay(place):
    home, out, exp = place
    earlier_run(out, exp)
    (out / "notes.md").write_text("mine\n")
    (out / ".tmp-draft.txt").write_text("draft\n")
    (out / ".staging-photos").mkdir()
    (out / ".staging-photos" / "a.jpg").write_bytes(b"jpg")
    mine = {name: digest for name, digest in tree_hash(out).items()
            if name.startswith(("notes.md", ".tmp-", ".staging-"))}
    done = headless(exp, "--out", out, "--quiet")
    assert done.returncode == 0, done.stderr
    after = tree_hash(out)
    assert all(after[name] == digest for name, digest in mine.items())


@pytest.mark.slow
def test_a_users_file_under_a_table_name_in_the_apps_folder_is_refused(place):
    home, out, exp = place
    earlier_run(out, exp)
    (out / "ranks.csv").write_text("my ranks\n")
    before = tree_hash(home)
    done = headless(exp, "--out", out)
    one_error_line(done, "holds 'ranks.csv', which its run.json does not list")
    assert tree_hash(home) == before


# ---------------------------------------------------------------------- links
@pytest.mark.slow
@pytest.mark.parametrize("dangling", [False, True])
def test_a_linked_table_in_a_folder_not_ours_is_refused(place, dangling):
    home, out, exp = place
    target = home / ("nowhere.csv" if dangling else "victim.txt")
    os.symlink(target, out / "summary.csv")
    before = tree_hash(home)
    done = headless(exp, "--out", out)
    one_error_line(done, "holds files this app did not write ('summary.csv')")
    assert tree_hash(home) == before and not (home / "nowhere.csv").exists()


@pytest.mark.slow
@pytest.mark.parametrize("link", [os.symlink, os.link], ids=["symbolic", "hard"])
def test_a_link_put_in_place_of_a_listed_table_is_replaced_not_written_through(place, link):
    home, out, exp = place
    earlier_run(out, exp)
    os.unlink(out / "summary.csv")
    link(home / "victim.txt", out / "summary.csv")
    before = tree_hash(home, skip=out)
    done = headless(exp, "--out", out, "--quiet")
    assert done.returncode == 0, done.stderr
    assert tree_hash(home, skip=out) == before                  # the other name unchanged
    assert not os.path.islink(out / "summary.csv")
    assert os.stat(out / "summary.csv").st_nlink == 1
    assert (out / "summary.csv").read_text().startswith("model,")


@pytest.mark.slow
@pytest.mark.parametrize("dangling", [False, True])
def test_a_linked_store_in_the_folder_is_refused(place, dangling):
    home, out, exp = place
    earlier_run(out, exp)
    os.unlink(out / "store.sqlite")
    target = home / ("elsewhere.sqlite" if dangling else "victim.txt")
    os.symlink(target, out / "store.sqlite")
    before = tree_hash(home)
    done = headless(exp, "--out", out)
    one_error_line(done, f"the result store {out}/store.sqlite is a symbolic link")
    assert tree_hash(home) == before and not (home / "elsewhere.sqlite").exists()


@pytest.mark.slow
def test_the_out_folder_may_be_reached_through_a_link(place, tmp_path):
    home, out, exp = place
    os.symlink(out, tmp_path / "shortcut")
    done = headless(exp, "--out", tmp_path / "shortcut", "--quiet")
    assert done.returncode == 0, done.stderr
    assert (out / "summary.csv").is_file() and (out / "run.json").is_file()


# ---------------------------------------------------------------------- the check itself
NAMES = st.one_of(
    st.sampled_from(sorted(WRITABLE)),
    st.text(max_size=40),
    st.builds(lambda a, b: a + b, st.sampled_from(["../", "/", "/etc/", "..\\", "a/", "./",
                                                   "\x00", "C:\\"]),
              st.sampled_from(sorted(WRITABLE))),
    st.builds(lambda n: "x" * n + ".csv", st.integers(200, 5000)),
    st.integers(), st.none(), st.lists(st.text(max_size=3), max_size=2))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(tables=st.lists(NAMES, max_size=6), removed=st.lists(NAMES, max_size=3))
def test_every_unsafe_manifest_is_refused(tables, removed):
    manifest = {"tables": tables, "removed": removed, "written_by": WRITTEN_BY}
    safe = all(isinstance(n, str) and n in WRITABLE for n in tables + removed) \
        and len(set(tables)) == len(tables) and len(set(removed)) == len(removed)
    assert (manifest_problem(manifest) is None) == safe
    if not safe:
        return
    for name in tables + removed:       # what is accepted is a plain name of the folder
        assert os.path.basename(name) == name and ".." not in name and "\x00" not in name


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=200) | st.binary(max_size=200).map(
    lambda b: b.decode("latin-1")))
def test_reading_any_manifest_file_never_raises(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("m") / "run.json"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    manifest, problem = read_manifest_file(str(path))
    assert (manifest is None) != (problem is None)


@pytest.mark.slow
def test_a_store_kept_in_the_folder_under_another_name_is_the_runs_own(place):
    home, out, exp = place
    store = out / "kept.sqlite"
    done = headless(exp, "--out", out, "--store", store, "--quiet")
    assert done.returncode == 0, done.stderr
    os.unlink(out / "run.json")                  # as if the first run had been killed
    for name in os.listdir(out):
        if name.endswith(".csv") or name in ("notes.txt", "report.html", "report.md"):
            os.unlink(out / name)
    again = headless(exp, "--out", out, "--store", store)
    assert again.returncode == 0, again.stderr
    assert "reused 2 of 2 fits" in again.stderr


# ---------------------------------------------------------------------- issue 36: recovery
def forged_staging(out, manifest, files=()):
    """A staging folder exactly like the app's (marker, committed ``run.json``)."""
    staging = out / OURS
    staging.mkdir()
    (staging / STAGING_MARKER).write_text(MARKER_TEXT)
    for name in files:
        (staging / name).write_text("forged\n")
    (staging / "run.json").write_text(json.dumps({**manifest, "written_by": WRITTEN_BY}))
    return staging


@pytest.mark.slow
def test_a_forged_staging_folder_in_the_users_folder_touches_nothing(place):
    """Issue 36: recovery ran before the ownership check and deleted the user's notes."""
    home, out, exp = place
    for name in ("notes.txt", "report.md", "summary.csv"):
        (out / name).write_text(f"the user's {name}\n")
    forged_staging(out, {"tables": ["summary.csv"], "removed": ["notes.txt", "report.md"]},
                   ["summary.csv"])
    before = tree_hash(home)
    done = headless(exp, "--out", out)
    one_error_line(done, "holds files this app did not write ('notes.txt', 'report.md', "
                         "'summary.csv')")
    assert tree_hash(home) == before


def test_recovery_does_nothing_in_a_folder_not_ours(tmp_path):
    from engine.output.result_folder import recover_folder

    (tmp_path / "notes.txt").write_text("mine\n")
    forged_staging(tmp_path, {"tables": [], "removed": ["notes.txt"]})
    before = tree_hash(tmp_path)
    assert recover_folder(str(tmp_path)) == []
    assert tree_hash(tmp_path) == before


def test_a_committed_staging_folder_without_the_apps_run_json_is_left_alone(tmp_path):
    """Nothing but the app's entries, yet no run.json: the set is not rolled forward."""
    from engine.output.result_folder import recover_folder

    staging = forged_staging(tmp_path, {"tables": ["summary.csv"]}, ["summary.csv"])
    notes = recover_folder(str(tmp_path))
    assert [note.code for note in notes] == ["result_folder_leftover"]
    assert "the folder has no run.json of this app" in str(notes[0])
    assert sorted(os.listdir(tmp_path)) == [OURS]
    assert sorted(os.listdir(staging)) == [STAGING_MARKER, "run.json", "summary.csv"]


def test_a_transition_only_rolls_forward_over_names_the_run_json_lists(tmp_path):
    """The app's folder, the user's own ``pairwise.csv`` beside it, and a staging folder
    (named by a transition manifest) that would replace it: left alone and reported."""
    import pandas as pd

    from engine.output.result_folder import recover_folder, write_result_folder

    write_result_folder({"summary.csv": pd.DataFrame({"a": [1]})}, str(tmp_path), {}, [])
    (tmp_path / "pairwise.csv").write_text("the user's pairs\n")
    forged_staging(tmp_path, {"tables": ["pairwise.csv"], "removed": ["summary.csv"]},
                   ["pairwise.csv"])
    (tmp_path / "run.json").write_text(json.dumps({
        "tables": ["summary.csv"], "removed": [], "rolling_forward": OURS,
        "written_by": WRITTEN_BY}))
    before = tree_hash(tmp_path)
    notes = recover_folder(str(tmp_path))
    assert tree_hash(tmp_path) == before
    assert len(notes) == 1 and "'pairwise.csv', which the folder's run.json does not list" \
        in str(notes[0])


def test_a_stale_committed_staging_folder_beside_a_plain_run_json_is_deleted(tmp_path):
    """Killed between the commit point and step 3: the previous set stays, complete."""
    import pandas as pd

    from engine.output.result_folder import recover_folder, write_result_folder

    write_result_folder({"summary.csv": pd.DataFrame({"a": [1]})}, str(tmp_path), {}, [])
    before = tree_hash(tmp_path)
    forged_staging(tmp_path, {"tables": ["summary.csv"]}, ["summary.csv"])
    assert recover_folder(str(tmp_path)) == []
    assert tree_hash(tmp_path) == before
