"""The players' and the public workbooks kept whole: order rows read and judged (``sheetorders``), rows, tabs
and protections repaired (``upkeep``, ``protections``), the public news and the stage maps."""
