"""A campaign organiser's tools: pooling and pool bias, fusion, assessor
agreement, system-ranking correlation and ndeval."""
