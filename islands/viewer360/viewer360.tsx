import { mountReact } from "../react/mount.tsx";
// Not Viewer360.tsx: beside this file, that name clashes on case-insensitive file systems.
import { Viewer360 } from "./viewer-view.tsx";

export { contract } from "./contract.ts";

export function mount(element: HTMLElement): () => void {
  return mountReact(element, Viewer360);
}
