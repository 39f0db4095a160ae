"""Pure-Python reference implementations used to check the fast engines."""
