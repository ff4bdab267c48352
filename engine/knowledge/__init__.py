"""The knowledge room of the engine (see its docstring in commit b)."""
