"""Sign-in: username and password checked by the user service on a worker thread. A wrong password
shows one calm message and keeps the dialog open with the password cleared; Enter submits. After
repeated failures the engine makes the account and the machine wait, then locks them
(``engine.frontdesk.users``); the dialog then says how long to wait. It also shows why the last
session ended (idle sign-out, account disabled). The dialog never says whether a given account
exists, and never logs the password. When there is no staff account at all yet (a fresh
installation), it says how IT creates one.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from engine.errors import AuthenticationFailed
from engine.frontdesk.users import SignInLocked
from staff_app.errors import describe
from staff_app.services import UserBackend
from staff_app.tasks import Tasks

WRONG_PASSWORD = "That username and password do not match. Please try again."
NO_ACCOUNTS = (
    "There are no staff accounts yet. IT creates the first one on this computer or the "
    "server with:  clinic-assistant users add NAME"
)


class LoginDialog(QDialog):
    def __init__(
        self,
        users: UserBackend,
        tasks: Tasks,
        clinic: str = "",
        parent: QWidget | None = None,
        notice: str = "",
    ) -> None:
        super().__init__(parent)
        self.users = users
        self.tasks = tasks
        self.user: Any = None
        self.setWindowTitle("Sign in: Clinic Assistant (staff)")
        self.setObjectName("loginDialog")

        heading = QLabel("Sign in to the front desk", self)
        heading.setTextFormat(Qt.TextFormat.PlainText)
        font = heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        heading.setFont(font)
        self.username = QLineEdit(self)
        self.username.setAccessibleName("Username")
        self.username.setObjectName("username")
        self.password = QLineEdit(self)
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setAccessibleName("Password")
        self.password.setObjectName("password")
        self.message = QLabel(self)
        self.message.setObjectName("loginMessage")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #a40000;")
        self.message.hide()

        form = QFormLayout()
        form.addRow("&Username", self.username)
        form.addRow("&Password", self.password)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.sign_in_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.sign_in_button.setText("Sign in")
        self.sign_in_button.setAccessibleName("Sign in")
        self.sign_in_button.setDefault(True)
        self.buttons.accepted.connect(self.submit)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        if clinic:
            layout.addWidget(QLabel(clinic, self))
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.setTabOrder(self.username, self.password)
        self.setTabOrder(self.password, self.sign_in_button)
        self.username.setFocus()
        self.resize(420, 0)
        self.no_accounts = False
        if notice:  # why the last session ended (idle, account disabled)
            self._show(notice)
        self._check_accounts()

    def _check_accounts(self) -> None:
        users = self.users
        self.tasks.run(users.list, self._on_accounts, lambda _error: None)

    def _on_accounts(self, accounts: list[Any]) -> None:
        self.no_accounts = not accounts
        if self.no_accounts:
            self._show(NO_ACCOUNTS)

    def submit(self) -> None:
        username = self.username.text().strip()
        password = self.password.text()
        if not username or not password:
            self._show("Enter your username and password.")
            return
        self._busy(True)
        self.tasks.run(
            lambda: self.users.authenticate(username, password), self._on_ok, self._on_error
        )

    def _on_ok(self, user: Any) -> None:
        self._busy(False)
        if user is None or not getattr(user, "is_active", True):
            self._on_error(AuthenticationFailed("This account is switched off."))
            return
        self.user = user
        self.password.clear()
        self.accept()

    def _on_error(self, error: BaseException) -> None:
        self._busy(False)
        self.password.clear()
        self.password.setFocus()
        if isinstance(error, SignInLocked):
            self._show(str(error))  # "Too many failed sign-ins; please wait N seconds..."
        elif isinstance(error, AuthenticationFailed):
            self._show(WRONG_PASSWORD)
            self._check_accounts()  # says how to create the first account when there is none
        else:
            self._show(describe(error))

    def _show(self, text: str) -> None:
        self.message.setText(text)
        self.message.show()

    def _busy(self, busy: bool) -> None:
        self.sign_in_button.setEnabled(not busy)
        self.sign_in_button.setText("Signing in..." if busy else "Sign in")
