"""An MCP client's session with d2s-mcp over stdio, through the `mcp` package from PyPI.

Usage: scenario.py REPORT SERVER ARGS...   (stdio; the password in D2S_PASSWORD)
       scenario.py REPORT http://HOST:PORT/-/mcp TOKEN   (Streamable HTTP, a bearer token)
Writes a JSON report of what the server answered; the Swift test asserts on it.
Every structured result is validated against its tool's outputSchema (jsonschema).
"""
import asyncio
import json
import os
import sys

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

# The web's suite's attack strings (D2STesting's InjectionStrings), handed over by the test.
INJECTIONS = json.loads(os.environ.get("D2S_INJECTIONS", "[]"))


async def main():
    report_path, command, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    report = {"schema_failures": [], "leaks": [], "injections": len(INJECTIONS)}
    if command.startswith("http"):
        client = create_mcp_http_client(headers={"Authorization": "Bearer " + args[0]})
        transport = streamable_http_client(command, http_client=client)
    else:
        params = StdioServerParameters(
            command=command, args=args,
            env={"D2S_PASSWORD": os.environ.get("D2S_PASSWORD", ""), "PATH": os.environ["PATH"]})
        transport = stdio_client(params)
    async with transport as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            report["tools"] = sorted(tools)
            report["entities_enum"] = tools["list"].input_schema["properties"]["entity"]["enum"]

            async def call(name, arguments):
                result = await session.call_tool(name, arguments)
                text = "".join(part.text for part in result.content if part.type == "text")
                structured = result.structured_content
                if not result.is_error:
                    try:
                        jsonschema.validate(structured, tools[name].output_schema)
                    except jsonschema.ValidationError as error:
                        report["schema_failures"].append(f"{name}: {error.message}")
                return {"error": result.is_error, "text": text, "structured": structured}

            report["entities"] = await call("entities", {})
            report["describe"] = await call("describe", {"entity": "Film"})
            # Paging by position to the end (bounded).
            rows, arguments, windows = 0, {"entity": "Film", "where": "rating = 'G'", "order": "title", "limit": 50}, 0
            while windows < 20:
                page = await call("list", arguments)
                windows += 1
                if page["error"]:
                    report["paging_error"] = page["text"]
                    break
                rows += len(page["structured"]["rows"])
                following = page["structured"].get("next")
                if not following:
                    break
                arguments = dict(arguments, after=following["after"], offset=following["offset"])
            report["paged_rows"], report["windows"] = rows, windows
            report["inspect"] = await call("inspect", {"entity": "Film", "key": 1})
            report["follow"] = await call("follow", {"entity": "Film", "key": 1, "relationship": "actors", "limit": 5})
            report["injected_row"] = await call("inspect", {"entity": "Film", "key": 2})
            report["stale_edit"] = await call("edit", {"entity": "Film", "key": 1, "values": {"length": 99}, "seen": {"length": 12345}})
            report["forbidden_edit"] = await call("edit", {"entity": "Actor", "key": 1, "values": {"firstName": "X"}, "seen": {"firstName": "PENELOPE"}})
            report["edit"] = await call("edit", {"entity": "Film", "key": 1, "values": {"length": 100}, "seen": {"length": 86}})
            report["key_edit"] = await call("edit", {"entity": "Film", "key": 1, "values": {"id": 5000}, "seen": {"length": 100}})
            report["proposal"] = await call("edit", {"entity": "Customer", "key": 1, "values": {"lastName": "SMYTHE"}, "seen": {"lastName": "SMITH"}})
            report["hidden_entity"] = await call("list", {"entity": "Payment"})
            try:
                report["why_not"] = await call("why_not", {"rule": "14", "entity": "Actor", "key": 2, "property": "firstName", "task": "edit"})
            except Exception as error:  # a tool this user is not given
                report["why_not"] = {"error": True, "text": str(error), "structured": None}
            # Every injection string through every argument of every tool.
            for name in ["describe", "list", "inspect", "follow", "edit", "new", "delete"]:
                for argument in ["entity", "where", "order", "key", "relationship", "after"]:
                    for injection in INJECTIONS:
                        arguments = {"entity": "Film", "key": 1, "relationship": "actors", "values": {"length": 90}, "seen": {"length": 1}}
                        arguments[argument] = injection
                        try:
                            answer = await call(name, arguments)
                        except Exception as error:  # a protocol error is an answer too
                            answer = {"error": True, "text": str(error), "structured": None}
                        lowered = answer["text"].lower()
                        if any(word in lowered and word not in injection.lower() for word in ["sqlite", "syntax error", "select ", "delete from", "drop table", "sqlstate"]):
                            report["leaks"].append(f"{name}.{argument}: {answer['text'][:200]}")
            report["after_injections"] = await call("list", {"entity": "Film", "limit": 1})
    with open(report_path, "w") as out:
        json.dump(report, out)


asyncio.run(main())
