"""A local chat in the terminal over the same command layer: try the bot without any token."""
