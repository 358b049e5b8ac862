"""The terminal's guard while ``kifu record``'s app runs: if the app dies without closing (``kill -9``,
a crash of Python itself), it puts the terminal back as it was and says so in one line.

A full-screen app switches the terminal to raw mode, its alternate screen, mouse reports and
bracketed paste, and undoes it on the way out; a process killed outright undoes nothing, and the
shell is left with no echo on the app's last screen. So ``start`` runs this file as a small process
of its own (``python -I -S guard.py``: no site, no kifu, a few milliseconds), in a session of its
own (the terminal's signals and a kill of the app's process group do not reach it), reading a
pipe from the app: first a line with the terminal's settings before the app and the message to
print, then nothing until the app closes the pipe. A clean exit writes ``done`` first; a pipe
closed without it means the app is gone, and the guard restores the settings and the screen.
"""

from __future__ import annotations

import json
import os
import sys
import termios

RESTORE = (
    "\x1b[<u"  # the Kitty keyboard protocol off (before leaving the alternate screen)
    "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l"  # mouse reports off
    "\x1b[?2004l"  # bracketed paste off
    "\x1b[?1004l"  # focus reports off
    "\x1b[?2048l"  # in-band resize reports off
    "\x1b[?7h"  # line wrap on
    "\x1b[0m"  # colours and attributes reset
    "\x1b[?1049l"  # the main screen back
    "\x1b[?25h"  # the cursor shown
)
"""What Textual's driver turns on, turned off (its ``stop_application_mode``, and a little more)."""


class Guard:
    """The app's end of the pipe to its guard."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def release(self) -> None:
        """The app closed cleanly (Textual put the terminal back): the guard leaves it alone."""
        try:
            os.write(self.fd, b"done")
            os.close(self.fd)
        except OSError:
            pass


def start(message: str) -> Guard | None:
    """Start the guard of the terminal on stdin/stdout (None when they are not a terminal)."""
    import subprocess

    try:
        attrs = termios.tcgetattr(sys.stdin.fileno())
    except (termios.error, OSError, ValueError):
        return None
    attrs[6] = [c if isinstance(c, int) else ord(c) for c in attrs[6]]
    read, write = os.pipe()  # both not inherited, but for the guard's stdin
    try:
        subprocess.Popen(
            [sys.executable, "-I", "-S", __file__],
            stdin=read,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
    except OSError:
        os.close(write)
        return None
    finally:
        os.close(read)
    os.write(write, json.dumps({"attrs": attrs, "message": message}).encode("utf-8") + b"\n")
    return Guard(write)


def main() -> None:
    pipe = sys.stdin.buffer
    setup = json.loads(pipe.readline() or b"null")
    if not setup:
        return
    rest = pipe.read()  # until the app closes the pipe: at its exit, or when the system does for it
    if rest.strip() == b"done":
        return
    fd = sys.stdout.fileno()
    iflag, oflag, cflag, lflag, ispeed, ospeed, cc = setup["attrs"]
    try:
        termios.tcsetattr(fd, termios.TCSANOW, [iflag, oflag, cflag, lflag, ispeed, ospeed, cc])
    except termios.error:
        pass
    os.write(fd, (RESTORE + "\r\n" + setup["message"] + "\r\n").encode("utf-8"))


if __name__ == "__main__":
    try:
        main()
    except (OSError, ValueError, KeyError):
        pass  # the terminal is gone (a closed SSH session) or the app sent nothing: nothing to restore
