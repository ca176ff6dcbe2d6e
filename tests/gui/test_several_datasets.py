"""An experiment with several data sets opened in the app: its first data set, and one
message saying how to run the whole comparison."""
import json
import os

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from gui.main_window import MainWindow

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "resources", "examples", "five_models_six_datasets.json")


def test_opening_several_datasets_shows_the_first_and_says_so(qtbot, tmp_path,
                                                              warnings_shown):
    path = tmp_path / "three.json"
    with open(EXAMPLE, encoding="utf-8") as stream:
        data = json.load(stream)
    data["datasets"] = [{"builtin": "wine", "name": "wine A"}, {"builtin": "iris"},
                        {"builtin": "wine"}]
    path.write_text(json.dumps(data), encoding="utf-8")
    window = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(window)
    window.show()
    try:
        with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                               timeout=20000):
            window.open_experiment(str(path))
        box = window.findChild(QMessageBox, "several_datasets_message")
        assert box is not None and box.isVisible() and warnings_shown == []
        text = box.text()
        assert text.startswith("This experiment compares 3 data sets (wine A, iris, wine). "
                               "The app shows one data set at a time, so it opens the first "
                               "one, wine A, here.")
        assert f'honest-eval run "{path}" --out FOLDER' in text
        assert window.state.dataset.name == "wine A" and window.state.dataset.n_rows == 178
        assert window.models_tab.expanded_list.count() == 5
        assert window.state.experiment_path == str(path)
        assert window.proposed_experiment_path() != str(path)   # never over the whole list
        assert not window.is_dirty()
        box.accept()
        qtbot.waitUntil(lambda: window.findChild(QMessageBox, "several_datasets_message")
                        is None or not box.isVisible(), timeout=5000)
    finally:
        window.shutdown()
