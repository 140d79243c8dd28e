"""interviewer: an offline-first mock-interview grader for the terminal."""

__version__ = "0.1.0"
