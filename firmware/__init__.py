"""The tray itself: devices, the roll cycle, storage, configuration and the CLI."""
