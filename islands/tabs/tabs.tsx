import { mountReact, readProps } from "../react/mount.tsx";
import type { TabsProps } from "./contract.ts";
import type { TabSection } from "./tabs-state.ts";
// Not Tabs.tsx: beside this file, that name clashes on case-insensitive file systems.
import { TabsView } from "./tabs-view.tsx";

export { contract } from "./contract.ts";

/**
 * The tabs island reads its panels from the server's markup (the sections after the
 * list of links) and takes them over; the list of links, only needed without
 * JavaScript, goes.
 */
export function mount(element: HTMLElement): () => void {
  const sections: TabSection[] = [
    ...element.querySelectorAll<HTMLElement>(":scope > section[data-tab-label]"),
  ].map((node) => ({ id: node.id, label: node.dataset.tabLabel ?? node.id, node }));
  if (sections.length === 0) throw new Error("tabs: no sections with data-tab-label");
  const { label } = readProps<TabsProps>(element);
  element.classList.add("tabs--enhanced");
  const stateKey = `tabs#${element.id}`;
  const Bound = () => <TabsView label={label} sections={sections} stateKey={stateKey} />;
  return mountReact(element, Bound);
}
