"""2048 in a web browser: plyground plays a page's game, or draws its hints on it.

:mod:`~plyground.apps.browser.page` reads a page's board, score and state (the original web
game's saved game in ``localStorage``, else its tiles); :mod:`~plyground.apps.browser.driver`
drives Chromium through Playwright (an optional dependency: the ``browser`` extra).
"""
