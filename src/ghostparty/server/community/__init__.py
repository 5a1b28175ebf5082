"""Community: players blocking, muting and reporting each other, moderation, friends and invitations."""
