"""The strong solver on a cluster: age layers split into shards by a hash of the canonical code.

:mod:`~plyground.g2048.shards.codec` stores a shard's sorted codes and values compactly.
"""
