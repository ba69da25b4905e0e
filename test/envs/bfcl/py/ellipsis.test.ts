// The Ellipsis singleton and the data files' marker for it.
import { describe, expect, it } from "vitest";
import { fromEllipsisMarker, PY_ELLIPSIS } from "../../../../src/envs/bfcl/py/ellipsis.js";
import { pyRepr, resultString } from "../../../../src/envs/bfcl/py/format.js";

describe("Ellipsis", () => {
  it("prints as CPython does and replaces only the exact marker", () => {
    expect(pyRepr(["WL1", PY_ELLIPSIS])).toBe("['WL1', Ellipsis]");
    expect(resultString(new Map([["a", PY_ELLIPSIS]]))).toBe("{'a': Ellipsis}"); // json.dumps fails, str() is used
    expect(fromEllipsisMarker(new Map([["__python_ellipsis__", true]]))).toBe(PY_ELLIPSIS);
    expect(fromEllipsisMarker(new Map([["__python_ellipsis__", false]]))).not.toBe(PY_ELLIPSIS);
  });
});
