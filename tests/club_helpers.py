"""A real Mosquitto for the club tests, on a free port with a generated config, and the inputs of
simulated games for the tables to play."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO = shutil.which("mosquitto") or next((p for p in ("/usr/sbin/mosquitto",) if os.path.exists(p)), None)
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    """Mosquitto on 127.0.0.1:``port`` with persistence in ``folder``; ``users`` {name: password}
    and ``acl`` text turn anonymous access off."""

    def __init__(self, folder: Path, *, users: dict[str, str] | None = None, acl: str | None = None):
        self.folder, self.port = Path(folder), free_port()
        self.folder.mkdir(parents=True, exist_ok=True)
        lines = [f"listener {self.port} 127.0.0.1", "persistence true", f"persistence_location {self.folder}/",
                 "autosave_interval 1", "max_queued_messages 100000", "log_dest stderr"]
        if os.geteuid() == 0:
            lines.append("user root")
        if users:
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

    def start(self) -> "Broker":
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=open(self.folder / "log.txt", "ab"))
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError((self.folder / "log.txt").read_text())
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None


def game_inputs(seed: int, players: list[str], target: int = 150) -> list[dict]:
    """The inputs of one whole simulated game to ``target`` points (setup first)."""
    from referee_sim import play_game
    t = play_game(seed, players, {"target_score": target}, check=False, mistakes=0.02)
    return list(t.inputs)


def wait_for(cond, timeout: float = 30.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or cond}")
        time.sleep(0.05)
