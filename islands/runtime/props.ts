/**
 * Island props travel as JSON in a <script type="application/json" data-props> child
 * (never an inline script: the CSP forbids those) or in a data-props attribute.
 * Kept apart from the React mount so framework-free islands can read props without React.
 */
export function readProps<P>(element: HTMLElement): P {
  const script = element.querySelector(':scope > script[type="application/json"][data-props]');
  const raw = script?.textContent ?? element.dataset.props ?? "{}";
  return JSON.parse(raw) as P;
}

/**
 * The same JSON for a behaviour that has no element of its own to carry it: the layout
 * writes it once per page, <script type="application/json" data-props-for="hook">, when a
 * partial asked for it with it.use(hook).
 */
export function pageProps<P>(doc: Document, hook: string): P {
  const script = doc.querySelector(`script[type="application/json"][data-props-for="${hook}"]`);
  if (!script?.textContent) throw new Error(`the page has no props for ${hook}`);
  return JSON.parse(script.textContent) as P;
}
