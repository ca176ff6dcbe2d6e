"""Weka 3's fold assignment: ``java.util.Random``, ``Instances.randomize``, ``stratify``,
``trainCV`` and ``testCV``, reproduced exactly.

Weka's Explorer (Classify tab, "Cross-validation", seed *s*) and its Experimenter
(``CrossValidationResultProducer``, run *s*) make the folds of one repetition the same way::

    Random random = new Random(s);
    data.randomize(random);                 // Fisher-Yates, from the last row down
    data.stratify(k);                       // nominal class only
    for (int f = 0; f < k; f++) {
        Instances train = data.trainCV(k, f, random);   // shuffled with the same Random
        Instances test = data.testCV(k, f);
        ...
    }

:func:`weka_splits` gives these folds as row indices, repeat *i* seeded ``s + i`` (the
Experimenter's runs *s*, *s* + 1, ...); :class:`engine.evaluation.splitters.RepeatedWekaFold`
gives the same folds as a scikit-learn cross-validator (``cv=``). The code follows
``weka.core.Instances`` of Weka 3.6 (checked against the bytecode of the Debian package's
3.6.14) and 3.8 (its source), which agree; ``tests/data/weka/`` holds Weka 3.6's own folds and the test that compares them.
"""
from __future__ import annotations

import numpy as np

from engine.foundation.caller_errors import CallerError

_MULTIPLIER = 0x5DEECE66D
_ADDEND = 0xB
_MASK = (1 << 48) - 1


class JavaRandom:
    """``java.util.Random``: the 48-bit linear congruential generator of the JDK.

    Parameters
    ----------
    seed : int
        As ``new Random(seed)`` takes it (a Java ``long``).

    Examples
    --------
    >>> JavaRandom(42).next_int(10)     # new java.util.Random(42).nextInt(10)
    0
    """

    def __init__(self, seed: int):
        self._state = (int(seed) ^ _MULTIPLIER) & _MASK

    def next_bits(self, bits: int) -> int:
        """``Random.next(bits)``: the top ``bits`` bits of the next state, as a Java int."""
        self._state = (self._state * _MULTIPLIER + _ADDEND) & _MASK
        value = self._state >> (48 - bits)
        return value - (1 << 32) if value >= 1 << 31 else value

    def next_int(self, bound: int) -> int:
        """``Random.nextInt(bound)``: uniform in ``0 .. bound - 1``.

        A power of two takes the high bits; any other bound takes ``next(31) % bound``,
        drawing again while the draw falls in the last, incomplete block of ``bound``
        values (Java's test ``u - r + (bound - 1) < 0`` in 32-bit arithmetic).
        """
        if bound <= 0:
            # the caller's arguments (check_folds checks the user's): a programming error
            raise CallerError("argument_value",
                              f"bound must be positive (got {bound})")
        value = self.next_bits(31)
        if bound & (bound - 1) == 0:
            return (bound * value) >> 31
        remainder = value % bound
        while value - remainder + bound - 1 >= 1 << 31:
            value = self.next_bits(31)
            remainder = value % bound
        return remainder


def randomize(rows: list, random: JavaRandom) -> list:
    """``Instances.randomize(random)``: shuffle ``rows`` in place and return it.

    ``for (j = n - 1; j > 0; j--) swap(j, random.nextInt(j + 1))``: one draw per row but
    the first, from the last row down.
    """
    for j in range(len(rows) - 1, 0, -1):
        i = random.next_int(j + 1)
        rows[j], rows[i] = rows[i], rows[j]
    return rows


def stratify(rows: list, y: np.ndarray, n_folds: int) -> list:
    """``Instances.stratify(numFolds)`` for a nominal class: the new order of ``rows``.

    Weka first gathers the rows of each class: starting from the first row, every later
    row of the same class is swapped forward next to it (a scan that keeps that class's
    rows in their order but moves the others), then the same for the class of the row
    now just after that block, and so on. ``stratStep`` then deals the gathered rows out like cards:
    positions 0, k, 2k, ..., then 1, k + 1, ..., so that ``testCV`` fold *f* holds the
    gathered positions *p* with *p* mod k = *f*. Classes are compared by their codes, so
    rows with a missing class (any negative code here, as Weka compares its missing
    values) are gathered together like one more class.

    Parameters
    ----------
    rows : list of int
        Row indices in their current order (after :func:`randomize`).
    y : ndarray of int
        The class code of every row of the data (indexed by the values in ``rows``).
    n_folds : int

    Returns
    -------
    list of int
    """
    rows = list(rows)
    classes = np.asarray(y)[rows]
    index = 1
    while index < len(rows):
        current = classes[index - 1]
        for j in np.flatnonzero(classes[index:] == current) + index:
            # the scan never revisits a position it passed, so the matches of one pass
            # are the rows of this class found at its start
            rows[index], rows[j] = rows[j], rows[index]
            classes[index], classes[j] = classes[j], classes[index]
            index += 1
        index += 1
    return [rows[p] for start in range(n_folds) for p in range(start, len(rows), n_folds)]


