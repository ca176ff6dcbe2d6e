"""An MLP's fit memory is counted from its layer sizes before the run (issue 36): the
count's weights equal the fitted network's, and a network beyond the memory available is
refused by the run budget, naming the part and what to change."""
from sklearn.datasets import load_iris
from sklearn.neural_network import MLPClassifier

from engine.evaluation.catalogue import expand_models
from engine.evaluation.experiment import parse_experiment
from engine.input.data import load_builtin
from engine.runs import guards, model_memory


def test_the_weights_counted_are_the_fitted_networks():
    X, y = load_iris(return_X_y=True)
    model = MLPClassifier(hidden_layer_sizes=(7, 5), max_iter=5).fit(X, y)
    weights = sum(c.size for c in model.coefs_)
    counted = model_memory.mlp_bytes([7, 5], 4, 3, batch_rows=0)
    assert counted == 8 * model_memory.WEIGHT_COPIES * weights == 8 * 4 * (28 + 35 + 15)


def test_two_layers_of_12000_units_count_four_copies_of_144_million_weights():
    [spec] = expand_models([{"estimator": "MLPClassifier",
                             "params": {"hidden_layer_sizes": [12000, 12000]}}], random_state=0)
    weights = 4 * 12000 + 12000 * 12000 + 12000 * 3
    outputs = 150 * (4 + 12000 + 12000 + 3)          # a batch is all 150 rows (< 200)
    assert model_memory.fit_bytes([spec], 150, 4, 3) == 8 * (4 * weights + 2 * outputs)
    assert model_memory.fit_bytes([spec], 150, 4, 3) == 4_668_304_800


def test_lbfgs_holds_every_row_and_the_grid_counts_its_largest_layers():
    [spec] = expand_models([{"estimator": "MLPClassifier", "params": {"solver": "lbfgs"},
                             "tune": {"grid": {"hidden_layer_sizes": [[10], [500, 20]]}}}],
                             random_state=0)
    expected = model_memory.mlp_bytes([500, 20], 4, 1, batch_rows=1000)
    assert model_memory.fit_bytes([spec], 1000, 4, 2) == expected
    assert expected == 8 * (4 * (2000 + 10000 + 20) + 2 * 1000 * 525)


def test_other_models_count_nothing():
    specs = expand_models([{"estimator": "GaussianNB"}, {"estimator": "SVC"}], random_state=0)
    assert model_memory.fit_bytes(specs, 10 ** 6, 100, 2) == 0


def test_the_run_budget_refuses_a_network_beyond_the_memory():
    experiment = parse_experiment({
        "dataset": {"builtin": "iris"}, "cv": {"n_splits": 2, "n_repeats": 1},
        "models": [{"estimator": "MLPClassifier",
                    "params": {"hidden_layer_sizes": [12000, 12000]}}]})
    dataset = load_builtin("iris")
    refused = guards.check_run(experiment, dataset, available=4 * 1024 ** 3).refuse
    assert refused and "a neural network's fit 4.7 GB" in refused
    assert "use smaller hidden layers" in refused
    fits = guards.check_run(experiment, dataset, available=8 * 1024 ** 3)
    assert fits.refuse is None and fits.needed_bytes > 4_668_304_800
