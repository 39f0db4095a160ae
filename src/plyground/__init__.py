"""plyground: search-based game AI for 2048 and k-in-a-row.

Importing the top-level package is cheap: the games live in subpackages
(``plyground.g2048``) that load their compiled kernels on first import.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