def fold_bounds(n_rows: int, n_folds: int, fold: int) -> tuple:
    """Where ``testCV(numFolds, numFold)`` cuts: ``(first, count)``.

    The first ``n_rows % n_folds`` folds hold one row more than the others.
    """
    if n_folds < 2 or n_folds > n_rows:
        # the caller's arguments (check_folds checks the user's): a programming error
        raise CallerError("argument_value",
                          f"Weka needs 2 to {n_rows} folds for {n_rows} rows (got {n_folds})")
    count, extra = divmod(n_rows, n_folds)
    offset = fold if fold < extra else extra
    return fold * count + offset, count + (1 if fold < extra else 0)


def cv_test_rows(rows: list, n_folds: int, fold: int) -> list:
    """``Instances.testCV(numFolds, numFold)``: a contiguous block of ``rows``."""
    first, count = fold_bounds(len(rows), n_folds, fold)
    return rows[first:first + count]


def cv_train_rows(rows: list, n_folds: int, fold: int, *, random=None) -> list:
    """``Instances.trainCV(numFolds, numFold[, random])``: every row outside the test block,
    in order; with ``random`` then shuffled by :func:`randomize`, which advances the
    generator the next fold draws from (as Weka's Explorer and Experimenter call it)."""
    first, count = fold_bounds(len(rows), n_folds, fold)
    train = rows[:first] + rows[first + count:]
    return train if random is None else randomize(train, random)


def weka_splits(y: np.ndarray, n_splits: int, n_repeats: int, random_state: int) -> list:
    """The folds of Weka 3's repeated stratified cross-validation, as index pairs.

    Repeat *i* (from 0) is one run of Weka's Experimenter numbered ``random_state + i``
    (or the Explorer's cross-validation with that seed): ``Random(random_state + i)``,
    ``randomize``, ``stratify(n_splits)``, then per fold ``trainCV(n_splits, f, random)``
    and ``testCV(n_splits, f)``.

    Parameters
    ----------
    y : ndarray of int
        Class codes of the rows, in the order of the data file. Weka's nominal class:
        the codes only need to tell classes apart. A negative code stands for a missing
        class, which Weka keeps in the folds (its classifiers skip such rows when they
        train, its evaluation counts them as unclassified) and gathers like one more
        class; the app drops rows without a class when it reads the data, so its folds
        match Weka's on a file with missing classes only after those rows are deleted in
        Weka too. A numeric class (regression) is not stratified by Weka: the folds are
        then contiguous blocks of the randomized rows, which this function does not
        produce (the app only classifies).
    n_splits : int
        Folds per repeat, 2 to ``len(y)`` (Weka's own limit: "Can't have more folds
        than instances"); classes smaller than that are allowed, as in Weka, and then
        missing from some test folds.
    n_repeats : int
    random_state : int
        The seed of the first repeat (Weka's Experimenter numbers its runs from 1, the
        Explorer's seed is 1 unless changed).

    Returns
    -------
    list of (ndarray, ndarray)
        ``(train, test)`` for repeat 0 fold 0, repeat 0 fold 1, ..., as
        :func:`engine.evaluation.cv.make_splits` orders them. ``train`` is in the order Weka hands
        it to the classifier (after ``trainCV``'s shuffle), ``test`` in Weka's order.
    """
    y = np.asarray(y)
    return [pair for repeat in range(n_repeats)
            for pair in weka_repeat(y, n_splits, random_state + repeat)]


def weka_repeat(y: np.ndarray, n_splits: int, seed: int):
    """The folds of one run of Weka's cross-validation seeded ``seed``, fold by fold.

    ``Random(seed)``, ``randomize``, ``stratify(n_splits)``, then per fold
    ``trainCV(n_splits, f, random)`` and ``testCV(n_splits, f)``: the one place the
    app makes Weka's folds (:func:`weka_splits` and
    :class:`engine.evaluation.splitters.RepeatedWekaFold` repeat it).

    Parameters
    ----------
    y : ndarray
        Class codes (or labels: only equality is used) of the rows.
    n_splits : int
    seed : int

    Yields
    ------
    (ndarray, ndarray)
        ``train`` in the order Weka hands it to the classifier, ``test`` in Weka's order.
    """
    random = JavaRandom(seed)
    rows = stratify(randomize(list(range(len(y))), random), y, n_splits)
    for fold in range(n_splits):
        train = cv_train_rows(rows, n_splits, fold, random=random)     # advances ``random``
        test = cv_test_rows(rows, n_splits, fold)
        yield np.asarray(train, dtype=np.intp), np.asarray(test, dtype=np.intp)
