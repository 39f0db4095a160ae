"""The campaign scripts of ``experiments/``, beyond their end-to-end run in ``tests/benchmarks/test_scripts.py``."""
