"""The rules engine: rule sets as data, scoring, sheets, turns and games."""
