"""No assumed target: the candidates ranked with reasons, a column used without a name
only when it alone qualifies, time-to-event and status columns beside the target flagged,
and an identifier restarting within a centre offered as the pair (centre, id)."""
import json

import numpy as np
import pandas as pd
import pytest

from engine.foundation.errors import EngineError
from engine.input.data import dataset_from_frame
from engine.input.target_choice import (
    choose_target,
    name_words,
    outcome_companions,
    rank_targets,
)
from tests.helpers import assert_one_error_line, run_main

RNG = np.random.default_rng(7)


def icu(n=200):
    """Like Stat2Data's ICU: the outcome ``Survive`` second, ``Emergency`` last."""
    return pd.DataFrame({"ID": np.arange(1, n + 1) * 4, "Survive": RNG.integers(0, 2, n),
                         "Age": RNG.integers(16, 90, n), "AgeGroup": RNG.integers(1, 4, n),
                         "Sex": RNG.integers(0, 2, n), "Infection": RNG.integers(0, 2, n),
                         "SysBP": RNG.integers(60, 200, n), "Pulse": RNG.integers(40, 180, n),
                         "Emergency": RNG.integers(0, 2, n)})


def hawks(n=150):
    """Like Stat2Data's Hawks: ``Species`` (3) before ``Age`` (2), measurements after."""
    return pd.DataFrame({"Month": RNG.integers(8, 12, n), "Year": RNG.integers(1992, 2004, n),
                         "BandNumber": [f"{i}-{RNG.integers(100, 999)}" for i in range(n)],
                         "Species": RNG.choice(["CH", "RT", "SS"], n),
                         "Age": RNG.choice(["A", "I"], n), "Sex": RNG.choice(["F", "M"], n),
                         "Wing": RNG.normal(300, 50, n).round(1),
                         "Weight": RNG.normal(800, 200, n).round(1)})


def blood_storage(n=300):
    """Like medicaldata's blood_storage: ``Recurrence``, then ``Censor`` and
    ``TimeToRecurrence`` (measured after the outcome)."""
    recurrence = RNG.integers(0, 2, n)
    return pd.DataFrame({"RBC.Age.Group": RNG.integers(1, 4, n), "Age": RNG.integers(40, 80, n),
                         "AA": RNG.integers(0, 2, n), "FamHx": RNG.integers(0, 2, n),
                         "PVol": RNG.normal(50, 10, n).round(1),
                         "T.Stage": RNG.integers(1, 3, n), "Recurrence": recurrence,
                         "Censor": 1 - recurrence,
                         "TimeToRecurrence": RNG.gamma(2, 20, n).round(2)})


def bank_wages(n=474):
    """Like AER's BankWages: the outcome ``job`` first, ``minority`` last."""
    return pd.DataFrame({"job": RNG.choice(["admin", "custodial", "manage"], n),
                         "education": RNG.integers(8, 21, n),
                         "gender": RNG.choice(["female", "male"], n),
                         "minority": RNG.choice(["no", "yes"], n)})


@pytest.mark.parametrize("frame, outcome", [(icu(), "Survive"), (hawks(), "Species"),
                                            (blood_storage(), "Recurrence"),
                                            (bank_wages(), "job")])
def test_the_true_outcome_ranks_first_and_nothing_is_assumed(frame, outcome):
    ranked = rank_targets(frame)
    assert ranked[0].column == outcome
    assert len(ranked) >= 2
    with pytest.raises(EngineError) as caught:
        dataset_from_frame(frame)
    assert caught.value.code == "target_not_named"
    assert caught.value.fields["candidates"][0] == outcome
    assert f"{outcome!r}" in str(caught.value)


def test_reasons_say_why_each_candidate():
    ranked = {c.column: c for c in rank_targets(icu())}
    assert ranked["Survive"].reasons == ("named like an outcome (survive)", "2 classes")
    assert ranked["Emergency"].reasons == ("2 classes", "the last column")
    assert ranked["Survive"].score == 4.0 and ranked["Emergency"].score == 2.0
    assert "ID" not in ranked and "Pulse" not in ranked      # an identifier; 140 values
    assert ranked["Sex"].score == -1.0                         # a trait: -2, two classes: +1


def test_time_and_status_columns_are_never_ranked_as_outcomes():
    ranked = [c.column for c in rank_targets(blood_storage())]
    assert ranked.index("Censor") > ranked.index("AA")        # named like a status: -2
    assert "TimeToRecurrence" not in ranked                     # a measurement
    assert name_words("TimeToRecurrence") == ["time", "to", "recurrence"]


