"""Issue #40's "types checked", kept: the options of public engine functions are
keyword-only, and getattr with a default is used only on foreign objects."""
import ast
import pathlib

ENGINE = pathlib.Path(__file__).resolve().parent.parent / "engine"

#: Public module-level functions whose defaulted parameters stay positional, and why.
POSITIONAL = {
    "calibrate_fold": "run_calls passes its job tuples positionally",
    "fit_and_score": "run_calls and Feed pass its call tuples positionally",
    "run_batch": "dask's client.submit passes its arguments positionally",
    "tie_to_parent": "a process pool initializer: initargs are positional",
    "estimate_seconds": "the window starts it with Job.in_process's args tuple",
    "hessian_multi": "the defaulted pairs is data",
    "path_point": "the defaulted curvature is data",
    "make_splits": "the defaulted groups is data",
    "fold_notes": "the defaulted groups is data",
    "fit_model": "the defaulted groups is data",
}
DATA = {"groups", "y", "X"}


def _functions():
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                yield path.relative_to(ENGINE.parent), node


def _positional_options(fn: ast.FunctionDef) -> list:
    """The defaulted positional parameters after the first required one, data left out.
    A function with a ``*`` already has it where its author put it (``load_file``'s
    ``target``, ``result_files``'s ``notes`` and ``run_in_process``'s ``args`` before it)."""
    params = fn.args.posonlyargs + fn.args.args
    required = len(params) - len(fn.args.defaults)
    if required == 0 or fn.args.vararg or fn.args.kwonlyargs:
        return []
    return [p.arg for p in params[required:] if p.arg not in DATA]


def test_the_options_of_public_engine_functions_are_keyword_only():
    positional = [f"{path}:{fn.lineno} {fn.name}({', '.join(_positional_options(fn))})"
                  for path, fn in _functions()
                  if fn.name not in POSITIONAL and _positional_options(fn)]
    assert positional == [], "put a * before these options (after the data):\n" + \
        "\n".join(positional)


def test_the_exceptions_still_exist_and_still_take_positional_options():
    names = {fn.name: fn for _, fn in _functions()}
    assert sorted(set(POSITIONAL) - set(names)) == []
    assert [name for name in POSITIONAL if names[name].args.kwonlyargs] == []


def test_most_public_engine_functions_with_options_take_them_by_keyword():
    keyword = [fn.name for _, fn in _functions() if fn.args.kwonlyargs]
    assert len(keyword) >= 219


def test_getattr_with_a_default_says_whose_object_it_reads():
    bare = []
    for path in sorted(ENGINE.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id == "getattr" and len(node.args) == 3:
                here, above = lines[node.lineno - 1], lines[node.lineno - 2]
                if "#" not in here and "# getattr:" not in above:
                    bare.append((str(path.relative_to(ENGINE.parent)), node.args[1].value))
    # errors.error_code / error_fields read code and fields of EngineError, JobFailed
    # and FolderRefused, three exception types on three floors (issue #40's error model)
    assert bare == [("engine/foundation/errors.py", "code"),
                    ("engine/foundation/errors.py", "fields")]
