"""The in-memory adapter: dicts of `model.Book`, for tests of the service layer."""

from __future__ import annotations

import copy
from collections.abc import Sequence

from sheetgm.backends import model, port
from sheetgm.backends.errors import MissingTabError, MissingWorkbookError, WorkbookExistsError, name_workbook


class MemoryGateway(port.Gateway):
    places_pictures = True

    def __init__(self, books: dict[str, model.Book] | None = None) -> None:
        self.books: dict[str, model.Book] = {} if books is None else books

    def _book(self, key: str) -> model.Book:
        try:
            return self.books[key]
        except KeyError:
            raise MissingWorkbookError(key=key) from None

    def exists(self, key: str) -> bool:
        return key in self.books

    def create(self, key: str, title: str, tabs: Sequence[str]) -> None:
        if key in self.books:
            raise WorkbookExistsError(key=key)
        port.check_tabs(tabs)
        book = model.Book(title)
        for name in tabs:
            model.apply(book, port.AddTab(name))
        self.books[key] = book

    def tabs(self, key: str) -> list[str]:
        return [s.name for s in self._book(key).sheets]

    def read(self, key: str, ranges: Sequence[str]) -> dict[str, list[list[str]]]:
        book = self._book(key)
        try:
            return {text: model.read(book, text) for text in ranges}
        except MissingTabError as err:
            raise name_workbook(err, key) from None

    def write(self, key: str, ops: Sequence[port.Op]) -> None:
        draft = copy.deepcopy(self._book(key))
        try:
            for op in ops:
                model.apply(draft, op)
        except MissingTabError as err:
            raise name_workbook(err, key) from None
        self.books[key] = draft

    def protections(self, key: str) -> list[port.Protection]:
        return model.protections(self._book(key))

    def pictures(self, key: str) -> dict[str, dict[str, bytes]]:
        return {s.name: dict(s.pictures) for s in self._book(key).sheets if s.pictures}

    def permissions(self, key: str) -> list[port.Permission]:
        return [port.Permission(e, r) for e, r in sorted(self._book(key).permissions.items())]

    def share(self, key: str, email: str, role: str) -> None:
        port.check_role(role)
        self._book(key).permissions[email] = role

    def unshare(self, key: str, email: str) -> None:
        self._book(key).permissions.pop(email, None)

    def url(self, key: str) -> str | None:
        self._book(key)
        return None

    def view(self, key: str) -> port.WorkbookView:
        return model.view(self._book(key))
