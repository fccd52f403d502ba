"""UNO Table Companion: a Raspberry Pi referee for UNO played with real cards."""

__version__ = "0.1.0"
