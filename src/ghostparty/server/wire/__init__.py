"""A table as its clients see it: the codec of tables and events, and the update frames built once."""
