"""Club night: many tables, one standings page, through an MQTT broker.

Each table's Pi publishes its event log (`publisher.ClubPublisher`, the log is the outbox);
`companion club` runs the hub (`hub.Hub`): it keeps every table's events in its own SQLite, rebuilds
each game with the same referee, and serves the club's page (`page`). Topics and payloads are in
`messages`.
"""
