"""The bot's pages as documents: the dice check, the match overview and the replay.

Pure builders (data in, a self-contained HTML page out) with their data, texts, templates and
scripts. The web server (:mod:`bot.web`) serves them; the core attaches the check page to a
match's or a chouette's end as a file, so the pages depend on no front-end and no storage.
"""
