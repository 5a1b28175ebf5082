"""The stores put together: one database's SQL stores on one engine, the memory store, and what a store can do (capabilities)."""
