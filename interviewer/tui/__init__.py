"""The Textual front end. The only package allowed to import textual."""
