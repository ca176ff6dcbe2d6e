"""Parameter help read with numpydoc's parser (engine.evaluation.param_help): the first
sentence of scikit-learn's own docstrings, the type's words as choices, bounded text."""
from __future__ import annotations

import pytest

from engine.evaluation.catalogue import CATALOGUE, parameter_specs
from engine.evaluation.param_help import (MAX_HELP_CHARS, bounded, documented_default,
                                          first_sentence, parameter_help, word_choices)


def spec(estimator: str, name: str):
    return next(s for s in parameter_specs(estimator) if s.name == name)


@pytest.mark.parametrize("estimator, name, help_text", [
    ("LogisticRegression", "C", "(float, default=1.0) Inverse of regularization strength; "
                                "must be a positive float."),
    ("SVC", "kernel", "({'linear', 'poly', 'rbf', 'sigmoid', 'precomputed'} or callable, "
                      "default='rbf') Specifies the kernel type to be used in the algorithm."),
    ("RandomForestClassifier", "n_estimators", "(int, default=100) The number of trees in "
                                               "the forest."),
])
def test_help_is_the_type_and_the_first_sentence_of_the_real_docstring(estimator, name,
                                                                       help_text):
    assert spec(estimator, name).doc == help_text


def test_a_typed_set_of_words_gives_the_choices_in_the_docstrings_order():
    assert spec("SVC", "kernel").choices == ("linear", "poly", "rbf", "sigmoid", "precomputed")
    assert spec("LogisticRegression", "penalty").choices == ("l1", "l2", "elasticnet")
    assert spec("RandomForestClassifier", "n_estimators").choices == ()


def test_every_help_of_the_catalogue_is_bounded_plain_one_line_text():
    helps = [s.doc for name in CATALOGUE for s in parameter_specs(name)]
    assert len(helps) > 150 and all(helps)
    assert max(len(h) for h in helps) <= MAX_HELP_CHARS
    assert not any("\n" in h or "<" in h.split(")")[0] for h in helps)


def test_long_text_is_cut_with_an_ellipsis_at_the_bound():
    assert bounded("x" * 500) == "x" * (MAX_HELP_CHARS - 1) + "…"
    assert bounded("short.") == "short."


def test_first_sentence_skips_short_abbreviations_and_stops_at_directives():
    assert first_sentence(["E.g. this one is long enough. Then more."]) == \
        "E.g. this one is long enough."
    assert first_sentence(["No full stop here", "", ".. versionadded:: 1.2"]) == \
        "No full stop here"


@pytest.mark.parametrize("kind, expected", [
    ("bool, default=False", False), ("{'l1', 'l2'}, default='l2'", "l2"),
    ("int, default=100", 100), ("float", "fallback"), ("str, default=see below", "fallback")])
def test_documented_default_reads_the_type_line(kind, expected):
    assert documented_default(kind, "fallback") == expected


@pytest.mark.parametrize("kind, words", [
    ("{'a', \"b\", None, 3}", ("a", "b")), ("int or float", ()), ("{not python}", ()),
    ("} then {", ())])
def test_word_choices_take_only_the_words_of_a_literal_set(kind, words):
    assert word_choices(kind) == words


class Twice:
    """A docstring numpydoc refuses (a section twice).

    Parameters
    ----------
    a : int
        The first.

    Parameters
    ----------
    b : int
        The second.
    """


class Odd:
    """A docstring with a section numpydoc does not know.

    Parameters
    ----------
    a, b : {'x', 'y'}, default='x'
        Both sides of the thing, which is documented once for the two of them.

    Remarks
    -------
    Not a numpydoc section.
    """


def test_a_docstring_numpydoc_refuses_gives_no_help_instead_of_an_error():
    assert parameter_help(Twice) == {}


def test_names_documented_together_share_their_help_and_unknown_sections_are_quiet(recwarn):
    found = parameter_help(Odd)
    assert set(found) == {"a", "b"} and found["a"] == found["b"]
    assert found["a"] == ("{'x', 'y'}, default='x'", "({'x', 'y'}, default='x') Both sides "
                          "of the thing, which is documented once for the two of them.")
    assert not [w for w in recwarn if "section" in str(w.message)]
