"""``report.md``: a comparison across data sets in plain words (in the spirit of autorank's
``create_report``), for readers who are not statisticians."""
from __future__ import annotations

from typing import Optional

import numpy as np

from engine.evaluation.verdict import metric_label
from engine.output.document import (BulletList, Code, Document, Name, Paragraph, Section,
                                    Strong, Table, markdown_spans, markdown_text, spans,
                                    to_markdown)
from engine.runs.across.decisions import fewest_for_level, highest_probability

__all__ = ["CORRECTION_NAMES", "MEAN_RANK_CAVEAT", "across_document", "across_report",
           "decision_words", "markdown_text", "number", "p_text", "p_value", "probability",
           "reach_words"]


def number(value) -> str:
    """Three significant digits (``0.831``, ``2.00``, ``12.3``), whole numbers from 1000,
    ``0`` for zero."""
    if value is None or not np.isfinite(value):
        return "n/a" if value is None or np.isnan(value) else ("∞" if value > 0 else "-∞")
    if value == 0:
        return "0"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:#.3g}".rstrip(".")


def p_value(p) -> str:
    """A p-value: ``0.0123``, ``< 0.001`` or ``n/a``."""
    if p is None or not np.isfinite(p):
        return "n/a"
    return "< 0.001" if p < 0.001 else number(p)


