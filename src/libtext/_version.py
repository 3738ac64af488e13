"""The package version, in a module with no imports so low modules can read it."""

__version__ = "0.1.0"
