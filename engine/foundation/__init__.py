"""The machine and the words every layer uses: notes, errors, progress, processes."""
