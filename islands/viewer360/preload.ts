export type FrameStatus = "pending" | "loaded" | "failed";

/**
 * Requests every frame at once as a real image, so the browser's cache holds them when
 * the shopper turns the product, and reports each one as it settles. A page prerendered
 * ahead of a click (speculation rules) may never be opened: its frames wait until the
 * shopper opens it and the page has been drawn once; only the first one, the page's own
 * image, comes ahead. Returns a function that stops the reports (the viewer moved on to
 * another front, or unmounted).
 */
export function preloadFrames(
  urls: readonly string[],
  report: (index: number, status: Exclude<FrameStatus, "pending">) => void,
  doc: Document = document,
): () => void {
  let active = true;
  let images: HTMLImageElement[] = [];
  const start = () => {
    images = urls.map((url, index) => {
      const image = new Image();
      image.decoding = "async";
      image.onload = () => {
        if (active) report(index, "loaded");
      };
      image.onerror = () => {
        if (active) report(index, "failed");
      };
      image.src = url;
      return image;
    });
  };
  // After the first paint once shown: 35 images arriving with it only delay that paint.
  const startAfterFirstFrame = () =>
    (doc.defaultView ?? window).requestAnimationFrame(() => setTimeout(() => active && start(), 0));
  if ((doc as Document & { prerendering?: boolean }).prerendering)
    doc.addEventListener("prerenderingchange", startAfterFirstFrame, { once: true });
  else start();
  return () => {
    active = false;
    doc.removeEventListener("prerenderingchange", startAfterFirstFrame);
    for (const image of images) {
      image.onload = null;
      image.onerror = null;
    }
  };
}

/**
 * The frame to show for the wanted one: itself once loaded, else the nearest loaded one,
 * so a missing or slow frame never shows as a broken or empty image. Before anything has
 * loaded it is the first frame (the server's image, already on its way), unless that failed.
 */
export function frameToShow(statuses: readonly FrameStatus[], wanted: number): number | undefined {
  if (statuses[wanted] === "loaded") return wanted;
  for (let distance = 1; distance < statuses.length; distance++) {
    if (statuses[wanted - distance] === "loaded") return wanted - distance;
    if (statuses[wanted + distance] === "loaded") return wanted + distance;
  }
  return statuses[0] === "failed" ? undefined : 0;
}

/**
 * The address and frame index to show for the wanted frame, from sets of the same frames
 * at several sizes, the preferred size first. A frame in hand at another size stands in
 * while the preferred one loads (entering full screen on a phone swaps 320 for 720 px
 * frames), so the angle never jumps back to the first frame meanwhile.
 */
export function frameSource(
  sets: ReadonlyArray<readonly string[]>,
  settled: Readonly<Record<string, Exclude<FrameStatus, "pending">>>,
  wanted: number,
): { url: string; index: number } | undefined {
  const [preferred = [], ...others] = sets;
  const loadedIn = (set: readonly string[]) => set[wanted] !== undefined && settled[set[wanted]] === "loaded";
  const own = loadedIn(preferred) ? preferred : others.find(loadedIn);
  if (own) return { url: own[wanted] as string, index: wanted };
  const statuses = preferred.map((url) => settled[url] ?? "pending");
  const index = frameToShow(statuses, wanted);
  return index === undefined ? undefined : { url: preferred[index] as string, index };
}
