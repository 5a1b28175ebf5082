"""What every part of the server shares: errors, the messages to clients, ids, text, names, ratings, metrics and the tables' model."""
