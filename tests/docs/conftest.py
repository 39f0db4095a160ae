"""The virtual screen of the front-end tests, for the README's desktop-game command."""

from tests.apps.conftest import xvfb_display

__all__ = ["xvfb_display"]
