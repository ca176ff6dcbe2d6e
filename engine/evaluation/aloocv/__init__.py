"""Approximate leave-one-out cross-validation (ALOOCV) of ridge logistic regression.

One chain, each module building on the ones before it (``docs/aloocv.md`` derives the
formulas and names the code that implements each):

* :mod:`.design` -- validated data (:class:`Design`), the design matrix and the Hessians;
* :mod:`.solver` -- the damped Newton solvers and :func:`fit_logistic_l2`;
* :mod:`.path` -- warm starts along a grid of C and the batched two-class curve;
* :mod:`.exact` -- exact leave-one-out by warm-started refits, for comparison;
* :mod:`.alo` -- the ALO value, its derivatives in ``log C``, curves and the optimum;
* :mod:`.analysis` -- ALOOCV for the logistic-regression models of an experiment.

The names below are the public API.  The modules' other public names (``solve``,
``fits_along``, ``exact_loo_multi``, ``MAX_PAIR_ELEMENTS`` ...) are shared along the chain
and checked by its tests; underscored names stay inside their module.
"""
from engine.evaluation.aloocv.alo import (AloOptimum, alo_curve, alo_gradient, alo_log_likelihood,
                                          exact_loo_log_likelihood, optimize_alo)
from engine.evaluation.aloocv.analysis import (CURVE_COLUMNS, OPTIMUM_COLUMNS, AloocvResult,
                                               aloocv_eligibility, ineligibility_note,
                                               prepared_matrix, reliable_points, run_aloocv)
from engine.evaluation.aloocv.design import Design, LogisticFit
from engine.evaluation.aloocv.solver import fit_logistic_l2

__all__ = ["AloOptimum", "alo_curve", "alo_gradient", "alo_log_likelihood",
           "exact_loo_log_likelihood", "optimize_alo", "CURVE_COLUMNS", "OPTIMUM_COLUMNS",
           "AloocvResult", "aloocv_eligibility",
           "ineligibility_note", "prepared_matrix", "reliable_points", "run_aloocv", "Design",
           "LogisticFit", "fit_logistic_l2"]
