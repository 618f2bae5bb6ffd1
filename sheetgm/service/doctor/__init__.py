"""`sheetgm doctor`: the checks (``checks``), the live probe of Google's answers (``live``) and the report
they fill (``report``)."""
