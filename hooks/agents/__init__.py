"""Coding agents' stop hooks: the formats (formats.py), the agent's last message
(transcript.py), whether a receipt covers the work tree (coverage.py), and the decision with
its block count and ledger events (gate.py)."""
