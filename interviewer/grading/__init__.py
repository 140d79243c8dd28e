"""Grading: an answer's evidence for each key point, the verdicts and the score."""
