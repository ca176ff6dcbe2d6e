"""The app's fold schemes as scikit-learn cross-validators (``split``, ``get_n_splits``).

Each one can be given as ``cv=`` to ``cross_validate``, ``GridSearchCV`` or any other
scikit-learn tool that splits, and gives exactly the folds the app's runs use
(:func:`engine.evaluation.cv.make_splits` builds its splits from them):

* scheme ``"sklearn"``: scikit-learn's own ``RepeatedStratifiedKFold``;
* scheme ``"weka"``: :class:`RepeatedWekaFold`, Weka 3's randomize-then-stratify folds,
  repeat *i* seeded ``random_state + i`` (:mod:`engine.evaluation.weka_folds`);
* a data set's ``"groups"``: :class:`RepeatedStratifiedGroupKFold`, scikit-learn's
  ``StratifiedGroupKFold(shuffle=True)``, repeat *i* seeded ``random_state + i``.

:func:`cross_validator` picks the one a run's settings name.
"""
from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.model_selection import (
    BaseCrossValidator,
    RepeatedStratifiedKFold,
    StratifiedGroupKFold,
)
from sklearn.utils.validation import check_consistent_length

from engine.foundation.caller_errors import CallerError
from engine.evaluation.weka_folds import weka_repeat

__all__ = ["RepeatedStratifiedGroupKFold", "RepeatedStratifiedKFold", "RepeatedWekaFold",
           "cross_validator", "grouped_splits", "inner_grouped_splits"]


def _check_counts(n_splits, n_repeats) -> None:
    for name, value, least in (("n_splits", n_splits, 2), ("n_repeats", n_repeats, 1)):
        if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < least:
            # a scikit-learn cross-validator's arguments (CVConfig checks the user's)
            raise CallerError("argument_value",
                              f"{name} must be an integer of at least {least} (got {value!r})")


class RepeatedWekaFold(BaseCrossValidator):
    """Weka 3's repeated stratified cross-validation, as a scikit-learn cross-validator.

    Repeat *i* (from 0) is one run of Weka's Experimenter numbered ``random_state + i``
    (or the Explorer's cross-validation with that seed): ``Random(random_state + i)``,
    ``randomize``, ``stratify(n_splits)``, then per fold ``trainCV`` and ``testCV``
    (:func:`engine.evaluation.weka_folds.weka_repeat`).

    Parameters
    ----------
    n_splits : int, default=10
        Folds per repeat, 2 to the number of rows (Weka's limit).
    n_repeats : int, default=1
    random_state : int, default=1
        The seed of the first repeat (a Java ``long``; Weka's Explorer uses 1 unless
        changed). Weka's folds need a seed: None or a ``RandomState`` is refused.

    Notes
    -----
    ``split`` yields ``train`` in the order Weka hands it to its classifier (shuffled
    by ``trainCV``) and ``test`` in Weka's order; ``groups`` is ignored (Weka has no
    grouped folds).

    Examples
    --------
    >>> import numpy as np
    >>> cv = RepeatedWekaFold(n_splits=2, n_repeats=1, random_state=1)
    >>> [test.tolist() for _, test in cv.split(np.zeros((4, 1)), [0, 0, 1, 1])]
    [[3, 1], [2, 0]]
    """

    def __init__(self, n_splits: int = 10, n_repeats: int = 1, random_state: int = 1):
        self.n_splits = n_splits
        self.n_repeats = n_repeats
        self.random_state = random_state

    def split(self, X, y=None, groups=None):
        """Yield ``(train, test)`` row indices, repeat by repeat, fold by fold.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or None
            Only its length is checked against ``y``.
        y : array-like of shape (n_samples,)
            The classes (Weka stratifies by them; required).
        groups : ignored

        Yields
        ------
        train, test : ndarray of int
        """
        _check_counts(self.n_splits, self.n_repeats)
        seed = self.random_state
        if not isinstance(seed, numbers.Integral) or isinstance(seed, bool):
            raise TypeError(f"Weka's folds need an integer random_state (got {seed!r})")
        if y is None:
            # a scikit-learn cross-validator's arguments (CVConfig checks the user's)
            raise CallerError("argument_missing",
                              "Weka's folds are stratified: split needs y")
        y = np.asarray(y)
        if X is not None:
            check_consistent_length(X, y)
        for repeat in range(self.n_repeats):
            yield from weka_repeat(y, self.n_splits, int(seed) + repeat)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """``n_splits * n_repeats`` (the arguments are ignored)."""
        return self.n_splits * self.n_repeats


