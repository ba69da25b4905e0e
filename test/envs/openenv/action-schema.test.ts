import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../../src/core/json.js";
import { readActionSchema } from "../../../src/envs/openenv/action-schema.js";
import { readReply } from "../../../src/envs/openenv/replies.js";
import { wire } from "./fixtures.js";

// OpenEnv's grid world env's action, as pydantic writes it (an enum behind a $ref).
const gridWorld = {
  $defs: { MoveAction: { enum: ["UP", "DOWN", "LEFT", "RIGHT"], title: "MoveAction", type: "string" } },
  additionalProperties: false,
  properties: {
    metadata: { additionalProperties: true, type: "object" },
    action: { $ref: "#/$defs/MoveAction", description: "The direction to move the agent." },
  },
  required: ["action"],
  title: "GridWorldAction",
  type: "object",
};

describe("an OpenEnv server's action schema", () => {
  it("lists the finite actions of enums behind $refs, and validates replies against the schema", () => {
    const schema = readActionSchema(gridWorld);
    expect(schema.finite).toEqual(['{"action":"UP"}', '{"action":"DOWN"}', '{"action":"LEFT"}', '{"action":"RIGHT"}']);
    expect(schema.problem({ action: "UP" })).toBeUndefined();
    expect(schema.problem({ action: "NORTH" })).toMatch(/action/);
    expect(schema.problem({ action: "UP", extra: 1 })).toBeDefined();
    expect(schema.textField).toBeUndefined();
    expect(schema.mcp).toBe(false);
  });

  it("reads a reply as JSON (a fenced block too), refusing text that is no action", () => {
    const schema = readActionSchema(gridWorld);
    expect(readReply({ role: "assistant", content: '{"action": "LEFT"}' }, schema)).toEqual({
      ok: true,
      action: { action: "LEFT" },
      parsed: '{"action":"LEFT"}',
    });
    expect(readReply({ role: "assistant", content: '```json\n{"action":"UP"}\n```' }, schema).ok).toBe(true);
    expect(readReply({ role: "assistant", content: "go left" }, schema).ok).toBe(false);
    expect(readReply({ role: "assistant", content: '{"action": "NORTH"}' }, schema).ok).toBe(false);
  });

  it("fills the one text field with a plain reply (a message action)", () => {
    const text = (wire.messages["http.schema"] as { action: JsonObject }).action;
    const schema = readActionSchema(text);
    expect(schema.textField).toBe("message");
    expect(schema.finite).toEqual([]);
    expect(readReply({ role: "assistant", content: "<answer>7</answer>" }, schema)).toEqual({
      ok: true,
      action: { message: "<answer>7</answer>" },
      parsed: "<answer>7</answer>",
    });
  });

  it("maps one tool call to OpenEnv's CallToolAction, and refuses two for a server that takes one", () => {
    const schema = readActionSchema(wire.schemas["CallToolAction"] as JsonObject);
    expect(schema.mcp).toBe(true);
    const call = (id: string) => ({ id, name: "echo_message", arguments: '{"message": "hi"}' });
    expect(readReply({ role: "assistant", content: "", toolCalls: [call("a")] }, schema)).toMatchObject({
      ok: true,
      action: { type: "call_tool", tool_name: "echo_message", arguments: { message: "hi" } },
    });
    expect(readReply({ role: "assistant", content: "", toolCalls: [call("a"), call("b")] }, schema)).toEqual({
      ok: false,
      problem: "this env takes one tool call per step",
    });
  });
});
