"""engine: computer play behind one small interface.

Choose a play, choose a cube action, evaluate a position, analyse a recorded match — for
backgammon through a neural-net engine (the only package here that imports it), for long nardy
through our own one-roll-lookahead player. Nothing outside this package imports the engine
library, and ``gammon/`` never imports this package. The values in :mod:`engine.api` are plain
and picklable: engine work runs in worker processes (the bot's
:mod:`bot.core.runtime.worker_pool`, fed with the functions of :mod:`engine.tasks`).
"""
