import { mountReact } from "../react/mount.tsx";
// Not DeliveryTimes.tsx: beside this file, that name clashes on case-insensitive file systems.
import { DeliveryTimes } from "./delivery-times-view.tsx";

export { contract } from "./contract.ts";

export function mount(element: HTMLElement): () => void {
  return mountReact(element, DeliveryTimes);
}
