"""Web Push for accounts: subscriptions per device, the texts, the sender and its store."""
