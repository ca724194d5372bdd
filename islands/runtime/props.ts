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