class RepeatedStratifiedGroupKFold(BaseCrossValidator):
    """Repeated stratified group k-fold: repeat *i* (from 0) is scikit-learn's
    ``StratifiedGroupKFold(n_splits, shuffle=True, random_state=random_state + i)``.

    No group is ever in both the training part and the test fold of a split.

    Parameters
    ----------
    n_splits : int, default=5
    n_repeats : int, default=10
    random_state : int, RandomState instance or None, default=None
        An int seeds repeat *i* with ``random_state + i``; None leaves every repeat
        unseeded (new folds on every call); a ``RandomState`` is passed on to every
        repeat, which draw from it in turn (as scikit-learn's repeated splitters do).

    Notes
    -----
    ``split`` needs ``y`` and ``groups``, and yields the indices as
    ``StratifiedGroupKFold`` does (each in ascending order). Under scikit-learn's
    metadata routing it requests ``groups``, so a ``GridSearchCV`` or ``cross_validate``
    passes them on.
    """

    # asks metadata routing for ``groups``, as scikit-learn's grouped splitters do
    __metadata_request__split = {"groups": True}  # noqa: RUF012

    def __init__(self, n_splits: int = 5, n_repeats: int = 10, random_state=None):
        self.n_splits = n_splits
        self.n_repeats = n_repeats
        self.random_state = random_state

    def _seed(self, repeat: int):
        seed = self.random_state
        if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
            return int(seed) + repeat
        return seed

    def split(self, X, y=None, groups=None):
        """Yield ``(train, test)`` row indices, repeat by repeat, fold by fold.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        groups : array-like of shape (n_samples,)

        Yields
        ------
        train, test : ndarray of int
        """
        _check_counts(self.n_splits, self.n_repeats)
        for repeat in range(self.n_repeats):
            splitter = StratifiedGroupKFold(n_splits=self.n_splits, shuffle=True,
                                            random_state=self._seed(repeat))
            yield from splitter.split(X, y, groups)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """``n_splits * n_repeats`` (the arguments are ignored)."""
        return self.n_splits * self.n_repeats


def cross_validator(scheme: str, n_splits: int, n_repeats: int, random_state,
                    *, grouped: bool = False):
    """The cross-validator of a run's fold settings.

    Parameters
    ----------
    scheme : {"sklearn", "weka"}
        :attr:`engine.evaluation.cv.CVConfig.scheme`.
    n_splits, n_repeats : int
    random_state : int or None
    grouped : bool
        Whether the data set has groups (only with scheme ``"sklearn"``).

    Returns
    -------
    RepeatedStratifiedKFold, RepeatedWekaFold or RepeatedStratifiedGroupKFold
    """
    if grouped:
        if scheme == "weka":
            # a scikit-learn cross-validator's arguments (CVConfig checks the user's)
            raise CallerError("argument_choice",
                              "Weka has no grouped folds")
        return RepeatedStratifiedGroupKFold(n_splits, n_repeats, random_state)
    if scheme == "weka":
        return RepeatedWekaFold(n_splits, n_repeats, random_state)
    return RepeatedStratifiedKFold(n_splits=n_splits, n_repeats=n_repeats,
                                   random_state=random_state)


def grouped_splits(y: np.ndarray, groups: np.ndarray, n_splits: int, n_repeats: int,
                   random_state: int | None) -> list:
    """:class:`RepeatedStratifiedGroupKFold`'s splits as a list, test rows in ascending
    order; its warning about classes in fewer groups than folds is left out (the run says
    it as a ``grouped_small_classes`` note, :func:`engine.input.groups.grouped_fold_notes`).

    Parameters
    ----------
    y, groups : ndarray of int
    n_splits, n_repeats : int
    random_state : int or None
        None: every repeat unseeded (new folds on every call).

    Returns
    -------
    list of (ndarray, ndarray)
        Repeat by repeat, fold by fold.
    """
    splitter = RepeatedStratifiedGroupKFold(n_splits, n_repeats, random_state)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return [(train, np.sort(test)) for train, test in
                splitter.split(np.zeros(len(y)), y, groups)]


def inner_grouped_splits(y: np.ndarray, groups: np.ndarray, n_splits: int,
                         *, random_state: int | None = None) -> list:
    """Grouped inner folds of one outer training part, as explicit ``(train, test)`` pairs.

    One repeat of :class:`RepeatedStratifiedGroupKFold` (scikit-learn's
    ``StratifiedGroupKFold(n_splits, shuffle=True, random_state=random_state)``) over the
    training rows, so no inner test fold shares a group with its inner training part.
    The pairs can be given as ``cv=`` to any scikit-learn estimator that splits
    (``CalibratedClassifierCV``), which then needs no groups of its own.

    Parameters
    ----------
    y, groups : ndarray of int
        Class codes and group codes of the training rows only.
    n_splits : int
        Inner folds.
    random_state : int or None
        Seed of the shuffle.

    Returns
    -------
    list of (ndarray, ndarray)
        Positions within the training rows; test positions in ascending order.
    """
    return grouped_splits(y, groups, n_splits, 1, random_state)
