"""One MQTT client made the same way for tables and the hub (paho-mqtt 2, MQTT 3.1.1)."""
from __future__ import annotations


def make_client(client_id: str, *, username: str = "", password: str = "", tls: bool = False, ca_file: str = "",
                clean: bool = True):
    """A paho client: logged in with ``username``/``password`` when given, TLS (against ``ca_file``
    or the system's CAs) when ``tls``, reconnecting by itself every 1 to 10 s. ``clean=False`` keeps
    the broker's session while away (the hub: QoS 1 messages wait for it)."""
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean,
                         protocol=mqtt.MQTTv311)
    if username:
        client.username_pw_set(username, password)
    if tls:
        client.tls_set(ca_certs=ca_file or None)
    client.reconnect_delay_set(min_delay=1, max_delay=10)
    client.max_inflight_messages_set(64)
    return client
