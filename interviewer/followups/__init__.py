"""Follow-up questions from an LLM on an OpenAI-compatible server."""
