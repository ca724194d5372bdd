import { type ComponentType, StrictMode } from "react";
import { createRoot } from "react-dom/client";

/**
 * Island props travel as JSON in a <script type="application/json" data-props> child
 * (never an inline script: the CSP forbids those) or in a data-props attribute.
 */
export function readProps<P>(element: HTMLElement): P {
  const script = element.querySelector(':scope > script[type="application/json"][data-props]');
  const raw = script?.textContent ?? element.dataset.props ?? "{}";
  return JSON.parse(raw) as P;
}

/**
 * Mounts a React component on the island's element. The component renders the same
 * structure the server markup had, in the same box, so nothing shifts.
 */
export function mountReact<P extends object>(element: HTMLElement, Component: ComponentType<P>): () => void {
  const props = readProps<P>(element);
  const root = createRoot(element);
  root.render(
    <StrictMode>
      <Component {...props} />
    </StrictMode>,
  );
  return () => root.unmount();
}
