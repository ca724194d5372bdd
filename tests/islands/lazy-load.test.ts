// @vitest-environment happy-dom
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { brokenImageClass, watchImageErrors } from "../../islands/image-error/image-error.ts";
import { lazyMargin, start } from "../../islands/lazy-load/lazy-load.ts";
import { registry } from "../../islands/registry.ts";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import { closeExamples, exampleHtml } from "../support/examples.ts";
import { FakeObserver } from "../support/fake-intersection-observer.ts";

// happy-dom has no layout, so nothing would ever intersect: the fake observer stands in for
// the browser's, and the test says when an element comes within its margin. The margin itself
// is measured in a real browser by tests/e2e/lazy-images.spec.ts.

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The lazy-load example as the pattern library renders it, in the body; returns its waiting image. */
async function render(example = "default"): Promise<HTMLImageElement> {
  document.body.innerHTML = `<main>${await exampleHtml("lazy-load", example)}</main>`;
  const img = document.querySelector<HTMLImageElement>("img.lazy-image");
  if (!img) throw new Error(`the lazy-load example "${example}" rendered no image`);
  return img;
}

const observer = () => {
  const last = FakeObserver.all.at(-1);
  if (!last) throw new Error("nothing observes the page");
  return last;
};

beforeEach(() => {
  vi.stubGlobal("IntersectionObserver", FakeObserver);
});
afterEach(() => {
  FakeObserver.all = [];
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});
afterAll(closeExamples);

describe("a lazy image", () => {
  it("shows an empty placeholder of its size and asks for nothing until it comes within 250 px", async () => {
    const img = await render();
    const source = img.dataset.lazySrc;
    expect(source).toMatch(/^\/static\/images\/products\/.+\.svg$/);
    start(document);
    expect(observer().options.rootMargin).toBe("250px");
    expect(lazyMargin).toBe("250px");
    expect(observer().targets.has(img)).toBe(true);

    // Observers report elements still outside the margin too (at first, and when they leave it).
    const away = { target: img, isIntersecting: false } as unknown as IntersectionObserverEntry;
    observer().callback([away], observer() as unknown as IntersectionObserver);
    expect(img.getAttribute("src")).toMatch(/^data:image\/svg\+xml,/);
    expect(img.getAttribute("width")).toBe("400");
    expect(img.getAttribute("height")).toBe("300");

    observer().near(img);
    expect(img.getAttribute("src")).toBe(source);
    expect(img.hasAttribute("data-lazy-src")).toBe(false);
    expect(observer().targets.has(img), "watched no longer").toBe(false);
  });

  it("swaps its source once: a later report changes nothing", async () => {
    const img = await render();
    start(document);
    observer().near(img);
    img.setAttribute("src", "/static/images/changed-by-someone-else.svg");
    observer().near(img);
    expect(img.getAttribute("src")).toBe("/static/images/changed-by-someone-else.svg");
  });

  it("takes its srcset and sizes along, which wait beside the source until then", async () => {
    const img = await render("responsive");
    const { lazySrc: source, lazySrcset: srcset, lazySizes: sizes } = img.dataset;
    expect(srcset).toBe(`${source} 400w`);
    expect(sizes).toBe("(max-width: 480px) 100vw, 400px");
    expect(img.hasAttribute("srcset") || img.hasAttribute("sizes"), "nothing chosen before").toBe(false);
    start(document);
    observer().near(img);
    expect(img.getAttribute("src")).toBe(source);
    expect(img.getAttribute("srcset")).toBe(srcset);
    expect(img.getAttribute("sizes")).toBe(sizes);
    for (const name of ["data-lazy-src", "data-lazy-srcset", "data-lazy-sizes"])
      expect(img.hasAttribute(name), name).toBe(false);
  });

  it("carries a <noscript> copy with the real source, its size and alt text, lazy by the browser", async () => {
    const html = await exampleHtml("lazy-load", "responsive");
    const copy = /<noscript>(<img [^>]*>)<\/noscript>/.exec(html)?.[1] ?? "";
    const img = await render("responsive");
    expect(copy).toContain(` src="${img.dataset.lazySrc}"`);
    expect(copy).toContain(` srcset="${img.dataset.lazySrcset}"`);
    expect(copy).toContain(` alt="${img.alt}"`);
    expect(copy).toContain(' width="400" height="300"');
    expect(copy).toContain(' loading="lazy"');
  });

  it("is marked as broken when its source fails to load, as every image of the shop is", async () => {
    // boot.ts's watcher, on this document; happy-dom's document.images cannot be iterated, and no image failed before.
    watchImageErrors({
      addEventListener: document.addEventListener.bind(document),
      images: [],
    } as unknown as Document);
    const img = await render();
    start(document);
    observer().near(img);
    img.dispatchEvent(new Event("error"));
    expect(img.classList.contains(brokenImageClass)).toBe(true);
  });

  it("is picked up when it arrives later, as in a fragment the ajax hook swaps in", async () => {
    document.body.innerHTML = "<main></main>";
    start(document);
    const html = await exampleHtml("lazy-load");
    document.querySelector("main")?.insertAdjacentHTML("beforeend", html);
    await flush();
    const img = document.querySelector<HTMLImageElement>("img.lazy-image") as HTMLImageElement;
    expect(observer().targets.has(img)).toBe(true);
    expect(img.getAttribute("src")).toMatch(/^data:/);
  });

  it("loads at once in a browser without IntersectionObserver", async () => {
    vi.unstubAllGlobals();
    const saved = (window as unknown as Record<string, unknown>).IntersectionObserver;
    delete (window as unknown as Record<string, unknown>).IntersectionObserver;
    try {
      const img = await render();
      const source = img.dataset.lazySrc;
      start(document);
      expect(img.getAttribute("src")).toBe(source);
    } finally {
      (window as unknown as Record<string, unknown>).IntersectionObserver = saved;
    }
  });
});

