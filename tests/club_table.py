"""One table of a club test as its own process: plays a simulated game into ``--db`` (resuming
whatever the log holds already) and publishes it to the broker, as `companion run` does.

    python tests/club_table.py --db t.db --port 1883 --table t1 --seed 1 [--pace 0.01]

Prints ``played N`` as it goes and ``done`` once the broker has acknowledged every input."""
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from club_helpers import game_inputs  # noqa: E402

from companion.club.publisher import ClubPublisher  # noqa: E402
from companion.config import ClubConfig  # noqa: E402
from companion.table import Table  # noqa: E402


def main() -> int:
    import logging
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--table", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pace", type=float, default=0.01)
    a = ap.parse_args()
    inputs = game_inputs(a.seed, ["Ann", "Ben", "Cat"])
    table = Table(a.db)
    pub = ClubPublisher(table, ClubConfig(broker="127.0.0.1", club="test", table=a.table, port=a.port)).start()
    done = table.log.last_seq()                     # a restart goes on from the log
    for i, event in enumerate(inputs[done:], start=done + 1):
        table.submit(event, source="sim")
        print(f"played {i}", flush=True)
        time.sleep(a.pace)
    while pub.acked < table.log.last_seq():
        time.sleep(0.05)
    print("done", flush=True)
    pub.close()
    table.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
