"""Positions in a text and the literals fixes are written in: the layer every other one speaks."""
