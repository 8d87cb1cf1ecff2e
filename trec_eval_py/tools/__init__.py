"""Tools built on the engine's stages, in families that do not import each other
except as pyproject.toml's import-linter contracts allow:

- ``grading``: validating runs, a class's roster, the leaderboard and its report;
- ``compare``: runs compared per topic, significance tests, positives, output diffs;
- ``curves``: ranked curves and the plots;
- ``organiser``: pooling, pool bias, fusion, agreement, correlation, ndeval;
- ``shared``: what every family may use (runs read by topic blocks, submissions
  read within bounds, the dask cluster)."""
