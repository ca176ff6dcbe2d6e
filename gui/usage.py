"""The ``honest-eval`` command's name and usage text, shared by :mod:`gui.launch` (which
prints it before Qt is loaded) and :mod:`gui.app`; the standard library only."""

PROG = "honest-eval"
USAGE = f"""\
usage: {PROG} [EXPERIMENT.json]
           open the app on an experiment file (without one: the built-in example)
       {PROG} run EXPERIMENT.json --out DIR [--jobs N] [--quiet] [--yes]
           run headless, write the result tables (no window; see: {PROG} run --help)
       {PROG} predict MODEL.skops DATA_FILE --out PREDICTIONS.csv
           apply a saved model to a data file (load only model files you trust)
       {PROG} --install-desktop | --uninstall-desktop
           add Honest Eval to the Linux desktop's application menu (or remove it):
           {PROG}.desktop and the icon under $XDG_DATA_HOME (default ~/.local/share)
       {PROG} --smoke-test [EXPERIMENT.json]
           open the window, load the experiment, close it: exit status 0 if all went well
From a source checkout, `python main.py` takes the same arguments."""
