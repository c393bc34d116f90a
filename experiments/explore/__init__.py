"""The balance explorer: a page where a designer changes a rule and sees what it does (server.py)."""
