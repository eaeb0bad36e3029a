"""The HLO IR: modules, computations and instructions as frozen values."""
