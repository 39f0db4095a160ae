"""The local web lab: one page to play 2048 and k-in-a-row in a browser, with the AI's search on show.

``plyground web`` serves it on 127.0.0.1 (starlette and uvicorn, the ``web`` extra).
:mod:`~plyground.apps.web.server` holds the app factory :func:`~plyground.apps.web.server.create_app`,
the routes and :func:`~plyground.apps.web.server.serve`; :mod:`~plyground.apps.web.sessions`
the games the server keeps and the searches it runs; :mod:`~plyground.apps.web.live`
the WebSocket on which the AI plays 2048 live; :mod:`~plyground.apps.web.validation` how
request bodies and messages are read and checked. ``static/`` holds the page (plain HTML, CSS and
JavaScript, no build step).

Nothing is imported here, so that importing the package costs nothing: import the modules.
"""
