"""The machinery underneath: the database (schema, engine, rows, writer, backup), Redis, rate limits and logs."""
