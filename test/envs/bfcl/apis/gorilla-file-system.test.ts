// GorillaFileSystem against upstream: every expected result string and state repr below was produced by CPython 3.11
// running upstream gorilla_file_system.py through execute_multi_turn_func_call on the same calls and scenario.
import { describe, expect, it } from "vitest";
import type { BfclConstants } from "../../../../src/envs/bfcl/apis/backend-class.js";
import { gorillaFileSystemClass } from "../../../../src/envs/bfcl/apis/gorilla-file-system.js";
import type { PyDict } from "../../../../src/envs/bfcl/py/value.js";
import { type Step, dataConstants, entryConfig, expectState, py, runSteps } from "./harness.js";
import { expectMatchesFuncDocs } from "./scenario-player.js";

const run = (scenario: PyDict, longContext: boolean, steps: readonly Step[], constants?: BfclConstants) =>
  runSteps(gorillaFileSystemClass, scenario, longContext, steps, constants);

describe("GorillaFileSystem", () => {
  it("has exactly the functions, parameters, required ones and defaults of func_doc/gorilla_file_system.json", () => {
    expectMatchesFuncDocs(gorillaFileSystemClass);
  });

  it("exposes upstream's public attributes in order: long_context, then root", () => {
    const instance = runSteps(gorillaFileSystemClass, new Map(), false, []);
    expect(instance.publicState().map(([name]) => name)).toEqual(["long_context", "root"]);
  });

  it("with long_context, extends file contents (except FILES_TAIL_USED) and populates directories without subdirectories", () => {
    // Test constants: FILE_CONTENT_EXTENSION " [padding]", FILES_TAIL_USED ["log.txt"], POPULATE_FILE_EXTENSION two names.
    const scenario = py(
      '{"root": {"home": {"type": "directory", "contents": {"a.txt": {"type": "file", "content": "A"}, "log.txt": {"type": "file", "content": "L"}, "sub": {"type": "directory", "contents": {}}}}}}',
    ) as PyDict;
    const instance = runSteps(gorillaFileSystemClass, scenario, true, [
      ["ls", "{}", '{"current_directory_content": ["a.txt", "log.txt", "sub"]}'],
      ["cat", '{"file_name": "a.txt"}', '{"file_content": "A [padding]"}'],
      ["cat", '{"file_name": "log.txt"}', '{"file_content": "L"}'],
      ["cd", '{"folder": "sub"}', '{"current_working_directory": "sub"}'],
      ["ls", "{}", '{"current_directory_content": ["filler_1.txt", "filler_2.txt"]}'],
    ]);
    expectState(instance, [
      ["long_context", "True"],
      [
        "root",
        "<Directory: home, Parent: None, Contents: {'a.txt': <<File: a.txt, Content: A [padding]>>, 'log.txt': <<File: log.txt, Content: L>>, 'sub': <Directory: sub, Parent: home, Contents: {'filler_1.txt': <<File: filler_1.txt, Content: >>, 'filler_2.txt': <<File: filler_2.txt, Content: >>}>}>",
      ],
    ]);
  });
  it("navigates one level at a time; pwd includes the root's name ('//' for the default root)", () => {
    const instance = run(py("{}") as PyDict, false, [
      ["pwd", "{}", '{"current_working_directory": "//"}'],
      ["ls", "{}", '{"current_directory_content": []}'],
      ["cd", '{"folder": ".."}', '{"error": "Current directory is already the root. Cannot go back."}'],
      ["cd", '{"folder": "/"}', '{"current_working_directory": "/"}'],
      ["cd", '{"folder": ""}', '{"current_working_directory": "/"}'],
      ["cd", '{"folder": "."}', '{"current_working_directory": "/"}'],
      ["mkdir", '{"dir_name": "a"}', "None"],
      ["mkdir", '{"dir_name": "a"}', `{"error": "mkdir: cannot create directory 'a': File exists"}`],
      ["mkdir", '{"dir_name": "b/c"}', `{"error": "mkdir: cannot create directory 'b/c': Invalid character"}`],
      ["mkdir", '{"dir_name": "x|y"}', `{"error": "mkdir: cannot create directory 'x|y': Invalid character"}`],
      ["touch", '{"file_name": ".hidden"}', "None"],
      ["touch", '{"file_name": "a"}', `{"error": "touch: cannot touch 'a': File exists"}`],
      ["touch", '{"file_name": "f*"}', `{"error": "touch: cannot touch 'f*': Invalid character"}`],
      ["ls", "{}", '{"current_directory_content": ["a"]}'],
      ["ls", '{"a": true}', '{"current_directory_content": ["a", ".hidden"]}'],
      ["cd", '{"folder": "a"}', '{"current_working_directory": "a"}'],
      ["pwd", "{}", '{"current_working_directory": "///a"}'],
      ["cd", '{"folder": ".."}', "{}"],
      ["cd", '{"folder": "a/"}', '{"current_working_directory": "a"}'],
      ["pwd", "{}", '{"current_working_directory": "///a"}'],
      [
        "cd",
        '{"folder": "../b"}',
        '{"error": "cd: ../b: Unsupported path. Only one folder level at a time is supported."}',
      ],
      ["cd", '{"folder": "nope"}', `{"error": "cd: 'nope': No such file or directory"}`],
      ["cd", '{"folder": ".hidden"}', `{"error": "cd: '.hidden': No such file or directory"}`],
      ["cd", '{"folder": 5}', "Error during execution: 'int' object has no attribute 'rstrip'"],
      ["mkdir", '{"dir_name": 5}', "Error during execution: argument of type 'int' is not iterable"],
      ["mkdir", '{"dir_name": ["x"]}', "Error during execution: unhashable type: 'list'"],
    ]);
    expectState(instance, [
      ["long_context", "False"],
      [
        "root",
        "<Directory: /, Parent: None, Contents: {'a': <Directory: a, Parent: /, Contents: {}>, '.hidden': <<File: .hidden, Content: >>}>",
      ],
    ]);
  });

  it("reads and writes files: echo, cat, wc, sort, grep, tail, diff", () => {
    const instance = run(
      py(
        '{"root": {"workspace": {"type": "directory", "contents": {"notes.txt": {"type": "file", "content": "b line\\na line\\nc line"}, "docs": {"type": "directory", "contents": {"report.md": {"type": "file", "content": "Report\\nTODO: finish\\n"}, "empty": {"type": "directory", "contents": {}}}}}}}}',
      ) as PyDict,
      false,
      [
        ["cat", '{"file_name": "notes.txt"}', '{"file_content": "b line\\na line\\nc line"}'],
        ["cat", '{"file_name": "docs"}', `{"error": "cat: 'docs': Is a directory"}`],
        ["cat", '{"file_name": "missing"}', `{"error": "cat: 'missing': No such file or directory"}`],
        ["cat", '{"file_name": "a:b"}', `{"error": "cat: 'a:b': Invalid character"}`],
        ["wc", '{"file_name": "notes.txt"}', '{"count": 3, "type": "lines"}'],
        ["wc", '{"file_name": "notes.txt", "mode": "w"}', '{"count": 6, "type": "words"}'],
        ["wc", '{"file_name": "notes.txt", "mode": "c"}', '{"count": 20, "type": "characters"}'],
        ["wc", '{"file_name": "notes.txt", "mode": "q"}', `{"error": "wc: invalid mode 'q'"}`],
        ["wc", '{"file_name": "docs"}', '{"error": "wc: docs: No such file or directory"}'],
        ["sort", '{"file_name": "notes.txt"}', '{"sorted_content": "a line\\nb line\\nc line"}'],
        ["sort", '{"file_name": "nope"}', '{"error": "sort: nope: No such file or directory"}'],
        ["grep", '{"file_name": "notes.txt", "pattern": "a"}', '{"matching_lines": ["a line"]}'],
        [
          "grep",
          '{"file_name": "notes.txt", "pattern": 1}',
          "Error during execution: 'in <string>' requires string as left operand, not int",
        ],
        ["grep", '{"file_name": "docs", "pattern": "x"}', '{"error": "grep: docs: No such file or directory"}'],
        ["tail", '{"file_name": "notes.txt"}', '{"last_lines": "b line\\na line\\nc line"}'],
        ["tail", '{"file_name": "notes.txt", "lines": 1}', '{"last_lines": "c line"}'],
        ["tail", '{"file_name": "notes.txt", "lines": 0}', '{"last_lines": "b line\\na line\\nc line"}'],
        ["tail", '{"file_name": "notes.txt", "lines": -1}', '{"last_lines": "a line\\nc line"}'],
        [
          "tail",
          '{"file_name": "notes.txt", "lines": 2.0}',
          "Error during execution: slice indices must be integers or None or have an __index__ method",
        ],
        [
          "tail",
          '{"file_name": "notes.txt", "lines": "2"}',
          "Error during execution: '>' not supported between instances of 'str' and 'int'",
        ],
        ["echo", '{"content": "hi"}', '{"terminal_output": "hi"}'],
        ["echo", '{"content": "hi", "file_name": ""}', '{"terminal_output": "hi"}'],
        [
          "echo",
          '{"content": "x", "file_name": "nofile"}',
          `{"error": "echo: cannot write to 'nofile': No such file"}`,
        ],
        [
          "echo",
          '{"content": "x", "file_name": "docs"}',
          "Error during execution: 'Directory' object has no attribute '_write'",
        ],
        ["echo", '{"content": "b line\\nA line\\nc line\\nd", "file_name": "notes.txt"}', "None"],
        ["touch", '{"file_name": "copy.txt"}', "None"],
        ["echo", '{"content": "b line\\na line\\nc line", "file_name": "copy.txt"}', "None"],
        ["diff", '{"file_name1": "notes.txt", "file_name2": "copy.txt"}', '{"diff_lines": "- A line\\n+ a line"}'],
        [
          "diff",
          '{"file_name1": "notes.txt", "file_name2": "zz"}',
          '{"error": "diff: notes.txt or zz: No such file or directory"}',
        ],
        ["echo", '{"content": 5, "file_name": "copy.txt"}', "None"],
        ["cat", '{"file_name": "copy.txt"}', '{"file_content": 5}'],
        ["wc", '{"file_name": "copy.txt", "mode": "c"}', "Error during execution: object of type 'int' has no len()"],
        ["tail", '{"file_name": "copy.txt"}', "Error during execution: 'int' object has no attribute 'splitlines'"],
        ["du", "{}", "Error during execution: 'int' object has no attribute 'encode'"],
      ],
    );
    expectState(instance, [
      ["long_context", "False"],
      [
        "root",
        "<Directory: workspace, Parent: None, Contents: {'notes.txt': <<File: notes.txt, Content: b line\nA line\nc line\nd>>, 'docs': <Directory: docs, Parent: workspace, Contents: {'report.md': <<File: report.md, Content: Report\nTODO: finish\n>>, 'empty': <Directory: empty, Parent: docs, Contents: {}>}>, 'copy.txt': <<File: copy.txt, Content: 5>>}>",
      ],
    ]);
  });

  it("moves, copies and removes within the current directory", () => {
    const instance = run(
      py(
        '{"root": {"workspace": {"type": "directory", "contents": {"notes.txt": {"type": "file", "content": "b line\\na line\\nc line"}, "docs": {"type": "directory", "contents": {"report.md": {"type": "file", "content": "Report\\nTODO: finish\\n"}, "empty": {"type": "directory", "contents": {}}}}}}}}',
      ) as PyDict,
      false,
      [
        [
          "cp",
          '{"source": "notes.txt", "destination": "docs"}',
          `{"result": "'notes.txt' copied to 'docs/notes.txt'"}`,
        ],
        [
          "cp",
          '{"source": "notes.txt", "destination": "docs"}',
          "Error during execution: File 'notes.txt' already exists in directory 'docs'.",
        ],
        ["cp", '{"source": "notes.txt", "destination": "n2.txt"}', `{"result": "'notes.txt' copied to 'n2.txt'"}`],
        [
          "cp",
          '{"source": "nope", "destination": "x"}',
          `{"error": "cp: cannot copy 'nope': No such file or directory"}`,
        ],
        [
          "cp",
          '{"source": "notes.txt", "destination": "x/y"}',
          '{"error": "cp: path not allowed in destination. Provide only a file or directory name."}',
        ],
        [
          "cp",
          '{"source": "notes.txt", "destination": "n2.txt"}',
          `{"error": "cp: cannot copy 'notes.txt' to 'n2.txt': Not a directory"}`,
        ],
        [
          "mv",
          '{"source": "n2.txt", "destination": "notes.txt"}',
          `{"error": "mv: cannot move 'n2.txt' to 'notes.txt': Not a directory"}`,
        ],
        ["mv", '{"source": "n2.txt", "destination": "docs"}', `{"result": "'n2.txt' moved to 'docs/n2.txt'"}`],
        [
          "mv",
          '{"source": "n2.txt", "destination": "n3.txt"}',
          `{"error": "mv: cannot move 'n2.txt': No such file or directory"}`,
        ],
        [
          "mv",
          '{"source": "ghost", "destination": "x"}',
          `{"error": "mv: cannot move 'ghost': No such file or directory"}`,
        ],
        [
          "mv",
          '{"source": "n3.txt", "destination": "a/b"}',
          `{"error": "mv: cannot move 'n3.txt': No such file or directory"}`,
        ],
        ["rm", '{"file_name": "n3.txt"}', `{"error": "rm: cannot remove 'n3.txt': No such file or directory"}`],
        ["rm", '{"file_name": "n3.txt"}', `{"error": "rm: cannot remove 'n3.txt': No such file or directory"}`],
        ["rmdir", '{"dir_name": "notes.txt"}', `{"error": "rmdir: cannot remove 'notes.txt': Not a directory"}`],
        ["rmdir", '{"dir_name": "docs"}', `{"error": "rmdir: cannot remove 'docs': Directory not empty"}`],
        ["rmdir", '{"dir_name": "zzz"}', `{"error": "rmdir: cannot remove 'zzz': No such file or directory"}`],
        ["cd", '{"folder": "docs"}', '{"current_working_directory": "docs"}'],
        ["rmdir", '{"dir_name": "empty"}', `{"result": "'empty' removed"}`],
        ["ls", "{}", '{"current_directory_content": ["report.md", "notes.txt", "n2.txt"]}'],
        ["cd", '{"folder": ".."}', "{}"],
        ["rm", '{"file_name": "docs"}', `{"result": "'docs' removed"}`],
        ["ls", "{}", '{"current_directory_content": ["notes.txt"]}'],
      ],
    );
    expectState(instance, [
      ["long_context", "False"],
      [
        "root",
        "<Directory: workspace, Parent: None, Contents: {'notes.txt': <<File: notes.txt, Content: b line\na line\nc line>>}>",
      ],
    ]);
  });

  it("finds by substring under a path and sizes the current directory", () => {
    const instance = run(
      py(
        '{"root": {"workspace": {"type": "directory", "contents": {"notes.txt": {"type": "file", "content": "b line\\na line\\nc line"}, "docs": {"type": "directory", "contents": {"report.md": {"type": "file", "content": "Report\\nTODO: finish\\n"}, "empty": {"type": "directory", "contents": {}}}}}}}}',
      ) as PyDict,
      false,
      [
        ["find", "{}", '{"matches": ["./notes.txt", "./docs", "./docs/report.md", "./docs/empty"]}'],
        ["find", '{"path": "/", "name": "re"}', '{"matches": ["/docs/report.md"]}'],
        ["find", '{"path": "docs"}', '{"matches": ["docs/report.md", "docs/empty"]}'],
        ["find", '{"name": "t"}', '{"matches": ["./notes.txt", "./docs/report.md", "./docs/empty"]}'],
        ["find", '{"path": "nope"}', `{"error": "find: 'nope': No such file or directory"}`],
        ["find", '{"path": "/workspace/docs/"}', `{"error": "find: '/workspace/docs/': No such file or directory"}`],
        ["find", '{"path": null}', "Error during execution: 'NoneType' object has no attribute 'rstrip'"],
        ["find", '{"name": 5}', "Error during execution: 'in <string>' requires string as left operand, not int"],
        ["du", "{}", '{"disk_usage": "40 bytes"}'],
        ["du", '{"human_readable": true}', '{"disk_usage": "40.00 B"}'],
        ["cd", '{"folder": "docs"}', '{"current_working_directory": "docs"}'],
        ["du", '{"human_readable": true}', '{"disk_usage": "20.00 B"}'],
        ["pwd", "{}", '{"current_working_directory": "/workspace/docs"}'],
      ],
    );
    expectState(instance, [
      ["long_context", "False"],
      [
        "root",
        "<Directory: workspace, Parent: None, Contents: {'notes.txt': <<File: notes.txt, Content: b line\na line\nc line>>, 'docs': <Directory: docs, Parent: workspace, Contents: {'report.md': <<File: report.md, Content: Report\nTODO: finish\n>>, 'empty': <Directory: empty, Parent: docs, Contents: {}>}>}>",
      ],
    ]);
  });

  it("keeps upstream's aliasing: a moved directory's children point at the old directory, copies share files", () => {
    const instance = run(py("{}") as PyDict, false, [
      ["mkdir", '{"dir_name": "p"}', "None"],
      ["cd", '{"folder": "p"}', '{"current_working_directory": "p"}'],
      ["mkdir", '{"dir_name": "c"}', "None"],
      ["cd", '{"folder": "c"}', '{"current_working_directory": "c"}'],
      ["touch", '{"file_name": "leaf"}', "None"],
      ["cd", '{"folder": ".."}', "{}"],
      ["cd", '{"folder": ".."}', "{}"],
      ["mkdir", '{"dir_name": "q"}', "None"],
      ["mv", '{"source": "p", "destination": "q"}', `{"result": "'p' moved to 'q/p'"}`],
      ["cd", '{"folder": "q"}', '{"current_working_directory": "q"}'],
      ["cd", '{"folder": "p"}', '{"current_working_directory": "p"}'],
      ["cd", '{"folder": "c"}', '{"current_working_directory": "c"}'],
      ["cd", '{"folder": ".."}', "{}"],
      ["touch", '{"file_name": "only_in_old"}', "None"],
      ["ls", "{}", '{"current_directory_content": ["c", "only_in_old"]}'],
      ["cd", '{"folder": ".."}', "{}"],
      ["pwd", "{}", '{"current_working_directory": "//"}'],
      ["cd", '{"folder": "q"}', '{"current_working_directory": "q"}'],
      ["cd", '{"folder": "p"}', '{"current_working_directory": "p"}'],
      ["ls", "{}", '{"current_directory_content": ["c", "only_in_old"]}'],
      ["cp", '{"source": "c", "destination": "c2"}', `{"result": "'c' copied to 'c2'"}`],
      ["cd", '{"folder": "c2"}', '{"current_working_directory": "c2"}'],
      ["echo", '{"content": "shared", "file_name": "leaf"}', "None"],
      ["cd", '{"folder": ".."}', "{}"],
      ["cd", '{"folder": "c"}', '{"current_working_directory": "c"}'],
      ["cat", '{"file_name": "leaf"}', '{"file_content": "shared"}'],
    ]);
    expectState(instance, [
      ["long_context", "False"],
      [
        "root",
        "<Directory: /, Parent: None, Contents: {'q': <Directory: q, Parent: /, Contents: {'p': <Directory: p, Parent: q, Contents: {'c': <Directory: c, Parent: p, Contents: {'leaf': <<File: leaf, Content: shared>>}>, 'only_in_old': <<File: only_in_old, Content: >>, 'c2': <Directory: c2, Parent: p, Contents: {'leaf': <<File: leaf, Content: shared>>}>}>}>}>",
      ],
    ]);
  });

  it("a directory copied into itself is cyclic: find hits Python's recursion limit", () => {
    const instance = run(py("{}") as PyDict, false, [
      ["mkdir", '{"dir_name": "a"}', "None"],
      ["cp", '{"source": "a", "destination": "a"}', `{"result": "'a' copied to 'a/a'"}`],
      ["find", "{}", "Error during execution: maximum recursion depth exceeded while calling a Python object"],
      ["touch", '{"file_name": "."}', "None"],
      ["cat", '{"file_name": "."}', `{"error": "cat: '.': Is a directory"}`],
      ["rm", '{"file_name": "."}', `{"result": "'.' removed"}`],
      ["ls", "{}", '{"current_directory_content": ["a"]}'],
    ]);
    expectState(instance, [
      ["long_context", "False"],
      [
        "root",
        "<Directory: /, Parent: None, Contents: {'a': <Directory: a, Parent: /, Contents: {'a': <Directory: a, Parent: a, Contents: {'a': <Directory: a, Parent: a, Contents: {...}>}>}>}>",
      ],
    ]);
  });

  it("replays the ground truth of multi_turn_base_0 on its scenario", () => {
    const instance = run(
      entryConfig("multi_turn_base_0", "GorillaFileSystem"),
      false,
      [
        ["ls", '{"a": true}', '{"current_directory_content": ["document", "archive"]}'],
        ["cd", '{"folder": "document"}', '{"current_working_directory": "document"}'],
        ["mkdir", '{"dir_name": "temp"}', "None"],
        [
          "mv",
          '{"source": "final_report.pdf", "destination": "temp"}',
          `{"result": "'final_report.pdf' moved to 'temp/final_report.pdf'"}`,
        ],
        ["cd", '{"folder": "temp"}', '{"current_working_directory": "temp"}'],
        [
          "grep",
          '{"file_name": "final_report.pdf", "pattern": "budget analysis"}',
          '{"matching_lines": ["Year2024 This is the final report content including budget analysis and other sections."]}',
        ],
        [
          "sort",
          '{"file_name": "final_report.pdf"}',
          '{"sorted_content": "Year2024 This is the final report content including budget analysis and other sections."}',
        ],
        ["cd", '{"folder": ".."}', "{}"],
        [
          "mv",
          '{"source": "previous_report.pdf", "destination": "temp"}',
          `{"result": "'previous_report.pdf' moved to 'temp/previous_report.pdf'"}`,
        ],
        ["cd", '{"folder": "temp"}', '{"current_working_directory": "temp"}'],
        [
          "diff",
          '{"file_name1": "final_report.pdf", "file_name2": "previous_report.pdf"}',
          '{"diff_lines": "- Year2024 This is the final report content including budget analysis and other sections.\\n+ Year203 This is the previous report content with different budget analysis."}',
        ],
      ],
      dataConstants(),
    );
    expectState(instance, [
      ["long_context", "False"],
      [
        "root",
        "<Directory: workspace, Parent: None, Contents: {'document': <Directory: document, Parent: workspace, Contents: {'temp': <Directory: temp, Parent: document, Contents: {'final_report.pdf': <<File: final_report.pdf, Content: Year2024 This is the final report content including budget analysis and other sections.>>, 'previous_report.pdf': <<File: previous_report.pdf, Content: Year203 This is the previous report content with different budget analysis.>>}>}>, 'archive': <Directory: archive, Parent: workspace, Contents: {}>}>",
      ],
    ]);
  });

  it("long context appends the file extension and fills bottom directories (multi_turn_long_context_0)", () => {
    run(
      entryConfig("multi_turn_long_context_0", "GorillaFileSystem"),
      true,
      [
        ["ls", "{}", '{"current_directory_content": ["document", "archive"]}'],
        ["cd", '{"folder": "document"}', '{"current_working_directory": "document"}'],
        [
          "ls",
          "{}",
          '{"current_directory_content": ["final_report.pdf", "previous_report.pdf", "image_344822349461074042.jpg", "image_8219547643081662353.jpg", "image_5421509146842474663.jpg", "image_185391401034246046.jpg", "image_6824007961180780019.jpg", "image_2994974694593273051.jpg", "image_2537728455072851196.jpg", "image_2164918946836800275.jpg", "image_1745133864906284051.jpg", "image_7707563551789432679.jpg", "image_8190489168166590809.jpg", "image_2385660725381355820.jpg", "image_4771211633166048374.jpg", "image_3443718094055823214.jpg", "image_6838087561356843690.jpg", "image_605952633285970710.jpg", "image_6341510244180179744.jpg", "image_4119241148692325954.jpg", "image_5651066601163181955.jpg", "image_3747091333751395055.jpg", "image_4623743619379194431.jpg", "image_5072742684386583099.jpg", "image_1978458056362464778.jpg", "image_3090346927968358019.jpg", "image_7193806748674265039.jpg", "image_7169516574395086720.jpg", "image_8618240224293913315.jpg", "image_5514683852355062444.jpg", "image_8749630317332649147.jpg", "image_1912245706439755759.jpg"]}',
        ],
        ["wc", '{"file_name": "final_report.pdf", "mode": "w"}', '{"count": 467, "type": "words"}'],
        ["du", '{"human_readable": true}', '{"disk_usage": "6.55 KB"}'],
      ],
      dataConstants(),
    );
  });
});
