"""Placeholder: filled in by its area."""
__all__: list = []
