"""Content: question banks, rubrics and their key points, importers, text segmentation and language."""
