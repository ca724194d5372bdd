/**
 * The rules of the sitemaps.org 0.9 schema (https://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd,
 * and the protocol page https://www.sitemaps.org/protocol.html), checked by hand since no
 * XSD validator is installed:
 * - the document is UTF-8 XML whose root is urlset in the 0.9 namespace;
 * - urlset holds only url elements, at most 50,000, in at most 50 MB;
 * - each url (tUrl) holds, in this order, exactly one loc, then at most one lastmod,
 *   changefreq and priority, then any elements of other namespaces (xsd:any ##other);
 * - loc (tLoc) is an absolute URI of 12 to 2048 characters, with &, <, >, ' and " escaped;
 * - changefreq is one of always … never, priority a decimal from 0.0 to 1.0, lastmod a W3C datetime.
 * The elements of other namespaces here are Google's hreflang alternates (xhtml:link with
 * rel="alternate", hreflang and href), whose rules are checked too.
 */

const sitemapNamespace = "http://www.sitemaps.org/schemas/sitemap/0.9";
const xhtmlNamespace = "http://www.w3.org/1999/xhtml";
const changeFrequencies = ["always", "hourly", "daily", "weekly", "monthly", "yearly", "never"];

interface Element {
  name: string;
  attributes: Record<string, string>;
  children: Element[];
  text: string;
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", apos: "'", quot: '"' };

function decode(text: string, problems: string[]): string {
  return text.replace(/&([a-z]+|#\d+|#x[0-9a-f]+);|&/gi, (whole, name: string | undefined) => {
    if (name === undefined) {
      problems.push("an unescaped & in text");
      return whole;
    }
    if (name.startsWith("#"))
      return String.fromCodePoint(Number(name.startsWith("#x") ? `0${name.slice(1)}` : name.slice(1)));
    const value = entities[name];
    if (value === undefined) problems.push(`unknown entity &${name};`);
    return value ?? whole;
  });
}

/** A strict reader for the subset of XML a sitemap uses: elements, attributes, text, one declaration. */
function parse(xml: string, problems: string[]): Element | undefined {
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(xml);
  if (!declaration) problems.push('the document does not start with <?xml version="1.0" encoding="UTF-8"?>');
  let at = declaration?.[0].length ?? 0;
  const root: Element = { name: "#document", attributes: {}, children: [], text: "" };
  const stack: Element[] = [root];
  const tag = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*="[^"<]*")*)\s*(\/?)>/y;
  while (at < xml.length) {
    const next = xml.indexOf("<", at);
    const text = xml.slice(at, next < 0 ? xml.length : next);
    const parent = stack[stack.length - 1] as Element;
    if (text.trim() !== "") parent.text += decode(text, problems);
    if (next < 0) break;
    tag.lastIndex = next;
    const match = tag.exec(xml);
    if (!match) {
      problems.push(`malformed markup at ${next}: ${xml.slice(next, next + 40)}`);
      return undefined;
    }
    const [, closing, name = "", attributeText = "", selfClosing] = match;
    if (closing) {
      const open = stack.pop();
      if (open?.name !== name) problems.push(`</${name}> closes <${open?.name}>`);
    } else {
      const attributes: Record<string, string> = {};
      for (const a of attributeText.matchAll(/([A-Za-z_][\w.:-]*)="([^"]*)"/g)) {
        if ((a[1] as string) in attributes) problems.push(`<${name}> repeats ${a[1]}`);
        attributes[a[1] as string] = decode(a[2] ?? "", problems);
      }
      const element: Element = { name, attributes, children: [], text: "" };
      parent.children.push(element);
      if (!selfClosing) stack.push(element);
    }
    at = tag.lastIndex;
  }
  if (stack.length !== 1) problems.push(`<${stack[stack.length - 1]?.name}> is never closed`);
  if (root.children.length !== 1) problems.push("the document must have exactly one root element");
  return root.children[0];
}

function isAbsoluteUri(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol) && !/[\s<>"]/.test(value);
  } catch {
    return false;
  }
}

