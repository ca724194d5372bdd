import { describe, expect, it } from "vitest";
import {
  escapeHtml,
  placeholderSrc,
  renderAttributes,
  scriptJson,
} from "../../server/http/rendering/html.ts";

describe("HTML helpers", () => {
  it("escape text for element content and attribute values", () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;",
    );
  });

  it("write attributes, leaving out absent ones and writing empty ones bare", () => {
    expect(
      renderAttributes({
        id: "a",
        "data-val": "true",
        hidden: true,
        title: undefined,
        open: false,
        "data-x": "",
      }),
    ).toBe(' id="a" data-val="true" hidden data-x');
    expect(renderAttributes({ "data-msg": `Vul "iets" in <nu>` })).toBe(
      ' data-msg="Vul &quot;iets&quot; in &lt;nu&gt;"',
    );
  });

  it("write JSON that cannot end its script element early", () => {
    const json = scriptJson({ text: "</script><script>alert(1)</script><!--" });
    expect(json).not.toContain("</script");
    expect(json).not.toContain("<!--");
    expect(JSON.parse(json)).toEqual({ text: "</script><script>alert(1)</script><!--" });
  });
});

describe("an image's placeholder", () => {
  it("is an empty SVG of the image's size, so the image keeps its shape before it loads", () => {
    const src = placeholderSrc(400, 300);
    expect(src).toMatch(/^data:image\/svg\+xml,/);
    expect(decodeURIComponent(src.slice(src.indexOf(",") + 1))).toBe(
      "<svg xmlns='http://www.w3.org/2000/svg' width='400' height='300'></svg>",
    );
    expect(src).not.toMatch(/[\s"<>]/);
  });
});
