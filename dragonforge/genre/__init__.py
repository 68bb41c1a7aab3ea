"""Genre packs: domains described in YAML, generated without code."""
