"""Sentence encoders behind one small protocol, their names and their disk cache."""
