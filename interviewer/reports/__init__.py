"""Session reports in Markdown, HTML and JSON."""
