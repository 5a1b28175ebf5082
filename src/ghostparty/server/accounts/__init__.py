"""Accounts: players, sessions, passwords and API tokens; the store of each, in SQL and in memory, under one interface."""
