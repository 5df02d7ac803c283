"""Raspberry Pi deployment: the install script, the systemd unit and the default config."""
