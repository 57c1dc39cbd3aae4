"""gammonbot: the chat bot around the gammon rules engine."""
