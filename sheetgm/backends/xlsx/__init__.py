"""The xlsx adapter, the local default: our own reader and writer of .xlsx packages."""
