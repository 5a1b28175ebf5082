"""Game reviews off the game's path: a local process pool or an rq queue on Redis, its worker, and their store."""
