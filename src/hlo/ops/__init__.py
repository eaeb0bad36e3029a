"""Every HLO op: one block per op (attribute schema, shape rule, kernel) in one family module."""
