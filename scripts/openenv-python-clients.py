#!/usr/bin/env python3
"""OpenEnv's own Python clients against `budgetrl env-server`: GenericEnvClient over the WebSocket plays full episodes
of vault and thinice, and MCPToolClient (OpenEnv's MCP client) full episodes of bfcl, each with budgets set through
reset (budget, budget_mode). Prints one line per episode and exits 0 when every check held. Not part of `npm test`
(OpenEnv's client needs Python packages CI does not install); the wire format is pinned there by the fixtures of
scripts/openenv-wire-fixtures.py.

Usage (after `npm run build`; OpenEnv's deps from the machine's wheel index: `pip install fastapi uvicorn pydantic
websockets requests fastmcp httpx`):
  git -C OPENENV_CLONE archive HEAD src | tar -x -C /tmp/openenv-src
  python3 scripts/openenv-python-clients.py --openenv-src /tmp/openenv-src/src
"""

import argparse
import asyncio
import json
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(env, extra):
    port = free_port()
    process = subprocess.Popen(
        ["node", "dist/cli/main.js", "env-server", "--env", env, "--port", str(port), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(f"{url}/health", timeout=1).read()
            return process, url
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit(f"env-server --env {env} did not start")


def check(condition, what):
    if not condition:
        raise SystemExit(f"FAILED: {what}")


async def text_episodes(GenericEnvClient, url, env, budgets):
    rng = random.Random(7)
    async with GenericEnvClient(base_url=url) as client:
        for task, (budget, mode) in enumerate(budgets):
            result = await client.reset(task=task, seed=task, budget=budget, budget_mode=mode, episode_id=f"py/{env}-{task}")
            obs = result.observation
            check(obs["budget"]["label"] == budget and obs["budget"]["mode"] == mode, f"{env}: the reset's budget is used")
            check((obs["turns_left"] is None) == (mode == "hidden"), f"{env}: turns_left hidden only when the budget is")
            steps, turns = 0, obs["turns_left"]
            while not result.done:
                result = await client.step({"message": rng.choice(obs["valid_actions"])})
                obs = result.observation
                steps += 1
            state = await client.state()
            check(state["step_count"] == steps and state["done"], f"{env}: state counts the steps")
            meta = obs["metadata"]
            print(f"GenericEnvClient {env} task {task} budget {budget} {mode}: {steps} steps, {meta['stop_reason']}, reward {result.reward}")
            if meta["stop_reason"] == "max_turns" and turns is not None:
                check(steps == turns, f"{env}: a budget of {turns} turns cuts at {turns}")


async def bfcl_episodes(MCPToolClient, Action, CallToolAction, url):
    class MessageAction(Action):
        message: str

    async with MCPToolClient(base_url=url) as client:
        for task, budget in enumerate(["6", "50%"]):
            result = await client.reset(task=task, budget=budget, budget_scope="user-turn")
            tools = await client.list_tools(use_cache=False)
            check(len(tools) > 0, "bfcl: tools/list gives the entry's functions")
            output = await client.call_tool(tools[0].name)
            check(isinstance(output, str), "bfcl: call_tool returns the tool's output")
            steps, calls = 1, 1
            while not result.done:
                if steps % 2 == 0:
                    result = await client.step(CallToolAction(tool_name=tools[steps % len(tools)].name, arguments={}))
                    calls += 1
                else:
                    result = await client.step(MessageAction(message="Done."))
                steps += 1
            state = await client.state()
            check(state.step_count == steps, "bfcl: state counts the steps (list_tools costs none)")
            print(f"MCPToolClient bfcl task {task} budget {budget} per user turn: {steps} steps ({calls} tool calls), done, reward {result.reward}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--openenv-src", required=True, help="OpenEnv's src folder (holding openenv/)")
    args = parser.parse_args()
    sys.path.insert(0, args.openenv_src)
    from openenv.core.env_server.mcp_types import CallToolAction
    from openenv.core.env_server.types import Action
    from openenv.core.generic_client import GenericEnvClient
    from openenv.core.mcp_client import MCPToolClient

    servers = []
    try:
        for env, extra in [("vault", []), ("thinice", []), ("bfcl", ["--env-opt", "categories=base"])]:
            servers.append(start_server(env, extra))
        (_, vault), (_, thinice), (_, bfcl) = servers
        budgets = [("7", "announced"), ("50%", "remaining"), ("1.5x", "hidden"), ("3", "announced")]
        asyncio.run(text_episodes(GenericEnvClient, vault, "vault", budgets))
        asyncio.run(text_episodes(GenericEnvClient, thinice, "thinice", budgets))
        asyncio.run(bfcl_episodes(MCPToolClient, Action, CallToolAction, bfcl))
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait()
    print("all checks held")


if __name__ == "__main__":
    main()
