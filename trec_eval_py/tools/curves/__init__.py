"""Curves and figures: ranked curves (PR, ROC, CROC...) and their plots."""
