"""What the instances share: the pub/sub and its typed envelope, presence, leases and catching up."""
