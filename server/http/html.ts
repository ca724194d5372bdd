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
