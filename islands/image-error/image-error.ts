/** The class CSS uses to show a neutral placeholder in place of a broken image. */
export const brokenImageClass = "is-broken";

function isBroken(img: HTMLImageElement): boolean {
  return img.complete && img.naturalWidth === 0 && Boolean(img.currentSrc || img.getAttribute("src"));
}

/**
 * Part of boot rather than a lazy module: an image can fail before any chunk arrives.
 * One capturing listener covers images inserted later too; images that failed before
 * boot ran are found by their state.
 */
export function watchImageErrors(doc: Document): void {
  doc.addEventListener(
    "error",
    (event) => {
      const target = event.target;
      if (target instanceof HTMLImageElement) target.classList.add(brokenImageClass);
    },
    true,
  );
  doc.addEventListener(
    "load",
    (event) => {
      const target = event.target;
      if (target instanceof HTMLImageElement) target.classList.remove(brokenImageClass);
    },
    true,
  );
  for (const img of doc.images) if (isBroken(img)) img.classList.add(brokenImageClass);
}
