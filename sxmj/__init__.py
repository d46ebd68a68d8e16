"""Shaoxing Mahjong (绍兴麻将): the pure-Python rules core and its browser UI."""
