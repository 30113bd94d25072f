"""receipt-hooks: pre-commit hooks and a CLI that make "the tests passed" a checkable fact."""

__version__ = "0.2.0"
