"""The `hlo` command line: one module per command, registered in COMMANDS."""
