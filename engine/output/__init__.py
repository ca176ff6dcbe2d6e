"""What a run writes: the result folder, its tables and the HTML report."""
