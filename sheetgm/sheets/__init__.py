"""Pure builders: a game's state and reports turned into cell operations for each tab of each workbook."""
