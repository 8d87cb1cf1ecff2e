"""Comparing runs: pairs of runs per topic, significance tests, the positives unit and output diffs."""
