"""Games in bulk: the one game loop (:mod:`.playout`), seeding scheme (:mod:`.seeds`) and
parallel driver (:mod:`.parallel`, local processes or Dask); tournaments, think time per
bot, the engine benchmark, and the statistics of their results (:mod:`.stats`)."""