describe("a lazy background", () => {
  it("is set once its element comes within 250 px", () => {
    // Attributes only: the hook has no partial for backgrounds.
    document.body.innerHTML = `<div class="banner" data-lazy-background="/static/images/products/canvas.svg"></div>`;
    const banner = document.querySelector<HTMLElement>(".banner") as HTMLElement;
    start(document);
    expect(banner.style.backgroundImage).toBe("");
    observer().near(banner);
    expect(banner.style.backgroundImage).toContain("/static/images/products/canvas.svg");
    expect(banner.hasAttribute("data-lazy-background")).toBe(false);
  });
});

describe("a carousel further down the page", () => {
  it("loads none of its slides until the carousel itself is within 250 px, like any other image", async () => {
    document.body.innerHTML = `<main>${await exampleHtml("carousel", "still")}</main>`;
    const root = document.querySelector<HTMLElement>('[data-island="carousel"]') as HTMLElement;
    const waiting = [...root.querySelectorAll<HTMLImageElement>("img[data-carousel-src]")];
    expect(waiting.length).toBeGreaterThan(1);
    await createRuntime(registry, document, () => {}).scan(document);
    const near = FakeObserver.all.find((o) => o.targets.has(root));
    expect(near?.options.rootMargin).toBe("250px");
    expect(root.getAttribute("data-island-state")).toBe("waiting");
    expect(
      FakeObserver.all.some((o) => waiting.some((img) => o.targets.has(img))),
      "no slide watched yet",
    ).toBe(false);
    for (const img of waiting) expect(img.getAttribute("src")).toMatch(/^data:/);

    near?.near(root);
    await vi.waitFor(() => expect(root.getAttribute("data-island-state")).toBe("mounted"));
    // Mounted, the carousel watches its slides itself, within 150 px of its visible part.
    const slides = FakeObserver.all.find((o) => o.options.root === root.querySelector(".carousel__slides"));
    expect(slides?.options.rootMargin).toBe("0px 150px");
    for (const img of waiting) expect(slides?.targets.has(img)).toBe(true);
  });
});
