/** Small HTML helpers for the page context: escaping, attributes, JSON inside a script element. */

const htmlEscapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export function escapeHtml(text: string): string {
  return String(text).replace(/[&<>"']/g, (c) => htmlEscapes[c] ?? c);
}

export function renderAttributes(attributes: Record<string, string | number | boolean | undefined>): string {
  return Object.entries(attributes)
    .filter(([, v]) => v !== undefined && v !== false)
    .map(([k, v]) => (v === true || v === "" ? ` ${k}` : ` ${k}="${escapeHtml(String(v))}"`))
    .join("");
}

/** JSON that is safe inside <script type="application/json">: no "</script" or "<!--" can form. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * The src of an image that waits for a script to load its real one (lazy images, carousel
 * slides): an <img> must have a src, and an empty SVG of the image's own size costs no
 * request and keeps its shape, where a 1×1 pixel would make it square once loaded.
 */
export function placeholderSrc(width: number, height: number): string {
  return `data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20width='${Math.round(width)}'%20height='${Math.round(height)}'%3E%3C/svg%3E`;
}
