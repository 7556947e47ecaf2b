#!/usr/bin/env python3
"""One round of the store soak (scripts/soak-store.sh): reopen the store and check what the last round
expected of it, then run the server under pipelined random mutations and kill it with SIGKILL at a random
moment, and write down what the next round must find.

    soak-store-driver.py round   --taskls PATH --store DIR --expect FILE --seed N [--max-kill-ms MS]
    soak-store-driver.py verify  --taskls PATH --store DIR --expect FILE

What must be found after a crash: every acknowledged mutation, and of the unacknowledged ones only what
they would have done (an unacknowledged create may or may not be there; a field updated without
acknowledgement holds its last acknowledged value or one of the values sent after it).

Exit status: 0 on success, 1 when the store lost or invented something (the message says what), 2 on a
usage or harness problem. Every wait is bounded, so a round always ends.
"""

import argparse
import json
import os
import random
import select
import signal
import subprocess
import sys
import time

PATIENCE = 30.0  # seconds to wait for one answer of a healthy server
MAX_ITEMS = 250  # deletions outweigh creations above this, so the store stays small enough to read back
LISTS = 3


class Failure(Exception):
    """The store did not hold what it acknowledged (exit 1)."""


class Server:
    """A `taskls serve --store DIR` child with LSP framing over pipes."""

    def __init__(self, taskls, store, compact_after, stderr_path):
        self.stderr = open(stderr_path, "ab")
        self.process = subprocess.Popen(
            [taskls, "serve", "--store", store, "--compact-after", str(compact_after)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr)
        self.buffer = b""
        self.ended = False
        self.next_id = 0

    def request(self, method, params=None):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        return message

    def send(self, messages):
        data = b""
        for message in messages:
            body = json.dumps(message, separators=(",", ":")).encode()
            data += b"Content-Length: %d\r\n\r\n" % len(body) + body
        try:
            self.process.stdin.write(data)
            self.process.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def _parse(self):
        messages = []
        while True:
            head, separator, rest = self.buffer.partition(b"\r\n\r\n")
            if not separator:
                return messages
            length = None
            for line in head.split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            if length is None or len(rest) < length:
                return messages
            messages.append(json.loads(rest[:length]))
            self.buffer = rest[length:]

    def read(self, until):
        """Messages that arrive before the monotonic time `until` (at least one read is tried)."""
        if self.ended:
            return []
        remaining = max(0.0, until - time.monotonic())
        ready, _, _ = select.select([self.process.stdout], [], [], remaining)
        if not ready:
            return []
        data = os.read(self.process.stdout.fileno(), 1 << 16)
        if not data:
            self.ended = True
            return []
        self.buffer += data
        return self._parse()

    def drain(self):
        """Everything the (dead) process wrote before it died; a frame cut short is dropped."""
        messages = []
        deadline = time.monotonic() + PATIENCE
        while not self.ended and time.monotonic() < deadline:
            messages += self.read(deadline)
        return messages

    def call(self, method, params=None):
        message = self.request(method, params)
        if not self.send([message]):
            raise Failure(f"{method}: the server closed its input")
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline and not self.ended:
            for answer in self.read(deadline):
                if answer.get("id") == message["id"]:
                    return answer
        raise Failure(f"{method}: no answer within {PATIENCE} s")

    def await_notification(self, method, predicate):
        """Reads until a `method` notification that satisfies `predicate` arrives; returns its params."""
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline and not self.ended:
            for message in self.read(deadline):
                if message.get("method") == method and predicate(message.get("params", {})):
                    return message["params"]
        raise Failure(f"no {method} notification within {PATIENCE} s")

    def await_store(self):
        """Returns once the store is ready: a store over 1 MiB is read off the message loop after `initialize`
        (protocol.md, Loading), and the overview a client watches says so with `lists/changed`."""
        overview = result(self.call("lists/list", {"watch": True}), "lists/list")
        state = overview.get("store", {}).get("state")
        if state == "loading":
            overview = self.await_notification("lists/changed", lambda params: params.get("store", {}).get("state") != "loading")
            state = overview.get("store", {}).get("state")
        if state is not None:
            raise Failure(f"the store did not open: {json.dumps(overview)}")
        result(self.call("lists/list", {"watch": False}), "lists/list")

    def kill(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=PATIENCE)

    def close(self):
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            self.kill()
        self.stderr.close()


def result(answer, what):
    if "result" not in answer:
        raise Failure(f"{what} was refused: {json.dumps(answer)}")
    return answer["result"]


def observe(server):
    """Every list id and every item as {id: {title, done, list}}, read through the protocol."""
    overview = result(server.call("lists/list"), "lists/list")
    lists = [entry["id"] for entry in overview["lists"]]
    items = {}
    for list_id in lists:
        view = result(server.call("lists/open", {"list": list_id, "window": {"start": 0, "end": 1000}}), "lists/open")
        if view["count"] > 1000:
            raise Failure(f"list {list_id} holds {view['count']} items, more than the soak ever keeps")
        for row in view["rows"]:
            if row["kind"] == "item":
                items[row["id"]] = {"title": row["title"], "done": row["done"], "list": row["list"]}
        result(server.call("view/close", {"view": view["view"]}), "view/close")
    return lists, items


def check(expected, lists, items):
    """Raises Failure unless the observed store is one the last round's acknowledgements allow."""
    problems = []
    for list_id in expected["lists"]:
        if list_id not in lists:
            problems.append(f"acknowledged list {list_id} is missing")
    for item_id, rule in expected["items"].items():
        present = item_id in items
        if rule["must"] == "exist" and not present:
            problems.append(f"acknowledged item {item_id} is missing")
        elif rule["must"] == "absent" and present:
            problems.append(f"item {item_id}, whose deletion was acknowledged, is back")
        if present:
            for field, allowed in rule["fields"].items():
                if items[item_id][field] not in allowed:
                    problems.append(f"item {item_id}: {field} is {items[item_id][field]!r}, expected one of {allowed!r}")
    maybe = expected["maybe"]
    for item_id, item in items.items():
        if item_id in expected["items"]:
            continue
        created = maybe.get(item["title"])
        if created is None or created != item["list"] or item["done"]:
            problems.append(f"item {item_id} {item!r} was never created")
    if problems:
        raise Failure("; ".join(problems[:20]) + (f" (and {len(problems) - 20} more)" if len(problems) > 20 else ""))


class Model:
    """What this round knows is in the store, and every mutation it sent, in order, with its fate."""

    def __init__(self, lists, items, rng, round_number):
        self.lists = list(lists)
        self.items = {item_id: dict(item) for item_id, item in items.items()}
        # Per item: its value before this round (or at its acknowledged creation), then every update sent.
        self.history = {item_id: {field: [(value, True)] for field, value in item.items()} for item_id, item in items.items()}
        self.deleted = {}  # item id -> whether the deletion was acknowledged
        self.targetable = set(items)
        self.sent = {}  # request id -> what it did
        self.maybe = {}  # title of an unacknowledged creation -> its list
        self.acknowledged_lists = list(lists)
        self.rng = rng
        self.round = round_number
        self.counter = 0

    def token(self):
        self.counter += 1
        return f"r{self.round}-{self.counter}"

    def mutation(self, server):
        """The next random mutation, or None when nothing can be sent before earlier answers arrive."""
        rng = self.rng
        pending_lists = sum(1 for op in self.sent.values() if op["kind"] == "list" and not op["done"])
        if len(self.lists) + pending_lists < LISTS:
            message = server.request("lists/create", {"name": self.token()})
            self.sent[message["id"]] = {"kind": "list", "done": False}
            return message
        if not self.lists:
            return None
        choices = ["create"] * 4 + ["title", "done", "move"] * 2 + ["delete"] * 2
        if len(self.targetable) > MAX_ITEMS:
            choices += ["delete"] * 12
        kind = rng.choice(choices) if self.targetable else "create"
        if kind == "create":
            title = self.token()
            list_id = rng.choice(self.lists)
            params = {"list": list_id, "title": title}
            if rng.random() < 0.2:
                params["notes"] = "n" * rng.randrange(0, 4000)
            message = server.request("items/create", params)
            self.sent[message["id"]] = {"kind": "create", "title": title, "list": list_id, "done": False}
            self.maybe[title] = list_id
            return message
        item_id = rng.choice(sorted(self.targetable))
        if kind == "delete":
            self.targetable.discard(item_id)
            self.deleted[item_id] = False
            message = server.request("items/delete", {"ids": [item_id]})
            self.sent[message["id"]] = {"kind": "delete", "item": item_id, "done": False}
            return message
        if kind == "title":
            field, value = "title", self.token()
            message = server.request("items/update", {"id": item_id, "title": value})
        elif kind == "done":
            field, value = "done", rng.random() < 0.5
            message = server.request("items/update", {"id": item_id, "done": value})
        else:
            field, value = "list", rng.choice(self.lists)
            message = server.request("items/move", {"ids": [item_id], "before": None, "list": value})
        history = self.history[item_id][field]
        history.append((value, False))
        self.sent[message["id"]] = {"kind": "field", "item": item_id, "field": field, "index": len(history) - 1, "done": False}
        return message

    def acknowledge(self, answer):
        op = self.sent.get(answer.get("id"))
        if op is None:
            return
        if "result" not in answer:
            raise Failure(f"a mutation was refused: {json.dumps(answer)}")
        op["done"] = True
        if op["kind"] == "list":
            list_id = answer["result"]["list"]["id"]
            self.lists.append(list_id)
            self.acknowledged_lists.append(list_id)
        elif op["kind"] == "create":
            item_id = answer["result"]["item"]["id"]
            del self.maybe[op["title"]]
            self.items[item_id] = {"title": op["title"], "done": False, "list": op["list"]}
            self.history[item_id] = {"title": [(op["title"], True)], "done": [(False, True)], "list": [(op["list"], True)]}
            self.targetable.add(item_id)
        elif op["kind"] == "delete":
            self.deleted[op["item"]] = True
        else:
            history = self.history[op["item"]][op["field"]]
            history[op["index"]] = (history[op["index"]][0], True)

    def expectations(self):
        rules = {}
        for item_id, fields in self.history.items():
            must = "exist"
            if item_id in self.deleted:
                must = "absent" if self.deleted[item_id] else "either"
            allowed = {}
            for field, history in fields.items():
                last = max(index for index, (_, acknowledged) in enumerate(history) if acknowledged)
                allowed[field] = [value for value, _ in history[last:]]
            rules[item_id] = {"must": must, "fields": allowed}
        return {"lists": self.acknowledged_lists, "items": rules, "maybe": self.maybe}


def reopen_and_check(arguments, compact_after):
    """Opens the store, checks the expectations file against it; returns the server and what it holds."""
    server = Server(arguments.taskls, arguments.store, compact_after, arguments.store + ".stderr")
    result(server.call("initialize", {"processId": None}), "initialize")
    server.send([{"jsonrpc": "2.0", "method": "initialized", "params": {}}])
    server.await_store()
    lists, items = observe(server)
    if os.path.exists(arguments.expect):
        with open(arguments.expect) as file:
            check(json.load(file), lists, items)
    return server, lists, items


def load_until_killed(server, model, kill_at):
    """Pipelined random batches until `kill_at`; then SIGKILL and whatever the server wrote before it."""
    while time.monotonic() < kill_at and not server.ended:
        batch = []
        for _ in range(model.rng.randrange(1, 9)):
            message = model.mutation(server)
            if message is None:
                break
            batch.append(message)
        if not batch or not server.send(batch):
            break
        waiting = {message["id"] for message in batch}
        while waiting and time.monotonic() < kill_at and not server.ended:
            for answer in server.read(kill_at):
                model.acknowledge(answer)
                waiting.discard(answer.get("id"))
    server.kill()
    for answer in server.drain():
        model.acknowledge(answer)
    server.stderr.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["round", "verify"])
    parser.add_argument("--taskls", required=True)
    parser.add_argument("--store", required=True)
    parser.add_argument("--expect", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-kill-ms", type=int, default=400)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    compact_after = rng.choice([0, 4096, 65536, 8 << 20])
    try:
        server, lists, items = reopen_and_check(arguments, compact_after)
        if arguments.command == "verify":
            server.close()
            print(f"verified: {len(lists)} lists, {len(items)} items")
            return 0
        model = Model(lists, items, rng, arguments.seed)
        load_until_killed(server, model, time.monotonic() + rng.uniform(0, arguments.max_kill_ms / 1000))
        with open(arguments.expect + ".new", "w") as file:
            json.dump(model.expectations(), file)
        os.replace(arguments.expect + ".new", arguments.expect)
        acknowledged = sum(1 for op in model.sent.values() if op["done"])
        print(f"found {len(items)} items as expected; sent {len(model.sent)} mutations, {acknowledged} acknowledged "
              f"(--compact-after {compact_after})")
        return 0
    except Failure as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    except (OSError, ValueError, KeyError, subprocess.TimeoutExpired) as problem:
        print(f"harness error: {problem!r}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
