"""Tournaments on the server: creating and joining them, the runner that seats their games, recurring events, views and store (the pure engine is ghostparty.tournaments)."""
