"""Practice: spaced repetition of key points, drills, mastery and history."""
