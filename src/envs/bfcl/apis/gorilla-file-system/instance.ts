// A GorillaFileSystem instance: its public attributes (long_context, root) in upstream order, the private
// current directory, and the look-ups every command shares: the root and current directory, `name in
// current.contents` with Python's hashing rules, and upstream's forbidden-character check for new names.
import { attribute, type InstanceVars } from "../../py/attributes.js";
import { dictHas, pyContains } from "../../py/containers.js";
import { pyRaise } from "../../py/errors.js";
import type { PyValue } from "../../py/value.js";
import type { BfclInstance, MethodSpec } from "../backend-class.js";
import { isDirectory, type FsDirectory } from "./tree.js";

export const OWNER = "GorillaFileSystem";

export interface GorillaFileSystemInstance extends BfclInstance {
  /** long_context, root (vars() order after _load_scenario). */
  readonly vars: InstanceVars;
  /** Upstream's private _current_dir. */
  currentDir: FsDirectory | undefined;
}

export type FsMethod = MethodSpec<GorillaFileSystemInstance>;

export function rootOf(instance: GorillaFileSystemInstance): FsDirectory {
  const root = attribute(instance.vars, OWNER, "root");
  return isDirectory(root) ? root : pyRaise("AttributeError", `'${OWNER}' object has no attribute 'root'`);
}

export function currentOf(instance: GorillaFileSystemInstance): FsDirectory {
  return instance.currentDir ?? pyRaise("AttributeError", `'${OWNER}' object has no attribute '_current_dir'`);
}

/** `name in self._current_dir.contents`. */
export function inCurrent(instance: GorillaFileSystemInstance, name: PyValue): boolean {
  return dictHas(currentOf(instance).contents, name);
}

const FORBIDDEN = '|/\\?%*:"><';

/** Upstream _validate_file_or_directory_name: no character of |/\?%*:">< in the name. */
export function validName(name: PyValue): boolean {
  for (const char of FORBIDDEN) if (pyContains(name, char)) return false;
  return true;
}
