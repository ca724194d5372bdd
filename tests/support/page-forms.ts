/**
 * The forms a page offers that post, read from its HTML as a browser would submit them:
 * where each posts to, and each field's name and the value it starts with (a select's first
 * option, a button's value).
 */
export interface PageForm {
  page: string;
  action: string;
  fields: Array<[name: string, value: string]>;
}

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
const unescaped = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

export function postForms(html: string, page: string): PageForm[] {
  const forms: PageForm[] = [];
  for (const [, tag = "", body = ""] of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    if ((attribute(tag, "method") ?? "get").toLowerCase() !== "post") continue;
    const fields: PageForm["fields"] = [];
    for (const control of body.matchAll(/<(input|select|textarea|button)\b([^>]*)>/g)) {
      const name = attribute(control[2] ?? "", "name");
      if (!name) continue;
      const value =
        control[1] === "select"
          ? (/<option\b[^>]*value="([^"]*)"/.exec(body.slice(control.index))?.[1] ?? "")
          : (attribute(control[2] ?? "", "value") ?? "");
      fields.push([name, unescaped(value)]);
    }
    forms.push({ page, action: unescaped(attribute(tag, "action") ?? page), fields });
  }
  return forms;
}

/** The same-origin links of a page, as paths. */
export function pageLinks(html: string): string[] {
  return [...html.matchAll(/<a\b[^>]*\shref="(\/[^"#]*)"/g)].map(([, href = ""]) => unescaped(href));
}
