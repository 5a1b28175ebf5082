"""Puzzles on the server: the puzzles kept, each account's puzzle rating, the attempts and the daily puzzle."""
