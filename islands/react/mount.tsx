import { type ComponentType, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { readProps } from "../runtime/props.ts";

export { readProps };

/**
 * react-aria's press handling writes a <style> element (a touch-action rule) into the
 * head unless an element with its id is already there. The strict CSP refuses inline
 * styles, so the rule ships in widgets.css and this marker tells react-aria it is present.
 */
function markPressableStyle(doc: Document): void {
  const id = "react-aria-pressable-style";
  if (doc.getElementById(id)) return;
  const marker = doc.createElement("template");
  marker.id = id;
  doc.head.append(marker);
}

/**
 * Mounts a React component on the island's element. The component renders the same
 * structure the server markup had, in the same box, so nothing shifts.
 */
export function mountReact<P extends object>(element: HTMLElement, Component: ComponentType<P>): () => void {
  const props = readProps<P>(element);
  markPressableStyle(element.ownerDocument);
  const root = createRoot(element);
  root.render(
    <StrictMode>
      <Component {...props} />
    </StrictMode>,
  );
  return () => root.unmount();
}
