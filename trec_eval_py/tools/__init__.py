"""Tools built on the engine's stages: comparison and significance tests,
curves and plots, leaderboards, run validation and output diffs."""
