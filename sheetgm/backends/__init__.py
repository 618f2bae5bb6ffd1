"""Workbook gateway (port) and its adapters: memory, xlsx (local default), google."""
