import { mountReact, readProps } from "../react/mount.tsx";
// Not Modal.tsx: beside this file, that name clashes on case-insensitive file systems.
import { type ModalProps, ModalView } from "./modal-view.tsx";

/** The server's link becomes a button that opens the dialog; its words stay the same. */
export function mount(element: HTMLElement): () => void {
  const label = element.querySelector("a")?.textContent?.trim() ?? "";
  const props = readProps<Omit<ModalProps, "label">>(element);
  const Bound = () => <ModalView {...props} label={label} />;
  return mountReact(element, Bound);
}
