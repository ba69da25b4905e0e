#!/usr/bin/env python3
"""Writes test/envs/openenv/fixtures/wire.json: OpenEnv's wire format as OpenEnv's own pydantic types produce it, for
test/envs/openenv/wire.test.ts (budgetrl's readers take every message) and test/serve/openenv/conformance.test.ts
(every reply of `budgetrl env-server` validates against the JSON Schema of the OpenEnv type it stands for). An OpenEnv
protocol change regenerated here shows up as a failing test.

What produces what (nothing here is budgetrl's code):
  schemas     model_json_schema() of each type the server and clients exchange (openenv.core.env_server.types and
              mcp_types): the WebSocket messages and replies, the HTTP requests and responses, JSON-RPC, MCP tools
  messages    instances of those types, dumped as the server dumps them (model_dump_json, or serialize_observation
              for observations, and JsonRpcResponse's own model_dump), one per case: every WSErrorCode, every
              JsonRpcErrorCode, the MCP actions and observations, a typed text action
  error codes the WSErrorCode and JsonRpcErrorCode enums, as lists

Usage (OpenEnv's core needs fastapi, pydantic 2, websockets, fastmcp: `pip install fastapi uvicorn pydantic websockets
requests fastmcp httpx` from the machine's wheel index):
  git -C OPENENV_CLONE archive HEAD src | tar -x -C /tmp/openenv-src
  python3 scripts/openenv-wire-fixtures.py --src /tmp/openenv-src/src --commit $(git -C OPENENV_CLONE rev-parse HEAD)
"""

import argparse
import json
import os
import sys


def load(src):
    sys.path.insert(0, src)
    from openenv.core.env_server import mcp_types, serialization, types  # noqa: E402

    return types, mcp_types, serialization


def schemas(types, mcp):
    named = {
        "WSResetMessage": types.WSResetMessage,
        "WSStepMessage": types.WSStepMessage,
        "WSStateMessage": types.WSStateMessage,
        "WSCloseMessage": types.WSCloseMessage,
        "WSObservationResponse": types.WSObservationResponse,
        "WSStateResponse": types.WSStateResponse,
        "WSErrorResponse": types.WSErrorResponse,
        "WSMCPMessage": mcp.WSMCPMessage,
        "WSMCPResponse": mcp.WSMCPResponse,
        "ResetRequest": types.ResetRequest,
        "ResetResponse": types.ResetResponse,
        "StepRequest": types.StepRequest,
        "StepResponse": types.StepResponse,
        "State": types.State,
        "HealthResponse": types.HealthResponse,
        "EnvironmentMetadata": types.EnvironmentMetadata,
        "SchemaResponse": types.SchemaResponse,
        "JsonRpcRequest": mcp.JsonRpcRequest,
        "JsonRpcResponse": mcp.JsonRpcResponse,
        "Tool": mcp.Tool,
        "CallToolAction": mcp.CallToolAction,
        "ListToolsAction": mcp.ListToolsAction,
        "CallToolObservation": mcp.CallToolObservation,
        "ListToolsObservation": mcp.ListToolsObservation,
        "Action": types.Action,
        "Observation": types.Observation,
    }
    return {name: model.model_json_schema() for name, model in named.items()}


