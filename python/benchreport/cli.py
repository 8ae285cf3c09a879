"""Command-line interface (placeholder until the CLI lands)."""
import sys


def main(argv=None) -> int:
    print("benchreport: no commands yet", file=sys.stderr)
    return 2
