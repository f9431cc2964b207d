"""Host tools for the tournament clock: provisioning, fleet updates, logs, simulator."""

__version__ = "0.1.0"
