// GorillaFileSystem (upstream gorilla_file_system.py): an in-memory Unix-like file tree with a current
// directory. Public state: long_context (bool) and root (a Directory; File/Directory objects compare by name
// and content/contents). Commands act on names in the current directory only (cd moves one level at a time;
// find takes a path). Result dicts and error texts are upstream's, including its quirks: pwd includes the root's
// name, cp's "File exists" check never fires (a clash raises "File 'x' already exists in directory 'd'."
// instead), tail with lines=0 returns the whole file.
import { publicAttributes, type InstanceVars } from "../py/attributes.js";
import { defineBfclClass } from "./backend-class.js";
import { fileMethods } from "./gorilla-file-system/files.js";
import type { GorillaFileSystemInstance } from "./gorilla-file-system/instance.js";
import { loadFileSystem } from "./gorilla-file-system/load.js";
import { moveMethods } from "./gorilla-file-system/moves.js";
import { navigationMethods } from "./gorilla-file-system/navigation.js";

export type { GorillaFileSystemInstance } from "./gorilla-file-system/instance.js";
export type { FsDirectory, FsFile } from "./gorilla-file-system/tree.js";

export const gorillaFileSystemClass = defineBfclClass<GorillaFileSystemInstance>({
  className: "GorillaFileSystem",
  moduleName: "gorilla_file_system",
  stateless: false,
  create(constants) {
    const vars: InstanceVars = new Map();
    const instance: GorillaFileSystemInstance = {
      vars,
      currentDir: undefined,
      loadScenario: (scenario, longContext) => loadFileSystem(instance, constants, scenario, longContext),
      publicState: () => publicAttributes(vars),
    };
    return instance;
  },
  methods: {
    pwd: navigationMethods.pwd,
    ls: navigationMethods.ls,
    cd: navigationMethods.cd,
    mkdir: fileMethods.mkdir,
    touch: fileMethods.touch,
    echo: fileMethods.echo,
    cat: fileMethods.cat,
    find: navigationMethods.find,
    wc: fileMethods.wc,
    sort: fileMethods.sort,
    grep: fileMethods.grep,
    du: navigationMethods.du,
    tail: fileMethods.tail,
    diff: fileMethods.diff,
    mv: moveMethods.mv,
    rm: moveMethods.rm,
    rmdir: moveMethods.rmdir,
    cp: moveMethods.cp,
  },
});
