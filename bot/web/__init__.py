"""The bot's web server: serves the pages of :mod:`bot.pages` (the dice check, the match
overview and the replay), guarded against floods and slow clients.
"""
