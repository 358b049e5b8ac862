"""Headless Chromium for the browser tests: the DOM after a page's scripts ran, and a page to press keys in.

``dump_dom(url)`` is ``chromium --headless --dump-dom``. ``Page`` drives one tab over the DevTools
protocol on a pipe (``--remote-debugging-pipe``: NUL-separated JSON on file descriptors 3 and 4),
with the standard library only. Every step waits for what it needs to see (a reply, the load event,
a condition in the page), never for a time; one generous limit keeps a wedged browser from hanging
the suite.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
from typing import Any

import pytest

NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)
LIMIT = 300.0
"""Seconds a browser may take to answer at all (a busy two-core machine is slow, never this slow)."""


def find() -> str:
    """The browser's path; without one the test is skipped, or fails under CI (the env var ``CI``)."""
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("CI"):
        pytest.fail("CI is set and no Chromium was found: .ci/run installs Debian's chromium for these tests")
    pytest.skip("no Chromium on this machine (apt-get install chromium)")


def dump_dom(url: str, width: int = 1280, height: int = 900) -> str:
    """The page's DOM after its scripts ran, as headless Chromium serialises it."""
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [find(), *FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}", "--dump-dom", url],
            capture_output=True,
            text=True,
            timeout=LIMIT,
            check=False,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


class Page:
    """One tab of a headless Chromium, driven over the DevTools protocol."""

    def __init__(self, url: str, width: int = 1280, height: int = 900) -> None:
        self.profile = tempfile.TemporaryDirectory()
        to_browser, self._out = os.pipe()
        self._in, from_browser = os.pipe()
        self.proc = subprocess.Popen(
            [find(), *FLAGS, f"--user-data-dir={self.profile.name}", "--remote-debugging-pipe", "about:blank"],
            # the child makes descriptors 3 and 4 from the pipe's ends; closing descriptors would close
            # them again, and Python's own are not inheritable anyway (PEP 446)
            close_fds=False,
            preexec_fn=lambda: _as_3_and_4(to_browser, from_browser),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser)
        os.close(from_browser)
        self._buf = b""
        self._id = 0
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call(
            "Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=width < 600
        )
        self.call("Page.enable")
        self.call("Page.navigate", url=url)
        self._wait_for("Page.loadEventFired")

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command (to the tab once attached) and return its result."""
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if getattr(self, "session", None):
            msg["sessionId"] = self.session
        os.write(self._out, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._id:
                assert "error" not in reply, (method, reply["error"])
                return reply.get("result", {})

    def js(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (a promise is awaited)."""
        result = self.call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def until(self, condition: str) -> None:
        """Wait until a JavaScript condition holds in the page, checked at each frame the page draws."""
        self.js(
            "new Promise(function(ok){(function check(){if(" + condition + ")ok(true);"
            "else requestAnimationFrame(check);})();})"
        )

    def press(self, key: str) -> None:
        """A key pressed and released (``ArrowRight``), as the keyboard would send it."""
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=KEYS[key])

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except (AssertionError, OSError):
            pass
        self.proc.wait(timeout=LIMIT)
        os.close(self._out)
        os.close(self._in)
        self.profile.cleanup()

    def __enter__(self) -> Page:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _wait_for(self, event: str) -> None:
        while self._read().get("method") != event:
            pass

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self._buf:
            ready, _, _ = select.select([self._in], [], [], LIMIT)
            assert ready, f"Chromium said nothing for {LIMIT:.0f} s"
            chunk = os.read(self._in, 1 << 16)
            assert chunk, "Chromium closed its pipe"
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)


KEYS = {"ArrowLeft": 37, "ArrowRight": 39}


def _as_3_and_4(to_browser: int, from_browser: int) -> None:
    """In the browser's process: its pipe ends as descriptors 3 (commands in) and 4 (replies out)."""
    a, b = os.dup(to_browser), os.dup(from_browser)
    os.dup2(a, 3)
    os.dup2(b, 4)
    os.set_inheritable(3, True)
    os.set_inheritable(4, True)
