"""What a saved model file may hold: an exact list of the types the app writes.

A model file (``model_NAME.skops``, :mod:`engine.runs.heldout.saved`) is a zip archive
whose ``schema.json`` describes every object in it as a node: how it is loaded
(``__loader__``) and its type or function (``__module__``, ``__class__``).  Loading builds
those objects, so a file from someone else could name any importable function
(``builtins.eval``, ``numpy.testing``'s ``runstring``) and have it called.  The file is
refused unless every node is one of :data:`ALLOWED` -- exactly the (loader, module, name)
triples the app writes for the catalogue's estimators, their pipelines, preparation,
samplers, grid searches and thresholds (``tests/test_model_types.py`` saves every such
model and checks that the list is exact).  Functions appear only as the scorers of a grid
search or threshold.  Qt-free.
"""
from __future__ import annotations

#: What the app writes, by loader: ``{loader: {module: names}}``.
_WRITTEN = {
    "DictNode": {"builtins": "dict", "collections": "OrderedDict"},
    "DTypeNode": {"numpy": "dtype"},
    "FunctionNode": {
        "engine.evaluation.costs": "cost_score",
        "engine.evaluation.tuning": "label_score",
        "sklearn.metrics._classification": (
            "accuracy_score balanced_accuracy_score brier_score_loss d2_brier_score "
            "d2_log_loss_score f1_score jaccard_score log_loss matthews_corrcoef "
            "precision_score recall_score"),
        "sklearn.metrics._ranking": "average_precision_score roc_auc_score "
                                    "top_k_accuracy_score"},
    "JsonNode": {"builtins": "str"},
    "ListNode": {"builtins": "list"},
    "LossNode": {"sklearn._loss._loss": "CyExponentialLoss CyHalfBinomialLoss "
                                        "CyHalfMultinomialLoss"},
    "MaskedArrayNode": {"numpy.ma": "MaskedArray"},
    "NdArrayNode": {"numpy": "float64 int64 ndarray uint64"},
    "ObjectNode": {
        "imblearn.over_sampling._random_over_sampler": "RandomOverSampler",
        "imblearn.over_sampling._smote.base": "SMOTE",
        "imblearn.pipeline": "Pipeline",
        "imblearn.under_sampling._prototype_selection._random_under_sampler":
            "RandomUnderSampler",
        "sklearn._loss.link": "HalfLogitLink Interval LogitLink MultinomialLogit",
        "sklearn._loss.loss": "ExponentialLoss HalfBinomialLoss HalfMultinomialLoss",
        "sklearn.compose._column_transformer": "ColumnTransformer",
        "sklearn.discriminant_analysis": "LinearDiscriminantAnalysis "
                                         "QuadraticDiscriminantAnalysis",
        "sklearn.dummy": "DummyClassifier",
        "sklearn.ensemble._forest": "ExtraTreesClassifier RandomForestClassifier",
        "sklearn.ensemble._gb": "GradientBoostingClassifier",
        "sklearn.ensemble._hist_gradient_boosting.binning": "_BinMapper",
        "sklearn.ensemble._hist_gradient_boosting.gradient_boosting":
            "HistGradientBoostingClassifier",
        "sklearn.ensemble._hist_gradient_boosting.predictor": "TreePredictor",
        "sklearn.ensemble._weight_boosting": "AdaBoostClassifier",
        "sklearn.impute._base": "SimpleImputer",
        "sklearn.linear_model._logistic": "LogisticRegression",
        "sklearn.linear_model._ridge": "RidgeClassifier",
        "sklearn.metrics._dist_metrics": (
            "BrayCurtisDistance64 CanberraDistance64 ChebyshevDistance64 DiceDistance64 "
            "EuclideanDistance64 HammingDistance64 JaccardDistance64 ManhattanDistance64 "
            "MinkowskiDistance64 RogersTanimotoDistance64 RussellRaoDistance64 "
            "SokalMichenerDistance64 SokalSneathDistance64"),
        "sklearn.metrics._scorer": "_CurveScorer _Scorer",
        "sklearn.model_selection._classification_threshold": "TunedThresholdClassifierCV",
        "sklearn.model_selection._search": "GridSearchCV",
        "sklearn.model_selection._split": "StratifiedGroupKFold StratifiedKFold",
        "sklearn.naive_bayes": "GaussianNB",
        "sklearn.neighbors._ball_tree": "BallTree",
        "sklearn.neighbors._classification": "KNeighborsClassifier",
        "sklearn.neighbors._kd_tree": "KDTree",
        "sklearn.neighbors._unsupervised": "NearestNeighbors",
        "sklearn.neural_network._multilayer_perceptron": "MLPClassifier",
        "sklearn.neural_network._stochastic_optimizers": "AdamOptimizer SGDOptimizer",
        "sklearn.pipeline": "Pipeline",
        "sklearn.preprocessing._data": "StandardScaler",
        "sklearn.preprocessing._encoders": "OneHotEncoder",
        "sklearn.preprocessing._label": "LabelBinarizer LabelEncoder",
        "sklearn.svm._classes": "SVC",
        "sklearn.tree._classes": "DecisionTreeClassifier DecisionTreeRegressor "
                                 "ExtraTreeClassifier",
        "sklearn.utils._metadata_requests": "MetadataRequest MethodMetadataRequest"},
    "RandomGeneratorNode": {"numpy.random._generator": "Generator"},
    "RandomStateNode": {"numpy.random.mtrand": "RandomState"},
    "SliceNode": {"builtins": "slice"},
    "TreeNode": {"sklearn.tree._tree": "Tree"},
    "TupleNode": {"builtins": "tuple"},
    "TypeNode": {"builtins": "int str", "numpy": "float64 int64"},
}
#: The (``__loader__``, ``__module__``, ``__class__``) triples a saved model may hold.
ALLOWED = frozenset((loader, module, name) for loader, modules in _WRITTEN.items()
                    for module, names in modules.items() for name in names.split())


def schema_types(schema) -> set:
    """Every (loader, module, name) triple of the nodes in a parsed ``schema.json``.

    A node is any JSON object with one of the keys ``__loader__``, ``__module__`` or
    ``__class__``; a missing key reads as None (so it matches nothing allowed).
    """
    found, stack = set(), [schema]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if {"__loader__", "__module__", "__class__"} & item.keys():
                found.add(tuple(_text(item.get(k))
                                for k in ("__loader__", "__module__", "__class__")))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _text(value):
    return value if isinstance(value, str) else None


def refused_types(schema) -> list:
    """The nodes of ``schema`` that are not :data:`ALLOWED`, as ``module.name (loader)``
    strings, sorted (empty when every node is allowed)."""
    return sorted(f"{module}.{name} ({loader})"
                  for loader, module, name in schema_types(schema) - ALLOWED)


def trusted_names(schema) -> list:
    """``module.name`` of every node of an allowed ``schema``: exactly what skops is told
    to trust when it builds the objects."""
    return sorted({f"{module}.{name}" for _, module, name in schema_types(schema)})
