// The replay policy: plays a given action list per task, one action per turn (an empty reply once the list is
// exhausted). Without a script it plays the env's reference solution: the first unlimited-horizon optimal
// action each turn, deterministically, as before budget-aware oracles (for BFCL, the ground truth).
//
// Script formats: a JSON object {"<task id>": ["Up", "Left", ...]}, or JSON Lines {"task": id, "actions": [...]}.
import { DataError, thrownMessage } from "../../core/errors.js";
import type { Policy } from "../../core/policy.js";
import { optimalActions } from "./oracle.js";

export type ReplayScript = ReadonlyMap<string, readonly string[]>;

export function parseReplayScript(text: string, source = "replay script"): ReplayScript {
  const trimmed = text.trim();
  const script = new Map<string, readonly string[]>();
  const addEntry = (task: unknown, actions: unknown, where: string): void => {
    if (typeof task !== "string" || !Array.isArray(actions) || !actions.every((action) => typeof action === "string")) {
      throw new DataError(`${source}, ${where}: expected a task id and a list of action strings`);
    }
    script.set(task, actions as string[]);
  };
  if (trimmed.startsWith("{") && !trimmed.includes("\n{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      throw new DataError(`${source}: not valid JSON (${thrownMessage(error)})`);
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
      throw new DataError(`${source}: expected a JSON object`);
    if ("task" in parsed && "actions" in parsed)
      addEntry((parsed as { task: unknown }).task, (parsed as { actions: unknown }).actions, "line 1");
    else for (const [task, actions] of Object.entries(parsed)) addEntry(task, actions, `task ${task}`);
    return script;
  }
  trimmed.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw new DataError(`${source}, line ${index + 1}: not valid JSON (${thrownMessage(error)})`);
    }
    const record = (parsed ?? {}) as { task?: unknown; actions?: unknown };
    addEntry(record.task, record.actions, `line ${index + 1}`);
  });
  return script;
}

export function replayPolicy(script?: ReplayScript): Policy {
  return {
    name: script === undefined ? "replay" : "replay:script",
    act: async (_conversation, context) => {
      if (script === undefined) {
        const optimal = optimalActions(context, "unbounded");
        return { message: context.privileged.toMessage(optimal[0] ?? "") };
      }
      const actions = script.get(context.taskId) ?? [];
      return { message: context.privileged.toMessage(actions[context.turn - 1] ?? "") };
    },
  };
}
