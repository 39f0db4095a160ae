"""Game-agnostic building blocks: seeding, files written atomically."""
