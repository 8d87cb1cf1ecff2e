"""What every family of tools may use: runs read by topic blocks, submissions read within bounds, the dask cluster."""
