"""``report.md``: a comparison across data sets in plain words (in the spirit of autorank's
``create_report``), for readers who are not statisticians."""
from __future__ import annotations

import re

import numpy as np

from ..csv_values import visible
from ..verdict import metric_label


def number(value) -> str:
    """Three significant digits (``0.831``, ``2.00``, ``12.3``), whole numbers from 1000."""
    if value is None or not np.isfinite(value):
        return "n/a" if value is None or np.isnan(value) else ("∞" if value > 0 else "-∞")
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


#: Characters that can start Markdown or HTML markup inside a line (links and images
#: need ``[``, raw HTML and autolinks ``<``, entities ``&``; emphasis, code, tables,
#: strikethrough, maths); a name's are escaped with a backslash.
_MARKUP = re.compile(r"([\\`*_\[\]<>!|~&$])")


def markdown_text(value) -> str:
    """A name (model, class, data set) or a note as plain text in Markdown: invisible
    characters written out (:func:`engine.csv_values.visible`) and every character that
    could start markup escaped, so ``<img src=x onerror=...>`` or ``[x](javascript:...)``
    is shown as written, never rendered."""
    return _MARKUP.sub(r"\\\1", visible(str(value)))


def _cell(name) -> str:
    """A name for a Markdown table cell (:func:`markdown_text`: a ``|`` would end the cell)."""
    return markdown_text(name)


def probability(value) -> str:
    """A probability to three decimals, ``< 0.001`` and ``> 0.999`` at the ends."""
    if not np.isfinite(value):
        return "n/a"
    if value < 0.001:
        return "< 0.001"
    return "> 0.999" if value > 0.999 else f"{value:.3f}"


def _names(names) -> str:
    names = [markdown_text(n) for n in names]
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def across_report(result) -> str:
    """The Markdown text of ``report.md`` for an :class:`~engine.across.AcrossComparison`."""
    friedman = result.friedman.iloc[0]
    n, k = int(friedman["n_datasets"]), int(friedman["n_models"])
    parts = [_heading(result, n, k), _ranks(result, n)]
    if k >= 2 and n >= 2:
        parts += [_friedman(result, friedman), _nemenyi(result), _wilcoxon(result),
                  _signed_rank(result)]
    parts += [_caveats(result), _how_to_read(result, tests=k >= 2 and n >= 2)]
    return "\n\n".join(p for p in parts if p) + "\n"


def _heading(result, n: int, k: int) -> str:
    label = metric_label(result.metric)
    return (f"# Comparison of {_count(k, 'model')} across {_count(n, 'data set')}\n\n"
            f"Metric: **{label}** (`{result.metric}`), higher is better; each model's score on "
            "a data set is its mean over all cross-validation folds. Significance level "
            f"alpha = {result.alpha:g}; region of practical equivalence (ROPE) ±{result.rope:g} "
            "(differences smaller than this count as no difference in practice).")


def _ranks(result, n: int) -> str:
    rows = ["| rank | model | mean rank | data sets |", "| ---: | --- | ---: | ---: |"]
    for position, row in enumerate(result.ranks.itertuples(index=False), start=1):
        ranked = np.isfinite(row.mean_rank)
        rows.append(f"| {position if ranked else ''} | {_cell(row.model)} | "
                    f"{number(row.mean_rank)} | "
                    f"{row.n_datasets} |")
    return ("## Ranks\n\nOn each data set the models are ranked by their mean score (1 = best; "
            "tied models share the average of their ranks). The mean rank over the "
            f"{_count(n, 'data set')} orders the models:\n\n" + "\n".join(rows))


def _friedman(result, row) -> str:
    if not np.isfinite(row["chi2"]):
        why = ("there are only two models; the tests below compare them directly"
               if int(row["n_models"]) == 2 else "every model has the same score everywhere")
        return f"## Is there any difference? (Friedman test)\n\nNot computed: {why}."
    n, k = int(row["n_datasets"]), int(row["n_models"])
    df2 = (k - 1) * (n - 1)
    rejected = row["iman_davenport_p_value"] < result.alpha
    verdict = ("so at least some models differ: the mean ranks differ more than chance would "
               "explain." if rejected else
               "so the data do not show that the models differ: the mean ranks could differ "
               "this much by chance. The pairwise results below should not be read as "
               "differences.")
    return ("## Is there any difference? (Friedman test)\n\n"
            "The Friedman test asks whether the models' ranks differ more than chance would "
            f"explain. Friedman chi² = {number(row['chi2'])} ({p_text(row['p_value'])}); Iman "
            f"and Davenport's F = {number(row['iman_davenport_f'])} with ({k - 1}, {df2}) "
            f"degrees of freedom ({p_text(row['iman_davenport_p_value'])}). "
            f"{'Below' if rejected else 'Not below'} alpha = {result.alpha:g}, {verdict}")


