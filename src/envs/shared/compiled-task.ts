// The part of a compiled task (everything an env precomputes for one task, held by createTaskCache) that the grid
// and puzzle envs share: the task's id and two tables filled on first use, the text shown for each view slot (a
// cell, an oracle node) and the state key of each key slot, so that a rollout revisiting a state hashes and renders
// it once. A state key is hashHex("<task id>:<label>"), the label naming the state within its task.
import { hashHex } from "../../core/hash.js";

export interface CompiledTask {
  readonly taskId: string;
  /** View text per slot, filled on first use. */
  readonly views: (string | undefined)[];
  /** State key per slot, filled on first use. */
  readonly keys: (string | undefined)[];
}

/** Empty tables for a task with `viewSlots` view slots and `keySlots` key slots (0: grown as used). */
export function compiledTask(taskId: string, viewSlots = 0, keySlots = 0): CompiledTask {
  return { taskId, views: new Array(viewSlots), keys: new Array(keySlots) };
}

/** The state key of key slot `slot`: hashHex("<task id>:<label>"), computed once. */
export function slotKey(compiled: CompiledTask, slot: number, label: string | number = slot): string {
  return (compiled.keys[slot] ??= hashHex(`${compiled.taskId}:${label}`));
}

/** The view text of view slot `slot`, rendered once. */
export function slotView(compiled: CompiledTask, slot: number, render: () => string): string {
  return (compiled.views[slot] ??= render());
}
