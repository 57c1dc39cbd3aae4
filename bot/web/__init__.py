"""Web pages of the bot: the dice check, the match overview and the replay.

The page builders are pure (data in, HTML out); the server and file downloads call them.
"""
