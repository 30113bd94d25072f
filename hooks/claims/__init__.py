"""Finding success claims about tests in English text: rules as data (rules.py), the reader
that leaves quoted, negated, conditional and questioning sentences alone (scan.py)."""
