"""User-facing applications built on the game packages.

``cli`` is the ``plyground`` command line, ``terminal`` the interactive 2048 game it
starts, and ``saves`` where that game keeps its files. Apps import games, never the
reverse.
"""
