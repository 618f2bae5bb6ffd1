"""A player's hands in LibreOffice Calc, driven through UNO (run by the system Python that has ``uno``):

    python3 lo_hands.py WORKBOOK PASSWORD OUT.xlsx NAME

opens WORKBOOK as a person would, tries what a player might on its first tab (type into a locked cell, into
the open order cell, insert and delete rows, lift the protection with a wrong password, then with the
game's), saves what came of it as OUT.xlsx and prints a JSON record of what LibreOffice allowed. Not a test
module: tests/backends/test_xlsx_protection.py runs it and judges the record and the saved file.

Made to hold on a loaded machine, beside other LibreOffices: its own LibreOffice, with its own user profile,
reached through a pipe named NAME (a TCP port picked free can be taken by another test's LibreOffice before
this one listens, and then the two talk across); waits for it as long as it takes to start; closing the
document is tried again while UNO refuses ("illegal object given" while a dispatch is still being worked
through), and never fails the run once the file is saved; LibreOffice and its children are ended as a
process group, and the profile removed.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.append("/usr/lib/python3/dist-packages")
import uno  # noqa: E402
from com.sun.star.beans import PropertyValue  # noqa: E402

START_WAIT = 300  # seconds LibreOffice may take to listen on a loaded machine
CLOSE_TRIES = 10


def pv(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def main(path, password, out, name):
    profile = tempfile.mkdtemp(prefix="lo-profile-")
    pipe = f"pipe,name={name}"
    office = subprocess.Popen(
        ["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--invisible", "--norestore",
         "--nologo", "--nodefault", f"--accept={pipe};urp;"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    try:
        record = _play(office, pipe, path, password, out)
    finally:
        _end(office, profile)
    print(json.dumps(record))


def _connect(office, pipe):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        if office.poll() is not None:
            raise SystemExit(f"LibreOffice ended while starting (exit {office.returncode})")
        try:
            return resolver.resolve(f"uno:{pipe};urp;StarOffice.ComponentContext")
        except Exception:  # noqa: BLE001 - not listening yet
            time.sleep(0.5)
    raise SystemExit(f"LibreOffice did not answer within {START_WAIT} s")


def _close(doc):
    """Close the document, waiting while UNO refuses (a dispatch still being worked through under load)."""
    for attempt in range(CLOSE_TRIES):
        try:
            doc.close(True)
            return
        except Exception as exc:  # noqa: BLE001 - CloseVetoException, DisposedException, "illegal object given"
            if "Disposed" in type(exc).__name__:
                return  # gone already
            time.sleep(0.5 * (attempt + 1))
    try:
        doc.dispose()
    except Exception:  # noqa: BLE001 - the file is saved: the process group is ended next anyway
        pass


def _lifts(sheet, password):
    """Whether ``password`` lifts the sheet's protection; tried again while it does not, as a dispatch still
    being worked through on a loaded machine can hold the sheet a moment longer."""
    for attempt in range(5):
        try:
            sheet.unprotect(password)
        except Exception as exc:  # noqa: BLE001 - IllegalArgumentException: LibreOffice refuses it
            print(f"unprotect: {type(exc).__name__}: {exc}", file=sys.stderr)
        if not sheet.isProtected():
            return True
        time.sleep(0.5 * (attempt + 1))
    return False


def _end(office, profile):
    """End LibreOffice and every process it started (its own session), then remove its profile."""
    for sig, wait in ((signal.SIGTERM, 30), (signal.SIGKILL, 30)):
        if office.poll() is not None:
            break
        try:
            os.killpg(office.pid, sig)
        except ProcessLookupError:
            break
        try:
            office.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
    shutil.rmtree(profile, ignore_errors=True)


def _play(office, pipe, path, password, out):
    ctx = _connect(office, pipe)
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    hands = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.DispatchHelper", ctx)
    record = {}
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
    record["game_password_lifts"] = _lifts(sheet, password)
    _close(doc)
    try:
        desktop.terminate()
    except Exception:  # noqa: BLE001 - ended with its process group anyway
        pass
    return record


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4])
