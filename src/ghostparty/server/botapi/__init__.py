"""The Bot API: bot accounts, their event streams (one per account, a lease) and invitations."""
