"""Reproduction recipes: each runs a seed study's grid through :mod:`ssdlab.sweep`, draws its figures
and writes a report that puts the seed's numbers beside ssdlab's."""
