"""A typed LSP client (pygls + lsprotocol) against the real taskls binary.

Typed clients parse `ServerCapabilities` into lsprotocol's types and drop members they do not know; taskls
advertises its capabilities under `experimental.taskls` too, which they keep. This client checks that it finds
them there, that it can send `workDoneToken` (with `initialize` and with taskls requests) and gets `$/progress`
on it, and that the server's log reaches it as `window/logMessage`.

Usage: python3 lsprotocol_client.py TASKLS_BINARY STORE_DIRECTORY
Prints one line per check; exits 1 on the first failure.
"""

import asyncio
import sys

from lsprotocol import types
from pygls.lsp.client import BaseLanguageClient


def check(condition, what):
    if not condition:
        print(f"FAIL {what}", flush=True)
        sys.exit(1)
    print(f"ok   {what}", flush=True)


async def main(binary, store):
    client = BaseLanguageClient("taskls-typed-client", "1.0")
    progress = []
    logged = []

    @client.feature(types.PROGRESS)
    def on_progress(params):
        progress.append(params)

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def on_log(params):
        logged.append(params)

    await client.start_io(binary, "serve", "--store", store)
    result = await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(window=types.WindowClientCapabilities(work_done_progress=True)),
            process_id=None,
            trace=types.TraceValue.Messages,
            work_done_token="init-1",
        )
    )
    check(isinstance(result, types.InitializeResult), "initialize answers an lsprotocol InitializeResult")
    experimental = result.capabilities.experimental
    check(isinstance(experimental, dict) and "taskls" in experimental, "capabilities.experimental.taskls survives lsprotocol's parsing")
    taskls = experimental["taskls"]
    check(taskls.get("protocolVersion") == 1, "protocolVersion is 1")
    for method in ("lists/open", "items/create", "view/setWindow", "store/status"):
        check(method in taskls.get("requests", []), f"{method} is advertised")
    client.initialized(types.InitializedParams())

    kinds = [getattr(p.value, "kind", None) if not isinstance(p.value, dict) else p.value.get("kind") for p in progress if p.token == "init-1"]
    check(kinds[:1] == ["begin"] and kinds[-1:] == ["end"], f"$/progress on the initialize token: {kinds}")
    check(any("store: opened" in entry.message for entry in logged), "window/logMessage tells the store was opened")

    created = await client.protocol.send_request_async("lists/create", {"name": "Home", "workDoneToken": "create-1"})
    check(created.list.name == "Home", "a taskls request accepts a workDoneToken")
    pinged = await client.protocol.send_request_async("server/ping", {"workDoneToken": 7, "partialResultToken": "p"})
    check(pinged is not None, "server/ping accepts workDoneToken and partialResultToken")
    try:
        await client.protocol.send_request_async("server/ping", {"workDoneToken": [1]})
        check(False, "a workDoneToken that is an array is refused")
    except Exception as error:  # pygls raises JsonRpcException subclasses carrying the server's message
        check("params.workDoneToken" in str(error), f"a bad workDoneToken is refused naming it ({error})")

    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


asyncio.run(asyncio.wait_for(main(sys.argv[1], sys.argv[2]), timeout=30))
