"""Email for accounts: the mailer, its keys, texts, outbox and store."""
