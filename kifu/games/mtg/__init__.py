"""Magic: The Gathering coin flips (Comprehensive Rules 705)."""
