"""Test helpers shared by the engine, Qt and benchmark tests (fakes, fixtures, fake servers)."""
