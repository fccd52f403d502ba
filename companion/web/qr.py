"""The page's address as a QR code, with the Pi's LAN IP (phones resolve ``.local`` badly).

    >>> page_url(8000, ip="192.168.1.20")
    'http://192.168.1.20:8000/'
    >>> qr_svg("http://192.168.1.20:8000/").startswith("<svg")
    True
"""
from __future__ import annotations

import ipaddress
import socket
import sys
from typing import TextIO

import segno

# Never contacted: connecting a UDP socket only picks the route and the source address.
_PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")


def _usable(ip: str) -> bool:
    try:
        a = ipaddress.ip_address(ip)
    except ValueError:
        return False
    return a.version == 4 and not (a.is_loopback or a.is_unspecified or a.is_link_local)


def lan_ip() -> str:
    """The address other machines on the LAN reach this one at, found without the internet."""
    for probe in _PROBES:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.connect((probe, 9))
            ip = s.getsockname()[0]
            if _usable(ip):
                return ip
        except OSError:
            pass
        finally:
            s.close()
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    ips = [i[4][0] for i in infos if _usable(i[4][0])]
    private = [ip for ip in ips if ipaddress.ip_address(ip).is_private]
    return (private or ips or ["127.0.0.1"])[0]


def page_url(port: int, *, ip: str | None = None, host: str | None = None) -> str:
    """``http://IP:PORT/`` for the QR code; ``host`` is where the server listens."""
    if ip is None:
        specific = host and host not in ("0.0.0.0", "", "::")
        ip = host if specific else lan_ip()  # listening on one address: only that one works
    return f"http://{ip}:{int(port)}/"


def qr_svg(url: str, *, scale: int = 4) -> str:
    """The QR code as an inline ``<svg>`` (dark modules drawn with currentColor's opposite)."""
    return segno.make(url, error="m").svg_inline(scale=scale, dark="#000", light="#fff",
                                                  svgclass="qr", title=url)


def print_qr(url: str, out: TextIO | None = None) -> None:
    """Print the QR code and the address in the terminal, for phones to scan at start."""
    out = out or sys.stdout
    try:
        segno.make(url, error="m").terminal(out=out, compact=True)
    except UnicodeEncodeError:
        segno.make(url, error="m").terminal(out=out)
    print(f"Score page: {url}", file=out)
