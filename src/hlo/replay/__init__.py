"""Replaying what XLA dumps: loading any module format, snapshots, comparing results, reference
runs on XLA:CPU."""