def _nemenyi(result) -> str:
    table = result.nemenyi
    if table.empty:
        return ""
    cd = float(table["critical_difference"].iloc[0])
    text = ("## Which models differ? (Nemenyi test)\n\n"
            f"The critical difference is **{number(cd)}** mean ranks (alpha = "
            f"{result.alpha:g}): two models differ significantly when their mean ranks differ "
            "by more than this. ")
    significant = table[table["significant"]]
    if significant.empty:
        text += "No pair of models differs significantly."
    else:
        lines = [f"- {markdown_text(r.model_1)} is better than {markdown_text(r.model_2)} "
                 f"(mean ranks {number(r.mean_rank_difference)} apart, {p_text(r.p_value)})"
                 for r in significant.itertuples(index=False)]
        text += "These pairs differ significantly:\n\n" + "\n".join(lines)
    groups = result.cliques()
    if groups:
        text += ("\n\nGroups within which no model differs significantly from another (the "
                 "bars of a critical-difference diagram): "
                 + "; ".join(_names(g) for g in groups) + ".")
    return text


def _wilcoxon(result) -> str:
    table = result.wilcoxon
    rows = ["| model 1 | model 2 | p | p (Holm) | significant |",
            "| --- | --- | ---: | ---: | --- |"]
    for r in table.itertuples(index=False):
        mark = "n/a" if not np.isfinite(r.p_value_adjusted) else (
            "yes" if r.p_value_adjusted < result.alpha else "no")
        rows.append(f"| {_cell(r.model_1)} | {_cell(r.model_2)} | {p_value(r.p_value)} | "
                    f"{p_value(r.p_value_adjusted)} | {mark} |")
    return ("## Pairs, one at a time (Wilcoxon signed-rank test)\n\n"
            "For each pair, the Wilcoxon signed-rank test asks whether one model is "
            "consistently better across the data sets, weighing larger differences more. "
            "Holm's method adjusts the p-values for testing every pair; a pair is "
            f"significant when the adjusted p-value is below {result.alpha:g}.\n\n"
            + "\n".join(rows))


def _signed_rank(result) -> str:
    lines = []
    for r in result.signed_rank.itertuples(index=False):
        line = (f"- {markdown_text(r.model_1)} is better than {markdown_text(r.model_2)} "
                f"with probability {probability(r.p_better)}")
        if result.rope > 0:
            line += (f"; they are practically equivalent (|difference| < {result.rope:g}) with "
                     f"probability {probability(r.p_equivalent)}")
        line += (f"; {markdown_text(r.model_2)} is better with probability "
                 f"{probability(r.p_worse)}.")
        decided = _decision(r, result)
        lines.append(line + (f" **{decided}**" if decided else ""))
    return ("## How likely is each model to be better? (Bayesian signed-rank test)\n\n"
            "The Bayesian signed-rank test (Benavoli et al. 2017) gives the probability that "
            f"one model is better than the other by more than the ROPE ({result.rope:g}), that "
            "they are practically equivalent, or that the other is better, from the "
            "differences on these data sets. It answers the question people usually ask of a "
            "p-value.\n\n" + "\n".join(lines))


def _decision(row, result) -> str:
    """A decision when one outcome has probability at least 1 - alpha (as autorank)."""
    level = 1 - result.alpha
    if row.p_better >= level:
        return f"{markdown_text(row.model_1)} is better."
    if row.p_worse >= level:
        return f"{markdown_text(row.model_2)} is better."
    if result.rope > 0 and row.p_equivalent >= level:
        return "They are practically equivalent."
    return ""


def _caveats(result) -> str:
    if not result.notes:
        return ""
    return "## What to keep in mind\n\n" + "\n".join(f"- {markdown_text(note)}"
                                                  for note in result.notes)


def _how_to_read(result, tests: bool) -> str:
    text = ("## How to read this\n\n"
            "Each data set is one piece of evidence, so what counts is how *consistently* a "
            "model does well across data sets, not how large its best score is. The **mean "
            "rank** summarises that: 1 would mean best on every data set.")
    if not tests:
        return text + (" With fewer than two models or two data sets there is nothing to "
                       "test: compare more models on more data sets.")
    return text + (
        " The **Friedman test** first asks whether the models differ at all; the **Nemenyi "
        "test** then says which pairs differ, using the critical difference: models whose "
        "mean ranks are closer than that cannot be told apart with these data sets. A "
        "**p-value** is the chance of seeing differences at least this large if the models "
        f"were in truth equally good; below {result.alpha:g} we call the difference "
        "significant. A non-significant result does not show that models are equal, only "
        "that these data sets cannot tell them apart; more data sets help. The **Bayesian "
        "probabilities** say directly how likely each model is to be better by a margin "
        f"that matters (more than {result.rope:g}), or practically equivalent. All these "
        "statements are about data sets like the ones compared: they do not promise the "
        "same ranking on a new kind of data.")
