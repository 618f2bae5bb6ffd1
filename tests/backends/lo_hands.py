"""A player's hands in LibreOffice Calc, driven through UNO (run by the system Python that has ``uno``):

    python3 lo_hands.py WORKBOOK PASSWORD OUT.xlsx PORT

opens WORKBOOK as a person would, tries what a player might on its first tab (type into a locked cell, into
the open order cell, insert and delete rows, lift the protection with a wrong password, then with the
game's), saves what came of it as OUT.xlsx and prints a JSON record of what LibreOffice allowed. Not a test
module: tests/backends/test_xlsx_protection.py runs it and judges the record and the saved file.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.append("/usr/lib/python3/dist-packages")
import uno  # noqa: E402
from com.sun.star.beans import PropertyValue  # noqa: E402


def pv(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def main(path, password, out, port):
    profile = tempfile.mkdtemp(prefix="lo-profile-")
    office = subprocess.Popen(
        ["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--invisible", "--norestore",
         f"--accept=socket,host=localhost,port={port};urp;"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    ctx = None
    for _ in range(240):
        try:
            ctx = resolver.resolve(f"uno:socket,host=localhost,port={port};urp;StarOffice.ComponentContext")
            break
        except Exception:  # noqa: BLE001 - not listening yet
            time.sleep(0.5)
    if ctx is None:
        office.kill()
        raise SystemExit("LibreOffice did not start")
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    hands = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.DispatchHelper", ctx)
    record = {}
    try:
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(os.path.abspath(path)), "_blank", 0,
                                           (pv("Hidden", True),))
        frame = doc.CurrentController.Frame
        sheet = doc.Sheets.getByIndex(0)

        def at(cell):
            hands.executeDispatch(frame, ".uno:GoToCell", "", 0, (pv("ToPoint", cell),))

        def text(cell):
            return sheet.getCellRangeByName(cell).String

        def typed(cell, value):
            at(cell)
            hands.executeDispatch(frame, ".uno:EnterString", "", 0, (pv("StringName", value),))
            return text(cell) == value

        record["protected"] = sheet.isProtected()
        record["locked"] = [c for c in ("A2", "B2", "C2", "D2", "E2", "F2", "G2", "B3", "A1")
                            if sheet.getCellRangeByName(c).CellProtection.IsLocked]
        record["typed_label"] = typed("A2", "x")  # once: LibreOffice says no (a second refusal's box ends it headless)
        record["typed_order"] = typed("B2", "移动 C3")
        record["typed_tick"] = typed("C2", "✓")
        before = text("A2")
        at("A2")
        hands.executeDispatch(frame, ".uno:InsertRowsBefore", "", 0, ())
        record["inserted_row"] = text("A2") != before
        at("A2")
        hands.executeDispatch(frame, ".uno:DeleteRows", "", 0, ())
        record["deleted_row"] = text("A2") != before
        try:
            sheet.unprotect("not the password")
            record["wrong_password_lifts"] = not sheet.isProtected()
        except Exception:  # noqa: BLE001 - LibreOffice refuses: IllegalArgumentException
            record["wrong_password_lifts"] = False
        doc.storeToURL(uno.systemPathToFileUrl(os.path.abspath(out)), (pv("FilterName", "Calc MS Excel 2007 XML"),))
        try:
            sheet.unprotect(password)
            record["game_password_lifts"] = not sheet.isProtected()
        except Exception:  # noqa: BLE001
            record["game_password_lifts"] = False
        doc.close(True)
    finally:
        try:
            desktop.terminate()
        except Exception:  # noqa: BLE001 - it may be gone already
            pass
        try:
            office.wait(timeout=60)
        except subprocess.TimeoutExpired:
            office.kill()
    print(json.dumps(record))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
