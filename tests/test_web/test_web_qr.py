"""The QR code and the LAN address it carries."""
import io
import ipaddress

from companion.web import qr


def test_lan_ip_is_an_ipv4_address():
    ip = qr.lan_ip()
    assert ipaddress.ip_address(ip).version == 4


def test_page_url():
    assert qr.page_url(8080, ip="192.168.0.9") == "http://192.168.0.9:8080/"
    assert qr.page_url(8080, host="10.0.0.5") == "http://10.0.0.5:8080/"
    assert qr.page_url(8080, host="0.0.0.0").startswith("http://")


def test_svg_and_terminal():
    assert qr.qr_svg("http://10.0.0.5:8080/").startswith("<svg")
    out = io.StringIO()
    qr.print_qr("http://10.0.0.5:8080/", out)
    assert "http://10.0.0.5:8080/" in out.getvalue() and len(out.getvalue().splitlines()) > 10
