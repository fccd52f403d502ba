"""A Mosquitto of our own, for `companion demo --club` and the tests: on 127.0.0.1 and a free
port, with a generated config and its persistence in a folder of ours (Debian's ``mosquitto``)."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO = shutil.which("mosquitto") or next((p for p in ("/usr/sbin/mosquitto",) if os.path.exists(p)), None)
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd")


class BrokerError(RuntimeError):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalBroker:
    """Mosquitto on 127.0.0.1:``port`` keeping its state in ``folder``; ``users`` {name: password}
    and ``acl`` (an acl_file's text) turn anonymous access off; ``tls`` (CA, certificate, key files)
    makes it a TLS listener. ``start()``, ``stop()``; it can be started again on the same port and
    folder (a broker restart)."""

    def __init__(self, folder: str | Path, *, users: dict[str, str] | None = None, acl: str | None = None,
                 tls: tuple[str, str, str] | None = None):
        if MOSQUITTO is None:
            raise BrokerError("mosquitto is not installed (sudo apt install mosquitto), or give --broker HOST")
        self.folder, self.port = Path(folder), free_port()
        self.folder.mkdir(parents=True, exist_ok=True)
        lines = [f"listener {self.port} 127.0.0.1", "persistence true", f"persistence_location {self.folder}/",
                 "autosave_interval 1", "max_queued_messages 100000", "log_dest stderr"]
        if tls:
            lines += [f"cafile {tls[0]}", f"certfile {tls[1]}", f"keyfile {tls[2]}"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            lines.append("user root")              # keep its files ours (it would switch to "mosquitto")
        if users:
            if MOSQUITTO_PASSWD is None:
                raise BrokerError("mosquitto_passwd is not installed")
            pw = self.folder / "passwd"
            pw.write_text("")
            for name, secret in users.items():
                subprocess.run([MOSQUITTO_PASSWD, "-b", str(pw), name, secret], check=True, capture_output=True)
            lines += ["allow_anonymous false", f"password_file {pw}"]
        else:
            lines.append("allow_anonymous true")
        if acl:
            (self.folder / "acl").write_text(acl)
            lines.append(f"acl_file {self.folder / 'acl'}")
        self.conf = self.folder / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 10.0) -> "LocalBroker":
        with open(self.folder / "log.txt", "ab") as err:
            self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=err)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                if self.proc.poll() is not None:
                    raise BrokerError("mosquitto stopped at start: " + (self.folder / "log.txt").read_text()[-500:])
                time.sleep(0.05)
        self.stop()
        raise BrokerError(f"mosquitto did not listen on port {self.port} within {timeout:.0f} s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
