import { type RefObject, useEffect, useRef, useState } from "react";

/**
 * "native": the Fullscreen API has the viewer. "overlay": the stand-in where that API is
 * missing or refused (iPhone Safari has it only for video): the viewer fixed over the
 * whole window, which Esc closes like the real thing.
 */
/**
 * Makes everything but the overlay inert, so a screen reader's browse mode cannot wander
 * onto the page behind it (focus trapping alone only covers the Tab key). Returns the undo,
 * which leaves elements that were inert before as they were.
 */
function inertOutside(root: HTMLElement): () => void {
  const made: HTMLElement[] = [];
  for (let node: HTMLElement | null = root; node && node !== document.body; node = node.parentElement) {
    for (const sibling of node.parentElement?.children ?? []) {
      if (sibling === node || sibling.hasAttribute("inert")) continue;
      sibling.setAttribute("inert", "");
      made.push(sibling as HTMLElement);
    }
  }
  return () => {
    for (const element of made) element.removeAttribute("inert");
  };
}

export type FullscreenMode = "off" | "native" | "overlay";

const focusables = (root: HTMLElement) =>
  [...root.querySelectorAll<HTMLElement>('button, [tabindex="0"]')].filter(
    (element) => !element.hasAttribute("disabled"),
  );

/**
 * Full screen for `target`, toggled by `button`. The native state follows the document's
 * fullscreenchange events only, so leaving by Esc, by the browser's own controls or by
 * our button all end the same way. Leaving either mode puts focus back on the button.
 */
export function useFullscreen(
  target: RefObject<HTMLElement | null>,
  button: RefObject<HTMLElement | null>,
): { mode: FullscreenMode; toggle: () => void } {
  const [mode, setMode] = useState<FullscreenMode>("off");

  useEffect(() => {
    const changed = () => {
      const mine = target.current !== null && document.fullscreenElement === target.current;
      setMode((previous) => (mine ? "native" : previous === "native" ? "off" : previous));
    };
    document.addEventListener("fullscreenchange", changed);
    return () => document.removeEventListener("fullscreenchange", changed);
  }, [target]);

  // The browser leaves its full screen on Esc by itself; where the key reaches the page
  // anyway (some browsers, keyboard lock, automation), leaving is asked for here too.
  useEffect(() => {
    if (mode !== "native") return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && document.fullscreenElement === target.current)
        document.exitFullscreen().catch(() => undefined);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [mode, target]);

  // The overlay is modal: Esc closes it, Tab cycles inside it, the page behind does not scroll.
  useEffect(() => {
    const root = target.current;
    if (mode !== "overlay" || !root) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        setMode("off");
        return;
      }
      if (event.key !== "Tab") return;
      const inside = focusables(root);
      const first = inside[0];
      const end = inside[inside.length - 1];
      if (!first || !end) return;
      const active = document.activeElement;
      if (event.shiftKey ? active === first || !root.contains(active) : active === end) {
        event.preventDefault();
        (event.shiftKey ? end : first).focus();
      }
    };
    // Focus that gets out anyway (a click behind, a screen reader's own navigation) comes back.
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof Node && !root.contains(event.target)) button.current?.focus();
    };
    const html = document.documentElement;
    html.classList.add("viewer360-overlay-open");
    const released = inertOutside(root);
    document.addEventListener("keydown", onKey);
    document.addEventListener("focusin", onFocusIn);
    return () => {
      released();
      html.classList.remove("viewer360-overlay-open");
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("focusin", onFocusIn);
    };
  }, [mode, target, button]);

  const wasOn = useRef(false);
  useEffect(() => {
    if (mode === "off" && wasOn.current) button.current?.focus();
    wasOn.current = mode !== "off";
  }, [mode, button]);

  const toggle = () => {
    if (mode === "native") {
      // The state changes when the document says it has left (fullscreenchange).
      document.exitFullscreen().catch(() => setMode("off"));
      return;
    }
    if (mode === "overlay") {
      setMode("off");
      return;
    }
    const element = target.current;
    if (element && typeof element.requestFullscreen === "function" && document.fullscreenEnabled !== false) {
      element.requestFullscreen().catch(() => setMode("overlay"));
    } else {
      setMode("overlay");
    }
  };

  return { mode, toggle };
}
