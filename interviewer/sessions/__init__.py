"""Sessions: the interview plan, its state in memory, and its rows on disk."""
