"""Quick-match: a queue of waiting players, matched into tables; its store in SQL and in memory."""
