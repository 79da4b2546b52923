"""A real MCP client (the official Python SDK, `mcp`) against nofxi.

    python client.py stdio NOFXI_BINARY ARGS… # spawns `NOFXI_BINARY ARGS…` (the README's
                                              # mcpServers entry; NOFXI_HOME from the env)
    python client.py http URL TOKEN           # a running `nofxi serve`'s /mcp

What an agent does with nofxi, checked step by step: initialize, list the tools, create a
paper trader, start it, read its journal once the engine ran a cycle, stop it (confirmed), be refused a
delete without the confirmed second call, then delete with it; and a bad call is an isError
result with what to fix. Prints one line per step; exits non-zero on the first failure.
"""

import asyncio
import json
import os
import sys
import time

import httpx2
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

TRADER = "py-bot"


def check(ok, what, detail=""):
    if not ok:
        raise SystemExit(f"FAIL {what}: {detail}")
    print(f"ok   {what}")


def outcome(result):
    """The structured outcome nofxi returns with every tool result."""
    data = result.structured_content
    if data is None:
        data = json.loads(result.content[0].text)
    return data


async def call(session, name, args):
    result = await session.call_tool(name, args)
    return result, outcome(result)


async def journal_cycles(session):
    read = await session.read_resource(f"nofxi://traders/{TRADER}/journal")
    return json.loads(read.contents[0].text)["cycles"]


async def scenario(session):
    await session.initialize()
    tools = {t.name: t for t in (await session.list_tools()).tools}
    for name in ["trader_management_create", "trader_management_start",
                 "trader_management_delete", "nofxi_chat"]:
        check(name in tools, f"tool {name} listed")
    check(all(t.input_schema.get("type") == "object" for t in tools.values()),
          "every input schema is an object")
    delete = tools["trader_management_delete"]
    check(delete.annotations is not None and delete.annotations.destructive_hint,
          "delete is marked destructive")

    result, out = await call(session, "trader_management_create", {
        "name": TRADER, "exchange": "paper", "model": "builtin",
        "strategy": "default", "initial_balance": 1000})
    check(not result.is_error and out["status"] == "done", "create a paper trader", out)

    result, out = await call(session, "trader_management_start", {"target": TRADER})
    check(not result.is_error and out["status"] == "done", "start it", out)

    deadline = time.monotonic() + 60
    cycles = []
    while time.monotonic() < deadline and not cycles:
        cycles = await journal_cycles(session)
        if not cycles:
            await asyncio.sleep(0.5)
    check(len(cycles) >= 1, "its journal has a cycle", cycles)

    # Stopping a running trader is confirmed too (paper included).
    result, out = await call(session, "trader_management_stop", {"target": TRADER})
    check(not result.is_error and out["status"] == "confirmation_required"
          and out.get("pending_id"), "a stop first only asks", out)
    result, out = await call(session, "trader_management_stop",
                             {"target": TRADER, "confirm": out["pending_id"]})
    check(not result.is_error and out["status"] == "done", "stop it", out)

    result, out = await call(session, "trader_management_delete", {"target": TRADER})
    check(not result.is_error and out["status"] == "confirmation_required"
          and out.get("pending_id"), "a delete first only asks", out)
    pending = out["pending_id"]
    listed = json.loads((await session.read_resource("nofxi://traders")).contents[0].text)
    check(any(t["name"] == TRADER for t in listed), "the trader is still there", listed)

    result, out = await call(session, "trader_management_delete",
                             {"target": "someone-else", "confirm": pending})
    check(result.is_error and out["status"] == "failed", "the id confirms nothing else", out)

    result, out = await call(session, "trader_management_delete",
                             {"target": TRADER, "confirm": pending})
    check(not result.is_error and out["status"] == "done", "the confirmed call deletes", out)
    listed = json.loads((await session.read_resource("nofxi://traders")).contents[0].text)
    check(all(t["name"] != TRADER for t in listed), "the trader is gone", listed)

    result, out = await call(session, "trader_management_create", {"name": "x", "colour": "red"})
    check(result.is_error and "colour" in out["reply"], "a bad call names the field", out)


async def main():
    mode = sys.argv[1]
    if mode == "stdio":
        # The SDK passes a server only a few variables of its own environment: the data
        # directory and the vault key are passed on by name.
        env = {k: v for k, v in os.environ.items() if k.startswith("NOFXI_")}
        params = StdioServerParameters(
            command=sys.argv[2], args=sys.argv[3:], env=env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await scenario(session)
    elif mode == "http":
        url, token = sys.argv[2], sys.argv[3]
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
            async with streamable_http_client(url, http_client=http) as streams:
                read, write = streams[0], streams[1]
                async with ClientSession(read, write) as session:
                    await scenario(session)
    else:
        raise SystemExit(f"unknown mode {mode!r}: stdio or http")
    print("PASS")


asyncio.run(main())
