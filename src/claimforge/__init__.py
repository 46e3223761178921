"""claimforge: build, audit and use scientific fact-checking datasets offline."""

__version__ = "0.1.0"
