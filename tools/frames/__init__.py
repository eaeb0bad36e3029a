"""Small jax programs spread over several files, for dumps whose stack-frame tables name several
files and functions (tools/make_golden_dumps.py, program `stack_frames`)."""
