"""The shape of Google's answers (keys and types, recursively), and the shapes sheetgm's adapter expects.

`sheetgm doctor --live` makes every kind of call the game makes on a scratch spreadsheet and compares
the shape of each real answer with `EXPECTED`: the shapes the test fake gives to the same requests.
The table is shipped here (the fake lives with the tests and is not installed); a test makes the same
calls on the fake and fails, printing the new table, when the fake's answers and this table part. So a
difference that ``--live`` reports is one between Google and the fake the tests trust.

A shape is ``"str"``, ``"int"``, ``"float"``, ``"bool"``, ``"null"``, a dict of shapes, or a list of
one shape (the union of its elements'; ``[]`` for an empty list).

What counts as a difference: another type; a missing object or list that has content in the fake's
answer; a missing value the adapter reads (`REQUIRED`). Google leaves zero, false and empty values out
of its answers (proto3), so another missing value is only noted, as is what Google sends and the fake
does not.
"""

from __future__ import annotations

from typing import Any

Shape = Any


def shape(doc: Any) -> Shape:
    if isinstance(doc, dict):
        return {str(k): shape(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [merge([shape(x) for x in doc])] if doc else []
    if isinstance(doc, bool):
        return "bool"
    if isinstance(doc, int):
        return "int"
    if isinstance(doc, float):
        return "float"
    if doc is None:
        return "null"
    return "str"


def merge(shapes: list[Shape]) -> Shape:
    """The union of several shapes (a list's elements): the keys of every dict, the types of every scalar."""
    dicts = [s for s in shapes if isinstance(s, dict)]
    lists = [s for s in shapes if isinstance(s, list)]
    scalars = sorted({t for s in shapes if isinstance(s, str) for t in s.split("|")})
    if dicts and not lists and not scalars:
        keys = sorted({k for d in dicts for k in d})
        return {k: merge([d[k] for d in dicts if k in d]) for k in keys}
    if lists and not dicts and not scalars:
        inner = [x[0] for x in lists if x]
        return [merge(inner)] if inner else []
    if scalars and not dicts and not lists:
        return "|".join(scalars)
    return "mixed"


# Paths (in any answer) of the values sheetgm's adapter reads: missing, they are a difference even as scalars.
REQUIRED = frozenset({
    "spreadsheetId", "sheets[].properties.sheetId", "sheets[].properties.title",
    "sheets[].properties.gridProperties.rowCount", "sheets[].properties.gridProperties.columnCount",
    "sheets[].protectedRanges[].protectedRangeId", "sheets[].protectedRanges[].description",
    "sheets[].data[].rowData[].values[].formattedValue", "replies[].addProtectedRange.protectedRange.protectedRangeId",
    "valueRanges", "valueRanges[].values", "files[].id", "files[].version", "files[].modifiedTime",
    "permissions[].id", "permissions[].role", "permissions[].type", "id", "role",
})


def _empty(s: Shape) -> bool:
    return bool(s == [] or s == {})


def differences(expected: Shape, actual: Shape, path: str = "") -> tuple[list[str], list[str]]:
    """(what differs; what is only noted: a value left out that nothing reads, what Google adds)."""
    where = path or "(answer)"
    if isinstance(expected, dict) and isinstance(actual, dict):
        bad: list[str] = []
        extra: list[str] = []
        for key, sub in expected.items():
            at = f"{path}.{key}" if path else key
            if key not in actual:
                if at in REQUIRED or isinstance(sub, dict | list) and not _empty(sub):
                    bad.append(f"{at}: missing")
                elif not _empty(sub):
                    extra.append(f"{at}: absent")
                continue
            b, e = differences(sub, actual[key], at)
            bad += b
            extra += e
        extra += [f"{path}.{k}: more" if path else f"{k}: more" for k in actual if k not in expected]
        return bad, extra
    if isinstance(expected, list) and isinstance(actual, list):
        if not expected or not actual:
            return [], []
        return differences(expected[0], actual[0], f"{path}[]")
    if isinstance(expected, str) and isinstance(actual, str):
        if set(actual.split("|")) <= set(expected.split("|")):
            return [], []
        return [f"{where}: {actual}, expected {expected}"], []
    return [f"{where}: {_kind(actual)}, expected {_kind(expected)}"], []


def _kind(s: Shape) -> str:
    return "an object" if isinstance(s, dict) else "a list" if isinstance(s, list) else str(s)


# The fake's answers to the calls of `sheetgm doctor --live` (service/doctor/live.py), by kind of call
# (`recording.kind_of`). Regenerate: tests/service/test_doctor.py's shapes test prints the table when they part.
EXPECTED: dict[str, Shape] = {
 "drive.files.delete": "null",
 "drive.files.list": {
  "files": [
   {
    "id": "str",
    "lastModifyingUser": {
     "me": "bool"
    },
    "modifiedTime": "str",
    "version": "str"
   }
  ]
 },
 "drive.permissions.create": {
  "deleted": "bool",
  "displayName": "str",
  "emailAddress": "str",
  "id": "str",
  "kind": "str",
  "role": "str",
  "type": "str"
 },
 "drive.permissions.list": {
  "permissions": [
   {
    "deleted": "bool",
    "displayName": "str",
    "emailAddress": "str",
    "id": "str",
    "kind": "str",
    "role": "str",
    "type": "str"
   }
  ]
 },
 "sheets.spreadsheets.batchUpdate": {
  "replies": [
   {
    "addProtectedRange": {
     "protectedRange": {
      "description": "str",
      "editors": {
       "users": [
        "str"
       ]
      },
      "protectedRangeId": "int",
      "range": {
       "endColumnIndex": "int",
       "endRowIndex": "int",
       "startColumnIndex": "int",
       "startRowIndex": "int"
      },
      "requestingUserCanEdit": "bool"
     }
    },
    "addSheet": {
     "properties": {
      "gridProperties": {
       "columnCount": "int",
       "rowCount": "int"
      },
      "index": "int",
      "sheetId": "int",
      "sheetType": "str",
      "title": "str"
     }
    }
   }
  ],
  "spreadsheetId": "str"
 },
 "sheets.spreadsheets.create": {
  "properties": {
   "autoRecalc": "str",
   "defaultFormat": {
    "backgroundColor": {
     "blue": "int",
     "green": "int",
     "red": "int"
    },
    "backgroundColorStyle": {
     "rgbColor": {
      "blue": "int",
      "green": "int",
      "red": "int"
     }
    },
    "padding": {
     "bottom": "int",
     "left": "int",
     "right": "int",
     "top": "int"
    },
    "textFormat": {
     "bold": "bool",
     "fontFamily": "str",
     "fontSize": "int",
     "foregroundColor": {},
     "foregroundColorStyle": {
      "rgbColor": {}
     },
     "italic": "bool",
     "strikethrough": "bool",
     "underline": "bool"
    },
    "verticalAlignment": "str",
    "wrapStrategy": "str"
   },
   "locale": "str",
   "spreadsheetTheme": {
    "primaryFontFamily": "str",
    "themeColors": [
     {
      "color": {
       "rgbColor": {
        "blue": "float|int",
        "green": "float|int",
        "red": "float|int"
       }
      },
      "colorType": "str"
     }
    ]
   },
   "timeZone": "str",
   "title": "str"
  },
  "sheets": [
   {
    "properties": {
     "gridProperties": {
      "columnCount": "int",
      "rowCount": "int"
     },
     "index": "int",
     "sheetId": "int",
     "sheetType": "str",
     "title": "str"
    }
   }
  ],
  "spreadsheetId": "str",
  "spreadsheetUrl": "str"
 },
 "sheets.spreadsheets.get (field mask)": {
  "sheets": [
   {
    "data": [
     {
      "rowData": [
       {
        "values": [
         {
          "formattedValue": "str"
         }
        ]
       }
      ]
     }
    ],
    "properties": {
     "gridProperties": {
      "columnCount": "int",
      "frozenRowCount": "int",
      "rowCount": "int"
     },
     "sheetId": "int",
     "title": "str"
    },
    "protectedRanges": [
     {
      "description": "str",
      "editors": {
       "users": [
        "str"
       ]
      },
      "protectedRangeId": "int",
      "range": {
       "endColumnIndex": "int",
       "endRowIndex": "int",
       "startColumnIndex": "int",
       "startRowIndex": "int"
      }
     }
    ]
   }
  ]
 },
 "sheets.spreadsheets.get (grid data)": {
  "properties": {
   "autoRecalc": "str",
   "defaultFormat": {
    "backgroundColor": {
     "blue": "int",
     "green": "int",
     "red": "int"
    },
    "backgroundColorStyle": {
     "rgbColor": {
      "blue": "int",
      "green": "int",
      "red": "int"
     }
    },
    "padding": {
     "bottom": "int",
     "left": "int",
     "right": "int",
     "top": "int"
    },
    "textFormat": {
     "bold": "bool",
     "fontFamily": "str",
     "fontSize": "int",
     "foregroundColor": {},
     "foregroundColorStyle": {
      "rgbColor": {}
     },
     "italic": "bool",
     "strikethrough": "bool",
     "underline": "bool"
    },
    "verticalAlignment": "str",
    "wrapStrategy": "str"
   },
   "locale": "str",
   "spreadsheetTheme": {
    "primaryFontFamily": "str",
    "themeColors": [
     {
      "color": {
       "rgbColor": {
        "blue": "float|int",
        "green": "float|int",
        "red": "float|int"
       }
      },
      "colorType": "str"
     }
    ]
   },
   "timeZone": "str",
   "title": "str"
  },
  "sheets": [
   {
    "data": [
     {
      "columnMetadata": [
       {
        "pixelSize": "int"
       }
      ],
      "rowData": [
       {
        "values": [
         {
          "dataValidation": {
           "condition": {
            "type": "str",
            "values": [
             {
              "userEnteredValue": "str"
             }
            ]
           },
           "inputMessage": "str",
           "showCustomUi": "bool",
           "strict": "bool"
          },
          "effectiveValue": {
           "stringValue": "str"
          },
          "formattedValue": "str",
          "note": "str",
          "userEnteredFormat": {
           "backgroundColor": {
            "blue": "float",
            "green": "float",
            "red": "int"
           },
           "backgroundColorStyle": {
            "rgbColor": {
             "blue": "float",
             "green": "float",
             "red": "int"
            }
           },
           "borders": {
            "bottom": {
             "style": "str"
            },
            "top": {
             "style": "str"
            }
           },
           "textFormat": {
            "bold": "bool"
           }
          },
          "userEnteredValue": {
           "stringValue": "str"
          }
         }
        ]
       }
      ],
      "rowMetadata": [
       {
        "pixelSize": "int"
       }
      ]
     }
    ],
    "properties": {
     "gridProperties": {
      "columnCount": "int",
      "frozenRowCount": "int",
      "rowCount": "int"
     },
     "index": "int",
     "sheetId": "int",
     "sheetType": "str",
     "title": "str"
    },
    "protectedRanges": [
     {
      "description": "str",
      "editors": {
       "users": [
        "str"
       ]
      },
      "protectedRangeId": "int",
      "range": {
       "endColumnIndex": "int",
       "endRowIndex": "int",
       "startColumnIndex": "int",
       "startRowIndex": "int"
      },
      "requestingUserCanEdit": "bool"
     }
    ]
   }
  ],
  "spreadsheetId": "str",
  "spreadsheetUrl": "str"
 },
 "sheets.spreadsheets.get (metadata)": {
  "properties": {
   "autoRecalc": "str",
   "defaultFormat": {
    "backgroundColor": {
     "blue": "int",
     "green": "int",
     "red": "int"
    },
    "backgroundColorStyle": {
     "rgbColor": {
      "blue": "int",
      "green": "int",
      "red": "int"
     }
    },
    "padding": {
     "bottom": "int",
     "left": "int",
     "right": "int",
     "top": "int"
    },
    "textFormat": {
     "bold": "bool",
     "fontFamily": "str",
     "fontSize": "int",
     "foregroundColor": {},
     "foregroundColorStyle": {
      "rgbColor": {}
     },
     "italic": "bool",
     "strikethrough": "bool",
     "underline": "bool"
    },
    "verticalAlignment": "str",
    "wrapStrategy": "str"
   },
   "locale": "str",
   "spreadsheetTheme": {
    "primaryFontFamily": "str",
    "themeColors": [
     {
      "color": {
       "rgbColor": {
        "blue": "float|int",
        "green": "float|int",
        "red": "float|int"
       }
      },
      "colorType": "str"
     }
    ]
   },
   "timeZone": "str",
   "title": "str"
  },
  "sheets": [
   {
    "properties": {
     "gridProperties": {
      "columnCount": "int",
      "frozenRowCount": "int",
      "rowCount": "int"
     },
     "index": "int",
     "sheetId": "int",
     "sheetType": "str",
     "title": "str"
    },
    "protectedRanges": [
     {
      "description": "str",
      "editors": {
       "users": [
        "str"
       ]
      },
      "protectedRangeId": "int",
      "range": {
       "endColumnIndex": "int",
       "endRowIndex": "int",
       "startColumnIndex": "int",
       "startRowIndex": "int"
      },
      "requestingUserCanEdit": "bool"
     }
    ]
   }
  ],
  "spreadsheetId": "str",
  "spreadsheetUrl": "str"
 },
 "sheets.spreadsheets.values.batchGet": {
  "spreadsheetId": "str",
  "valueRanges": [
   {
    "majorDimension": "str",
    "range": "str",
    "values": [
     [
      "str"
     ]
    ]
   }
  ]
 }
}