/** What keeps the document from validating against the schema; empty when it validates. */
export function sitemapProblems(xml: string): string[] {
  const problems: string[] = [];
  if (Buffer.byteLength(xml, "utf8") > 50 * 1024 * 1024) problems.push("larger than 50 MB");
  const root = parse(xml, problems);
  if (!root) return problems;
  if (root.name !== "urlset") problems.push(`the root is <${root.name}>, not <urlset>`);
  if (root.attributes.xmlns !== sitemapNamespace) problems.push("urlset is not in the sitemap 0.9 namespace");
  const prefixes = new Map(
    Object.entries(root.attributes)
      .filter(([k]) => k.startsWith("xmlns:"))
      .map(([k, v]) => [k.slice(6), v]),
  );
  if (root.children.length > 50_000) problems.push("more than 50,000 url elements");
  if (root.text !== "") problems.push("text directly inside urlset");
  for (const [i, url] of root.children.entries()) {
    const where = `url[${i}]`;
    if (url.name !== "url") {
      problems.push(`${where}: <${url.name}> inside urlset`);
      continue;
    }
    if (url.text !== "") problems.push(`${where}: text directly inside url`);
    const order = ["loc", "lastmod", "changefreq", "priority"];
    let place = 0;
    let seenLoc = false;
    for (const child of url.children) {
      const prefix = child.name.includes(":") ? child.name.split(":")[0] : undefined;
      if (prefix !== undefined) {
        const namespace = prefixes.get(prefix);
        if (namespace === undefined) problems.push(`${where}: undeclared prefix ${prefix}`);
        if (namespace === sitemapNamespace)
          problems.push(`${where}: ${child.name} is not an element of the schema`);
        if (!seenLoc) problems.push(`${where}: ${child.name} before loc`);
        place = order.length;
        if (namespace === xhtmlNamespace) {
          const { rel, hreflang, href, ...rest } = child.attributes;
          if (child.name !== `${prefix}:link`) problems.push(`${where}: ${child.name} is no xhtml:link`);
          if (rel !== "alternate") problems.push(`${where}: xhtml:link rel is ${rel}`);
          if (!hreflang || !/^([a-z]{2,3}(-[A-Za-z0-9]{2,8})*|x-default)$/.test(hreflang))
            problems.push(`${where}: hreflang ${hreflang}`);
          if (!href || !isAbsoluteUri(href)) problems.push(`${where}: xhtml:link href ${href}`);
          if (Object.keys(rest).length > 0) problems.push(`${where}: xhtml:link has ${Object.keys(rest)}`);
          if (child.children.length > 0 || child.text !== "")
            problems.push(`${where}: xhtml:link is not empty`);
        }
        continue;
      }
      const index = order.indexOf(child.name);
      if (index < 0) {
        problems.push(`${where}: <${child.name}> is not an element of the schema`);
        continue;
      }
      if (index === 0 && seenLoc) problems.push(`${where}: a second loc`);
      if (index > 0 && !seenLoc) problems.push(`${where}: <${child.name}> before loc`);
      else if (index < place) problems.push(`${where}: <${child.name}> repeated or after a later element`);
      place = index + 1;
      if (child.children.length > 0) problems.push(`${where}: <${child.name}> holds elements`);
      const value = child.text.trim();
      if (child.name === "loc") {
        seenLoc = true;
        if (value.length < 12 || value.length > 2048)
          problems.push(`${where}: loc of ${value.length} characters`);
        if (!isAbsoluteUri(value)) problems.push(`${where}: loc ${value} is not an absolute URI`);
      }
      if (child.name === "changefreq" && !changeFrequencies.includes(value))
        problems.push(`${where}: changefreq ${value}`);
      if (child.name === "priority" && !/^(0(\.\d+)?|1(\.0+)?)$/.test(value))
        problems.push(`${where}: priority ${value}`);
      if (
        child.name === "lastmod" &&
        !/^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/.test(value)
      )
        problems.push(`${where}: lastmod ${value}`);
    }
    if (!seenLoc) problems.push(`${where}: no loc`);
  }
  return problems;
}

/** Each url's loc with its alternates (hreflang -> href), in document order. */
export function sitemapEntries(xml: string): Array<{ loc: string; alternates: Record<string, string> }> {
  return [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => {
    const body = m[1] ?? "";
    const loc = decode(/<loc>([^<]*)<\/loc>/.exec(body)?.[1] ?? "", []);
    const alternates = Object.fromEntries(
      [...body.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map((a) => [
        a[1] ?? "",
        decode(a[2] ?? "", []),
      ]),
    );
    return { loc, alternates };
  });
}
