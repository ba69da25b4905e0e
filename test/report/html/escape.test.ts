import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { breakAfterSlashes, escapeHtml, html, jsonForScript, slug } from "../../../src/report/html/escape.js";

describe("escaping for the HTML report", () => {
  it("escapes text for element content and quoted attributes", () => {
    expect(escapeHtml(`</script><img src=x onerror="alert('x')">&\``)).toBe(
      "&lt;/script&gt;&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;&#96;",
    );
  });

  it("escapes every interpolation of the html tag, and only those", () => {
    const inner = html`<b>${"<i>"}</b>`;
    expect(html`<p title="${'"x"'}">${"a<b"} ${3} ${inner} ${[inner, inner]} ${null}</p>`.html).toBe(
      '<p title="&quot;x&quot;">a&lt;b 3 <b>&lt;i&gt;</b> <b>&lt;i&gt;</b><b>&lt;i&gt;</b> </p>',
    );
  });

  it("gives JSON that cannot close its script element and reads back to the same value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, text) => {
        const hostile = { value, text: `${text}</script><!--\u2028\u2029&<>` };
        const encoded = jsonForScript(hostile);
        expect(encoded).not.toMatch(/[<>&\u2028\u2029]/);
        expect(JSON.parse(encoded)).toEqual(JSON.parse(JSON.stringify(hostile)));
      }),
    );
  });

  it("lets paths wrap after their slashes, still escaped", () => {
    expect(breakAfterSlashes("tiny:/tmp/rq/base").html).toBe("tiny:/<wbr>tmp/<wbr>rq/<wbr>base");
    expect(breakAfterSlashes("</script><b>").html).toBe("&lt;/<wbr>script&gt;&lt;b&gt;");
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(breakAfterSlashes(text).html.replaceAll("<wbr>", "")).toBe(escapeHtml(text));
      }),
    );
  });

  it("makes ids of names", () => {
    expect(slug("hanoi disks=4 randomStart=true")).toBe("hanoi-disks-4-randomstart-true");
    expect(slug("</script>")).toBe("script");
    expect(slug("***")).toBe("x");
  });
});
