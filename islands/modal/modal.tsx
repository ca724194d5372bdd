import { mountReact, readProps } from "../react/mount.tsx";
import type { ModalProps } from "./contract.ts";
// Not Modal.tsx: beside this file, that name clashes on case-insensitive file systems.
import { ModalView } from "./modal-view.tsx";

export { contract } from "./contract.ts";

/** The server's link becomes a button that opens the dialog; its words stay the same. */
export function mount(element: HTMLElement): () => void {
  const label = element.querySelector("a")?.textContent?.trim() ?? "";
  const props = readProps<Omit<ModalProps, "label">>(element);
  const Bound = () => <ModalView {...props} label={label} />;
  return mountReact(element, Bound);
}
