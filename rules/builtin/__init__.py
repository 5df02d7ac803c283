"""Built-in rule-set files (TOML)."""