def p_text(p) -> str:
    """``p = 0.0123``, ``p < 0.001`` or ``p = n/a``."""
    text = p_value(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def _count(n: int, word: str) -> str:
    """``1 model``, ``3 models``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def probability(value) -> str:
    """A probability to three decimals, ``< 0.001`` and ``> 0.999`` at the ends."""
    if not np.isfinite(value):
        return "n/a"
    if value < 0.001:
        return "< 0.001"
    return "> 0.999" if value > 0.999 else f"{value:.3f}"


def _is(value) -> str:
    """``= 0.341``, ``< 0.001`` or ``> 0.999``: a probability after its name."""
    text = probability(value)
    return text if text[0] in "<>" else f"= {text}"


def _names(names) -> tuple:
    names = [Name(n) for n in names]
    if len(names) <= 2:
        return spans(*_joined(names, " and "))
    return spans(*_joined(names[:-1], ", "), " and ", names[-1])


def _joined(run: list, between: str) -> list:
    """``run`` with ``between`` between its items."""
    out = []
    for index, item in enumerate(run):
        out += [between, item] if index else [item]
    return out


#: the correction's name in words
CORRECTION_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "none": "no correction"}
#: why mean-rank post-hoc tests are read with care (Benavoli, Corani & Mangili 2016)
MEAN_RANK_CAVEAT = (
    "Mean ranks, and so the Nemenyi test, depend on which models are compared: adding or "
    "removing a third model can change whether two models differ (Benavoli, Corani and "
    "Mangili 2016), so a Nemenyi result is about this set of models only.")


def across_report(result) -> str:
    """The Markdown text of ``report.md`` for an :class:`~engine.runs.across.AcrossComparison`:
    :func:`across_document` rendered by :func:`engine.output.document.to_markdown`."""
    return to_markdown(across_document(result))


def across_document(result) -> Document:
    """The report on an :class:`~engine.runs.across.AcrossComparison` as a
    :class:`~engine.output.document.Document`, rendered to ``report.md`` and to HTML.

    Strong marks a decision and nothing else; with fewer than ``result.min_datasets`` data
    sets there is none: the numbers are shown with why they cannot decide.
    """
    friedman = result.friedman.iloc[0]
    n, k = int(friedman["n_datasets"]), int(friedman["n_models"])
    tests = k >= 2 and n >= 2
    parts = [_no_decision(result, n) if not result.decides else None, _ranks(result, n)]
    if tests:
        parts += [_friedman(result, friedman), _nemenyi(result), _wilcoxon(result),
                  _signed_rank(result)]
    parts += [_caveats(result), _how_to_read(result, tests=tests)]
    return Document((f"Comparison of {_count(k, 'model')} across {_count(n, 'data set')}",),
                    (_heading(result),), tuple(p for p in parts if p is not None))


def _heading(result) -> Paragraph:
    label = metric_label(result.metric)
    return Paragraph((
        f"Metric: {label} (", Code(str(result.metric)), "), higher is better; each model's "
        "score on a data set is its mean over the cross-validation folds that every model "
        f"completed there. Significance level alpha = {result.alpha:g}, multiple-comparison "
        f"correction: {CORRECTION_NAMES.get(result.correction, result.correction)}; region "
        f"of practical equivalence (ROPE) ±{result.rope:g} (differences smaller than this "
        "count as no difference in practice). Decisions are in bold; nothing else is."))


def _section(title: str, *blocks) -> Section:
    return Section((title,), tuple(blocks))


def _no_decision(result, n: int) -> Section:
    smallest = 2.0 / 2 ** n
    return _section(
        f"No decision with {_count(n, 'data set')}", Paragraph((
            f"This report decides nothing: it needs at least {result.min_datasets} data sets "
            f"(at alpha = {result.alpha:g}), and there {'is' if n == 1 else 'are'} {n}. The "
            "numbers below are shown as they are, but none of them decides between the "
            "models. Why so few data sets cannot decide: each data set is one "
            "piece of evidence; the exact two-sided Wilcoxon signed-rank test cannot give a "
            f"p-value below {number(smallest)} with {n} data sets even when one model wins on "
            "every one of them (Demšar 2006); and the Bayesian signed-rank test (Benavoli et "
            "al. 2017) weighs only these few differences and one prior pseudo-observation at "
            "0, so whenever they all lie on one side its probability for that side comes "
            "close to 1 however the models would do elsewhere (with every difference beyond "
            "the ROPE it is about 0.91 with 2 data sets and 0.95 with 3). Compare the models "
            "on more data sets to decide.",)))


def _tied_positions(mean_ranks) -> list:
    """The position of each mean rank (sorted, best first): tied mean ranks share the
    better position (1, 2, 2, 4); no position without a mean rank."""
    positions: list[Optional[int]] = []
    previous = None
    for index, value in enumerate(mean_ranks, start=1):
        if not np.isfinite(value):
            positions.append(None)
            continue
        if previous is not None and np.isclose(value, previous[0], rtol=0, atol=1e-9):
            positions.append(previous[1])
            continue
        previous = (value, index)
        positions.append(index)
    return positions


def _ranks(result, n: int) -> Section:
    positions = _tied_positions(result.ranks["mean_rank"].to_numpy(dtype=float))
    counts = {p: positions.count(p) for p in positions if p is not None}
    rows = []
    for position, row in zip(positions, result.ranks.itertuples(index=False)):
        shown = "" if position is None else (f"{position}=" if counts[position] > 1
                                             else str(position))
        rows.append(((shown,), (Name(row.model),), (number(row.mean_rank),),
                     (str(row.n_datasets),)))
    table = Table(tuple((h,) for h in ("rank", "model", "mean rank", "data sets")),
                  (True, False, True, True), tuple(rows))
    return _section("Ranks", Paragraph((
        "On each data set the models are ranked by their mean score (1 = best; tied models "
        f"share the average of their ranks). The mean rank over the {_count(n, 'data set')} "
        "orders the models; equal mean ranks share a place (marked =):",)), table)


def _friedman(result, row) -> Section:
    title = "Is there any difference? (Friedman test)"
    if not np.isfinite(row["chi2"]):
        why = ("there are only two models; the tests below compare them directly"
               if int(row["n_models"]) == 2 else "every model has the same score everywhere")
        return _section(title, Paragraph((f"Not computed: {why}.",)))
    n, k = int(row["n_datasets"]), int(row["n_models"])
    df2 = (k - 1) * (n - 1)
    rejected = row["iman_davenport_p_value"] < result.alpha
    verdict: tuple
    if not result.decides:
        verdict = (f"{'Below' if rejected else 'Not below'} alpha = {result.alpha:g}, but "
                   f"with {_count(n, 'data set')} this is not read as a decision (see above).",)
    elif rejected:
        verdict = (f"Below alpha = {result.alpha:g}: ",
                   Strong(("at least some models differ",)),
                   ": the mean ranks differ more than chance would explain.")
    else:
        verdict = (f"Not below alpha = {result.alpha:g}: the data do not show that the "
                   "models differ; the mean ranks could differ this much by chance, so the "
                   "Nemenyi pairs below are not read as differences.",)
    return _section(title, Paragraph(spans(
        "The Friedman test asks whether the models' ranks differ more than chance would "
        f"explain. Friedman chi² = {number(row['chi2'])} ({p_text(row['p_value'])}); Iman "
        f"and Davenport's F = {number(row['iman_davenport_f'])} with ({k - 1}, {df2}) "
        f"degrees of freedom ({p_text(row['iman_davenport_p_value'])}). ", verdict)))


def _nemenyi(result):
    table = result.nemenyi
    if table.empty:
        return None
    cd = float(table["critical_difference"].iloc[0])
    opening = (f"The critical difference is {number(cd)} mean ranks (alpha = {result.alpha:g}): "
               "after a Friedman test that rejects, two models differ significantly when their "
               "mean ranks differ by more than this. ")
    beyond = table[table["beyond_critical_difference"]]
    if result.posthoc_interpretable:
        blocks = _nemenyi_pairs(opening, beyond, result.cliques())
    else:
        blocks = _nemenyi_record(opening, beyond, result)
    return _section("Which models differ? (Nemenyi test)", *blocks,
                    Paragraph((MEAN_RANK_CAVEAT,)))


def _nemenyi_pairs(opening: str, beyond, groups) -> list:
    """The pairs beyond the critical difference, and the groups, when they may be read."""
    blocks: list
    if beyond.empty:
        blocks = [Paragraph((opening + "No pair of models differs significantly.",))]
    else:
        items = tuple(spans(Strong((Name(r.model_1), " ranks better than ", Name(r.model_2))),
                            f" (mean ranks {number(r.mean_rank_difference)} apart, "
                            f"{p_text(r.p_value)})") for r in beyond.itertuples(index=False))
        blocks = [Paragraph((opening + "These pairs differ significantly:",)),
                  BulletList(items)]
    if groups:
        blocks.append(Paragraph(spans(
            "Groups within which no model differs significantly from another (the bars of a "
            "critical-difference diagram): ", _joined([_names(g) for g in groups], "; "),
            ".")))
    return blocks


def _nemenyi_record(opening: str, beyond, result) -> list:
    """Why the pairs may not be read, and those beyond the critical difference."""
    why = (f"there are fewer than {result.min_datasets} data sets" if not result.decides
           else "the Friedman test does not reject")
    text = opening + f"Not interpretable here: {why}, so no pair is read as a difference."
    if not len(beyond):
        return [Paragraph((text,))]
    items = tuple((Name(r.model_1), " and ", Name(r.model_2),
                   f": mean ranks {number(r.mean_rank_difference)} apart "
                   f"({p_text(r.p_value)}), not interpretable")
                  for r in beyond.itertuples(index=False))
    return [Paragraph((text + " Pairs whose mean ranks lie further apart than the critical "
                       "difference, for the record:",)), BulletList(items)]


def _wilcoxon(result) -> Section:
    name = CORRECTION_NAMES.get(result.correction, result.correction)
    adjusted = f"p ({name})" if result.correction != "none" else "p (not adjusted)"
    rows = []
    for r in result.wilcoxon.itertuples(index=False):
        mark: tuple
        if not np.isfinite(r.p_value_adjusted):
            mark = ("n/a",)
        elif not result.decides:
            mark = ("no decision",)
        else:
            mark = (Strong(("yes",)),) if r.significant else ("no",)
        rows.append(((Name(r.model_1),), (Name(r.model_2),), (p_value(r.p_value),),
                     (p_value(r.p_value_adjusted),), mark))
    table = Table(tuple((h,) for h in ("model 1", "model 2", "p", adjusted, "significant")),
                  (False, False, True, True, False), tuple(rows))
    how = ("the p-values are adjusted for testing every pair by "
           f"{name}'s method" if result.correction != "none"
           else "the p-values are not adjusted for testing several pairs (correction: none)")
    return _section(
        "Pairs, one at a time (Wilcoxon signed-rank test)", Paragraph((
            "For each pair, the two-sided Wilcoxon signed-rank test asks whether one model is "
            f"consistently better across the data sets, weighing larger differences more; {how}"
            f"; a pair is significant when that p-value is below {result.alpha:g}"
            + ("" if result.decides else
               f" (not decided here: fewer than {result.min_datasets} data sets)") + ".",)),
        table)


def _signed_rank(result) -> Section:
    items = []
    wilcoxon = {(r.model_1, r.model_2): r for r in result.wilcoxon.itertuples(index=False)}
    nemenyi = {(r.model_1, r.model_2): r for r in result.nemenyi.itertuples(index=False)}
    for r in result.signed_rank.itertuples(index=False):
        one, two = Name(r.model_1), Name(r.model_2)
        item = [one, " against ", two, ": P(", one, " ahead by more than the ROPE) "
                f"{_is(r.p_better)}"]
        if result.rope > 0:
            item.append(f", P(practically equivalent) {_is(r.p_equivalent)}")
        item += [", P(", two, f" ahead by more than the ROPE) {_is(r.p_worse)}."]
        if result.decides:
            item += decision_spans(r, result, wilcoxon.get((r.model_1, r.model_2)),
                                   nemenyi.get((r.model_1, r.model_2)))
        items.append(spans(*item))
    return _section(
        "How probable is each outcome? (Bayesian signed-rank test)", Paragraph((
            "The Bayesian signed-rank test (Benavoli, Corani, Demšar and Zaffalon 2017) gives, "
            "from the differences on these data sets, the posterior probability that one "
            f"model's score exceeds the other's by more than the ROPE ({result.rope:g}), that "
            "they are practically equivalent, or the reverse: each is the mean over the "
            "posterior draws of that region's probability, and the three sum to 1. (baycomp "
            "reports instead the share of draws in which each region is the most probable "
            "one; that share is in signed_rank.csv as share_most_probable_*, and it is not "
            "the probability of the region: it is near 1 whenever the region is merely the "
            f"likeliest.) {_decision_rule(result)}",)), BulletList(tuple(items)))


def _decision_rule(result) -> str:
    """The probability a Bayesian decision needs, and whether it can be reached."""
    n_pairs = len(result.signed_rank)
    if not result.decides:
        rule = (f"With fewer than {result.min_datasets} data sets no probability is read as a "
                "decision.")
    elif n_pairs > 1 and result.correction != "none":
        rule = (f"A decision needs a probability of at least {result.bayes_level:.4g}: with "
                f"{n_pairs} pairs decided at once, 1 − alpha / {n_pairs} (Bonferroni's share "
                "of alpha for each pair, as the p-values are adjusted), so that many pairs do "
                "not make some decision likely by the number of looks.")
    else:
        rule = (f"A decision needs a probability of at least {result.bayes_level:.4g} "
                "(1 − alpha)" + (f"; each of the {n_pairs} pairs is read on its own, without "
                                 "adjustment for deciding on several pairs (correction: none)"
                                 if n_pairs > 1 else "") + ".")
    return rule + reach_words(result, int(result.friedman.iloc[0]["n_datasets"]))


def reach_words(result, n: int) -> str:
    """Whether the Bayesian signed-rank test can reach its level with ``n`` data sets:
    ``''`` when it can, else the fewest data sets it needs and the most it can give."""
    if not result.decides or highest_probability(n, result.rope) >= result.bayes_level:
        return ""
    need = fewest_for_level(result.bayes_level, result.rope)
    return (f" No result can reach {result.bayes_level:.4g} with fewer than {need} data sets: "
            f"with {_count(n, 'data set')} the highest probability this test can give is "
            f"{highest_probability(n, result.rope):.4f} (every difference beyond twice the "
            "ROPE on one side), so no pair is decided by it here; only the Wilcoxon tests "
            "can decide.")


def decision_words(row, result, wilcoxon, nemenyi) -> str:
    """:func:`decision_spans` as Markdown."""
    return markdown_spans(decision_spans(row, result, wilcoxon, nemenyi))


def decision_spans(row, result, wilcoxon, nemenyi) -> tuple:
    """The decision a pair's posterior supports, and what the frequentist tests of the same
    report say of the pair when they disagree, as a run of spans."""
    significant = wilcoxon is not None and bool(wilcoxon.significant)
    w_p = (f"Wilcoxon p = {p_value(wilcoxon.p_value_adjusted)}"
           + (f" after {CORRECTION_NAMES.get(result.correction)}"
              if result.correction != "none" else "")) if wilcoxon is not None else ""
    ranked_apart = (nemenyi is not None and result.posthoc_interpretable
                    and bool(nemenyi.significant))
    if row.decision == "none":
        return _undecided(significant, w_p)
    if row.decision == "equivalent":
        return _equivalent(significant, w_p, ranked_apart)
    winner = row.model_1 if row.decision == "model_1" else row.model_2
    loser = row.model_2 if row.decision == "model_1" else row.model_1
    words = [" ", Strong((Name(winner), " is better than ", Name(loser),
                          " by more than the ROPE."))]
    if wilcoxon is not None and not significant:
        words.append(f" The Wilcoxon test does not find a significant difference ({w_p}): the "
                     "tests disagree. The Bayesian probability weighs the sizes of the "
                     "differences on these data sets with a weak prior, the Wilcoxon test asks "
                     "whether their signed ranks could arise by chance at the level kept over "
                     "all pairs; read this decision as less certain than its probability.")
    elif significant:
        words.append(f" The Wilcoxon test agrees ({w_p}).")
    if nemenyi is not None and result.posthoc_interpretable and not bool(nemenyi.significant):
        words.append(" The Nemenyi test, on mean ranks over all models, does not separate "
                     "them: it uses only the order of the models on each data set and is more "
                     "conservative.")
    return spans(*words)


def _undecided(significant: bool, w_p: str) -> tuple:
    words = " No outcome reaches the level: undecided."
    if significant:
        words += (f" The Wilcoxon test does find a significant difference ({w_p}): the "
                  "differences are consistent in sign, but the probability that they exceed "
                  "the ROPE does not reach the level.")
    return (words,)


def _equivalent(significant: bool, w_p: str, ranked_apart: bool) -> tuple:
    words = [" ", Strong(("They are practically equivalent.",))]
    if significant:
        words.append(f" The Wilcoxon test finds a significant difference ({w_p}): the two "
                     "disagree in words only, the difference is consistent but smaller than "
                     "the ROPE, too small to matter by the ROPE's measure.")
    if ranked_apart:
        words.append(" The Nemenyi test ranks them apart: ranks count who wins on each data "
                     "set, not by how much, so a consistent win smaller than the ROPE can "
                     "separate their mean ranks.")
    return spans(*words)


def _caveats(result):
    if not result.notes:
        return None
    return _section("What to keep in mind",
                    BulletList(tuple((Name(note),) for note in result.notes)))


def _how_to_read(result, tests: bool) -> Section:
    text = ("Each data set is one piece of evidence, so what counts is how consistently a "
            "model does well across data sets, not how large its best score is. The mean "
            "rank summarises that: 1 would mean best on every data set.")
    if not tests:
        return _section("How to read this", Paragraph((
            text + " With fewer than two models or two data sets there is nothing to "
            "test: compare more models on more data sets.",)))
    if int(result.friedman.iloc[0]["n_models"]) >= 3:
        text += (" The Friedman test first asks whether the models differ at all; only if it "
                 "rejects is the Nemenyi test read to say which pairs differ, using the "
                 "critical difference: models whose mean ranks are closer than that cannot "
                 "be told apart with these data sets.")
    else:
        text += (" With two models the Wilcoxon and Bayesian signed-rank tests compare them "
                 "directly (the Friedman and Nemenyi tests, for three or more models, are not "
                 "run).")
    n = int(result.friedman.iloc[0]["n_datasets"])
    bayes_need = max(result.min_datasets, fewest_for_level(result.bayes_level, result.rope))
    return _section("How to read this", Paragraph((text + (
        " A p-value is the chance of seeing differences at least this large if the models "
        f"were in truth equally good; below {result.alpha:g} we call the difference "
        "significant. A non-significant result does not show that models are equal, only "
        "that these data sets cannot tell them apart; more data sets help. The Bayesian "
        "probabilities say how probable it is, given these data sets, that a model is ahead "
        f"by a margin that matters (more than {result.rope:g}), or practically equivalent. "
        f"Nothing is decided with fewer than {result.min_datasets} data sets"
        + (f"; a Bayesian decision at {result.bayes_level:.4g} needs at least {bayes_need} "
           f"(there {'is' if n == 1 else 'are'} {n})"
           if bayes_need > result.min_datasets else "")
        + ". All these statements are about data sets like the ones compared: they do not "
        "promise the same ranking on a new kind of data."),)))
