"""Open game data: every finished game by month, as ndjson and Parquet."""
