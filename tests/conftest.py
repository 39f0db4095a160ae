"""Shared test settings: hypothesis profiles (``HYPOTHESIS_PROFILE=nojit`` for the slow pure-Python run).

A suite started in the background by a non-interactive shell (``cmd &``) inherits SIGINT
ignored: Python then never raises KeyboardInterrupt, and the commands the tests start
ignore Ctrl-C too. The Ctrl-C tests need it handled as in a terminal, so it is restored.
"""

import os
import signal

from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=200, deadline=None)
settings.register_profile("nojit", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
