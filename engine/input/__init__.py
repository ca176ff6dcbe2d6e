"""Files, readers and data: CSV, ARFF, Excel, built-in sets, checks of what was read."""
