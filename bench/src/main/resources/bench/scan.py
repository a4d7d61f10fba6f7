"""Peer scanner for `batchpipe bench`: reads JSON lines on stdin, json.loads each and counts the values
of two fields (level, status). Malformed lines are counted, not fatal. Prints
{"events", "malformed", "countBy": {...}} so the bench can check it did the same work."""
import json
import sys


def main():
    counts = {"level": {}, "status": {}}
    events = malformed = 0
    loads = json.loads
    for raw in sys.stdin.buffer:
        if raw == b"\n" or not raw:
            continue
        try:
            event = loads(raw)
        except ValueError:
            malformed += 1
            continue
        if not isinstance(event, dict):
            malformed += 1
            continue
        events += 1
        for field, table in counts.items():
            value = event.get(field)
            if value is not None:
                key = str(value)
                table[key] = table.get(key, 0) + 1
    print(json.dumps({"events": events, "malformed": malformed, "countBy": counts}))


if __name__ == "__main__":
    main()
