import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { paths } from "../../server/app.ts";
import { customMedia, fillCustomMedia, typedOutWidths } from "../../server/domain/custom-media.ts";

const root = join(paths.locales, "..");
const styleSheets = (dir: string): string[] =>
  readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".css"))
    .map((file) => join(root, dir, file));

describe("the shop's screen widths", () => {
  it("are named, not typed out, in every style sheet", () => {
    for (const file of [...styleSheets("static/css"), ...styleSheets("islands")]) {
      expect(typedOutWidths(readFileSync(file, "utf8")), relative(root, file)).toEqual([]);
    }
  });

  it("fill in each name with the spec's widths", () => {
    expect(fillCustomMedia("@media (--desktop) {a{b:c}}")).toBe("@media (min-width: 726px) {a{b:c}}");
    expect(fillCustomMedia("@media (--phone) {")).toBe("@media (max-width: 480px) {");
    expect(fillCustomMedia("@media screen and (--tablet-or-phone) {")).toBe(
      "@media screen and (max-width: 725px) {",
    );
    expect(customMedia["--wider-than-800"]).toBe("(min-width: 801px)");
    expect(customMedia["--narrow-phone"]).toBe("(max-width: 359px)");
  });

  it("leave other media queries alone and stop the build at an unknown name", () => {
    const css = "@media (prefers-reduced-motion: reduce) { a { b: c } } --desktop: x;";
    expect(fillCustomMedia(css)).toBe(css);
    expect(() => fillCustomMedia("@media (--huge) {", "layout.css")).toThrow(
      /layout.css: unknown media name --huge/,
    );
  });
});
