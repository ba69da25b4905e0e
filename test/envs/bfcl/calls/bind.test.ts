// Expected messages printed by CPython 3.11 for the same calls on `class C: def f(self, a, b, c=1)`.
import { describe, expect, it } from "vitest";
import { bindArguments } from "../../../../src/envs/bfcl/calls/bind.js";
import { parseCall } from "../../../../src/envs/bfcl/calls/parse.js";
import { PyException } from "../../../../src/envs/bfcl/py/errors.js";

const f = [{ name: "a" }, { name: "b" }, { name: "c", default: 1 }];

function bindText(text: string, params = f): string {
  const verdict = parseCall(text);
  if (!verdict.valid) throw new Error(verdict.message);
  try {
    return [...bindArguments("C.f", params, verdict.call)].map(([key, value]) => `${key}=${String(value)}`).join(",");
  } catch (error) {
    if (error instanceof PyException) return `${error.pyType}: ${error.text}`;
    throw error;
  }
}

describe("bindArguments", () => {
  it("binds positional and keyword arguments and fills defaults", () => {
    expect(bindText("f(1, 2)")).toBe("a=1,b=2,c=1");
    expect(bindText("f(b=2, a=1, c=3)")).toBe("b=2,a=1,c=3");
  });

  it("raises CPython's TypeErrors word for word", () => {
    expect(bindText("f(1,2,3,4)")).toBe("TypeError: C.f() takes from 3 to 4 positional arguments but 5 were given");
    expect(bindText("f(1,d=2)")).toBe("TypeError: C.f() got an unexpected keyword argument 'd'");
    expect(bindText("f(1,a=2)")).toBe("TypeError: C.f() got multiple values for argument 'a'");
    expect(bindText("f()")).toBe("TypeError: C.f() missing 2 required positional arguments: 'a' and 'b'");
    expect(bindText("f(1)")).toBe("TypeError: C.f() missing 1 required positional argument: 'b'");
    expect(bindText("f(c=3)")).toBe("TypeError: C.f() missing 2 required positional arguments: 'a' and 'b'");
    expect(bindText("f(1,2,3,b=2)")).toBe("TypeError: C.f() got multiple values for argument 'b'");
    expect(bindText("f(1,2,3,4,x=1)")).toBe("TypeError: C.f() got an unexpected keyword argument 'x'");
    expect(bindText("f(1)", [])).toBe("TypeError: C.f() takes 1 positional argument but 2 were given");
    expect(bindText("f()", [{ name: "a" }, { name: "b" }, { name: "c" }])).toBe(
      "TypeError: C.f() missing 3 required positional arguments: 'a', 'b', and 'c'",
    );
  });
});