def messages(types, mcp, serialization):
    class TextAction(types.Action):
        message: str

    class TextObservation(types.Observation):
        text: str
        turn: int

    observation = TextObservation(text="Turn 1 of 5: 5 turns left.", turn=1, reward=0.0, done=False)
    tool = mcp.Tool(name="ls", description="List a folder.", input_schema={"type": "object", "properties": {}})
    dumped = lambda model: json.loads(model.model_dump_json())  # noqa: E731
    cases = {
        "ws.reset": dumped(types.WSResetMessage(data={"seed": 3, "episode_id": "run-1/7"})),
        "ws.reset.empty": dumped(types.WSResetMessage()),
        "ws.step": dumped(types.WSStepMessage(data={"message": "Up"})),
        "ws.state": dumped(types.WSStateMessage()),
        "ws.close": dumped(types.WSCloseMessage()),
        "ws.mcp": dumped(mcp.WSMCPMessage(data={"jsonrpc": "2.0", "method": "tools/list", "params": {}, "id": 1})),
        "ws.observation": dumped(types.WSObservationResponse(data=serialization.serialize_observation(observation))),
        "ws.state.reply": dumped(types.WSStateResponse(data=dumped(types.State(episode_id="e", step_count=2)))),
        "ws.mcp.reply": dumped(
            mcp.WSMCPResponse(data=mcp.JsonRpcResponse.success({"tools": [dumped(tool)]}, request_id=1).model_dump())
        ),
        "http.reset.request": dumped(types.ResetRequest(seed=3, episode_id="e")),
        "http.reset.response": dumped(types.ResetResponse(**serialization.serialize_observation(observation))),
        "http.step.request": dumped(types.StepRequest(action={"message": "Up"}, timeout_s=5.0)),
        "http.step.response": dumped(types.StepResponse(**serialization.serialize_observation(observation))),
        "http.health": dumped(types.HealthResponse()),
        "http.metadata": dumped(types.EnvironmentMetadata(name="echo", description="Echoes.", version="1.0.0")),
        "http.schema": dumped(
            types.SchemaResponse(
                action=TextAction.model_json_schema(),
                observation=TextObservation.model_json_schema(),
                state=types.State.model_json_schema(),
            )
        ),
        "action.text": dumped(TextAction(message="Up")),
        "action.call_tool": dumped(mcp.CallToolAction(tool_name="ls", arguments={"a": True})),
        "action.list_tools": dumped(mcp.ListToolsAction()),
        "observation.list_tools": serialization.serialize_observation(mcp.ListToolsObservation(tools=[tool])),
        "observation.call_tool": serialization.serialize_observation(
            mcp.CallToolObservation(tool_name="ls", result={"data": ["a.txt"]}, reward=0.0)
        ),
        "observation.call_tool.error": serialization.serialize_observation(
            mcp.CallToolObservation(
                tool_name="nope",
                error=mcp.ToolError(error_type=mcp.ToolErrorType.TOOL_NOT_FOUND, message="no tool nope"),
            )
        ),
        "jsonrpc.request": dumped(mcp.JsonRpcRequest(jsonrpc="2.0", method="tools/call", params={"name": "ls"}, id=2)),
        "jsonrpc.result": mcp.JsonRpcResponse.success({"content": []}, request_id=2).model_dump(),
    }
    for code in types.WSErrorCode:
        cases[f"ws.error.{code.value}"] = dumped(
            types.WSErrorResponse(data={"message": f"a {code.value}", "code": code.value})
        )
    for code in mcp.JsonRpcErrorCode:
        cases[f"jsonrpc.error.{code.name}"] = mcp.JsonRpcResponse.error_response(code, request_id=3).model_dump()
    return cases


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--src", required=True, help="OpenEnv's src folder (holding openenv/)")
    parser.add_argument("--commit", required=True, help="the OpenEnv commit the src folder is from")
    parser.add_argument("--out", default=os.path.join("test", "envs", "openenv", "fixtures", "wire.json"))
    args = parser.parse_args()
    types, mcp, serialization = load(args.src)
    out = {
        "source": f"meta-pytorch/OpenEnv@{args.commit}: scripts/openenv-wire-fixtures.py",
        "wsErrorCodes": [code.value for code in types.WSErrorCode],
        "jsonRpcErrorCodes": {code.name: code.value for code in mcp.JsonRpcErrorCode},
        "reservedToolNames": sorted(mcp.RESERVED_TOOL_NAMES),
        "schemas": schemas(types, mcp),
        "messages": messages(types, mcp, serialization),
    }
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as file:
        json.dump(out, file, indent=1, sort_keys=True)
        file.write("\n")
    print(f"wrote {args.out}: {len(out['schemas'])} schemas, {len(out['messages'])} messages")


if __name__ == "__main__":
    main()