def test_a_column_is_used_unnamed_only_when_it_alone_qualifies():
    frame = pd.DataFrame({"x1": RNG.normal(size=40), "x2": RNG.normal(size=40),
                          "flag": RNG.integers(0, 2, 40), "Class": RNG.choice(["a", "b"], 40)})
    column, note = choose_target(frame)                         # the one named as a target
    assert column == "Class" and note.fields["rule"] == "named"
    column, note = choose_target(frame.drop(columns=["Class"]))  # the only candidate
    assert column == "flag" and note.fields["rule"] == "only"
    with pytest.raises(EngineError) as caught:
        choose_target(frame.assign(label=RNG.choice(["u", "v"], 40)))   # two named
    assert caught.value.code == "target_not_named"
    assert set(caught.value.fields["candidates"]) == {"Class", "label", "flag"}


def test_a_left_out_or_unnamed_row_index_is_never_a_candidate():
    frame = icu().rename(columns={"ID": "Unnamed: 0"})
    frame["Unnamed: 0"] = RNG.integers(0, 2, len(frame))       # even with few values
    assert "Unnamed: 0" not in [c.column for c in rank_targets(frame)]
    assert rank_targets(frame, excluded=["Survive"])[0].column == "Emergency"


def test_time_to_event_and_status_beside_the_target_are_flagged():
    dataset = dataset_from_frame(blood_storage(), "Recurrence")
    flagged = {n.fields["column"]: n.fields["kind"] for n in dataset.notes
               if n.code == "after_outcome"}
    assert flagged == {"Censor": "status", "TimeToRecurrence": "time"}
    leaks = {n.fields["column"] for n in dataset.notes if n.code == "possible_leak"}
    assert leaks == {"Censor"}                                # 1 - Recurrence
    assert outcome_companions(["MaritalStatus", "visit_time", "Age"], "Recurrence") == []


def respiratory():
    """Like geepack's respiratory: ``id`` 1-56 in centre 1 and 1-55 in centre 2, 4 visits."""
    rows = [{"centre": centre, "id": i, "treat": "AP"[i % 2], "age": int(RNG.integers(15, 70)),
             "visit": visit, "outcome": int(RNG.integers(0, 2))}
            for centre, n in ((1, 56), (2, 55)) for i in range(1, n + 1) for visit in range(1, 5)]
    return pd.DataFrame(rows)


def test_an_id_restarting_in_each_centre_is_offered_as_the_pair():
    dataset = dataset_from_frame(respiratory(), "outcome")
    codes = [n.code for n in dataset.notes]
    assert "groups_suggested" not in codes                  # not 'id' alone: 56 false groups
    pair = next(n for n in dataset.notes if n.code == "groups_pair_suggested")
    assert list(pair.fields["columns"]) == ["centre", "id"]
    assert (pair.fields["n_values"], pair.fields["n_pairs"]) == (56, 111)
    assert '"groups": ["centre", "id"]' in str(pair)
    grouped = dataset_from_frame(respiratory(), "outcome", groups=["centre", "id"])
    assert len(np.unique(grouped.groups)) == 111
    assert np.bincount(grouped.groups).min() == 4 == np.bincount(grouped.groups).max()
    assert list(grouped.X.columns) == ["treat", "age", "visit"]


def test_an_id_unique_across_centres_is_offered_alone():
    frame = respiratory()
    frame["id"] = frame["id"] + 100 * frame["centre"]
    codes = [n.code for n in dataset_from_frame(frame, "outcome").notes]
    assert "groups_suggested" in codes and "groups_pair_suggested" not in codes


@pytest.mark.slow
def test_headless_run_without_target_exits_2_naming_the_candidates(tmp_path):
    icu().to_csv(tmp_path / "icu.csv", index=False)
    experiment = {"dataset": {"csv": str(tmp_path / "icu.csv")},
                  "models": [{"estimator": "LogisticRegression"}]}
    (tmp_path / "exp.json").write_text(json.dumps(experiment))
    done = run_main(tmp_path / "exp.json", "--out", tmp_path / "out", timeout=120)
    assert_one_error_line(done, "'Survive' (named like an outcome (survive), 2 classes)",
                          "'Emergency' (2 classes, the last column)", '"target": "Survive"')


def test_the_report_names_the_pair_of_groups_columns(tmp_path):
    from types import SimpleNamespace

    from engine.output.report.sections import data_section

    dataset = dataset_from_frame(respiratory(), "outcome", groups=["centre", "id"],
                                 source={"csv": "respiratory.csv", "groups": ["centre", "id"]})
    from engine.output.document import html_block

    blocks = data_section(SimpleNamespace(dataset=dataset,
                                          experiment=SimpleNamespace(base_dir=str(tmp_path))))
    html = "".join(map(html_block, blocks))
    assert "columns centre + id: 111 groups; no group is split" in html
