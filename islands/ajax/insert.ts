export type AjaxMode = "replace" | "before" | "after" | "replace-with";

export function modeOf(value: string | undefined): AjaxMode {
  const mode = (value ?? "").trim().toLowerCase();
  return mode === "before" || mode === "after" || mode === "replace-with" ? mode : "replace";
}

/**
 * Parses response HTML without running anything in it: scripts are dropped (the CSP
 * would refuse inline ones anyway, and a swapped fragment never needs one). Hooks inside the new nodes
 * are started by the island runtime, which watches the document.
 */
function parse(html: string): Node[] {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  for (const script of doc.body.querySelectorAll("script")) script.remove();
  // DOMParser parses with scripting off, so a <noscript> copy (a lazy image's) would become
  // a real element here; this page runs scripts, so it never needs one.
  for (const copy of doc.body.querySelectorAll("noscript")) copy.remove();
  return [...doc.body.childNodes].map((node) => document.adoptNode(node));
}

/** Puts the response into every target; returns the elements that now hold it. */
export function insert(targets: Element[], html: string, mode: AjaxMode): Element[] {
  const changed: Element[] = [];
  for (const target of targets) {
    const nodes = parse(html);
    switch (mode) {
      case "before":
        target.prepend(...nodes);
        changed.push(target);
        break;
      case "after":
        target.append(...nodes);
        changed.push(target);
        break;
      case "replace-with": {
        target.replaceWith(...nodes);
        const first = nodes.find((n): n is Element => n instanceof Element);
        if (first) changed.push(first);
        break;
      }
      default:
        target.replaceChildren(...nodes);
        changed.push(target);
    }
  }
  return changed;
}
