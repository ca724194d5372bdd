import { type PointerEvent, useRef, useState } from "react";
import { addSample, dragPosition, releaseVelocity, type Sample } from "./spin.ts";
import type { MotionControls } from "./use-motion.ts";
import type { ZoomControls } from "./use-zoom.ts";
import { clampView, distance, midpoint, type Point, pinchScale, type ZoomView, zoomAt } from "./zoom.ts";

/**
 * A touch moves this far before the viewer decides between turning (sideways) and leaving
 * it to the page's scroll (up or down): the stage's `touch-action: pan-y` lets the browser
 * scroll, and the pointer is captured only once the move is known to be a turn.
 */
export const directionThreshold = 8;

export function dragDirection(dx: number, dy: number): "sideways" | "upright" | undefined {
  if (Math.max(Math.abs(dx), Math.abs(dy)) < directionThreshold) return undefined;
  return Math.abs(dx) > Math.abs(dy) ? "sideways" : "upright";
}

type Gesture =
  | { kind: "pending"; id: number; x: number; y: number; time: number }
  | { kind: "turn"; id: number; x: number; start: number; width: number; samples: Sample[] }
  | { kind: "pan"; id: number; x: number; y: number; start: ZoomView }
  | { kind: "pinch"; distance: number; centre: Point; start: ZoomView };

export type GestureKind = "drag" | "zoom";

/**
 * The stage's pointers: one finger or the mouse turns the product (or moves the picture
 * while zoomed in), two fingers zoom. `onUse` hears which kind the shopper used.
 */
export function useGestures(
  motion: MotionControls,
  zoom: ZoomControls,
  last: number,
  onUse: (kind: GestureKind) => void,
) {
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<Gesture | undefined>(undefined);
  const [active, setActive] = useState<"turn" | "pinch" | undefined>(undefined);

  /** A point relative to the stage's centre, as zoom.ts measures. */
  const fromCentre = (element: HTMLElement, point: Point): Point => {
    const box = element.getBoundingClientRect();
    return { x: point.x - box.left - box.width / 2, y: point.y - box.top - box.height / 2 };
  };

  const end = () => {
    gesture.current = undefined;
    setActive(undefined);
  };

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    const element = event.currentTarget;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    motion.hold();
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()] as [Point, Point];
      gesture.current = {
        kind: "pinch",
        distance: distance(a, b),
        centre: fromCentre(element, midpoint(a, b)),
        start: zoom.view,
      };
      for (const id of pointers.current.keys()) element.setPointerCapture?.(id);
      setActive("pinch");
    } else if (pointers.current.size === 1) {
      const at = { id: event.pointerId, x: event.clientX, y: event.clientY };
      // Zoomed in, the stage takes every touch (touch-action: none), so it captures at once.
      if (zoom.view.scale > 1) {
        element.setPointerCapture?.(event.pointerId);
        gesture.current = { kind: "pan", ...at, start: zoom.view };
      } else {
        gesture.current = { kind: "pending", ...at, time: event.timeStamp };
      }
    }
  };

  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    if (!pointers.current.has(event.pointerId)) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const current = gesture.current;
    const element = event.currentTarget;
    if (current?.kind === "pinch") {
      const [a, b] = [...pointers.current.values()] as [Point, Point];
      const scale = pinchScale(current.start.scale, current.distance, distance(a, b));
      const centre = fromCentre(element, midpoint(a, b));
      const zoomed = zoomAt(current.start, scale, current.centre, zoom.size());
      // Both fingers moving together move the picture as well.
      const moved = {
        ...zoomed,
        x: zoomed.x + centre.x - current.centre.x,
        y: zoomed.y + centre.y - current.centre.y,
      };
      zoom.setView(() => clampView(moved, zoom.size()));
      if (scale !== current.start.scale) onUse("zoom");
      return;
    }
    if (!current || current.id !== event.pointerId) return;
    if (current.kind === "pan") {
      const view = {
        ...current.start,
        x: current.start.x + event.clientX - current.x,
        y: current.start.y + event.clientY - current.y,
      };
      zoom.setView(() => clampView(view, zoom.size()));
      return;
    }
    if (current.kind === "pending") {
      const direction = dragDirection(event.clientX - current.x, event.clientY - current.y);
      if (direction === undefined) return;
      if (direction === "upright") {
        // The page scrolls (touch) or nothing happens (mouse); this pointer turns nothing.
        gesture.current = undefined;
        return;
      }
      element.setPointerCapture?.(event.pointerId);
      gesture.current = {
        kind: "turn",
        id: current.id,
        x: current.x,
        start: motion.current().position,
        width: element.getBoundingClientRect().width || element.clientWidth,
        samples: [{ time: current.time, x: current.x }],
      };
      setActive("turn");
      onUse("drag");
    }
    const turn = gesture.current;
    if (turn?.kind !== "turn") return;
    turn.samples = addSample(turn.samples, { time: event.timeStamp, x: event.clientX });
    motion.aim(dragPosition(turn.start, event.clientX - turn.x, turn.width, last));
  };

  const release = (event: PointerEvent<HTMLElement>, withMomentum: boolean) => {
    if (!pointers.current.delete(event.pointerId)) return;
    const current = gesture.current;
    if (current?.kind === "pinch") {
      // The finger left on the glass does nothing until it is lifted too.
      if (pointers.current.size < 2) end();
      return;
    }
    if (!current || current.id !== event.pointerId) return;
    end();
    if (current.kind === "turn" && withMomentum && current.width > 0) {
      motion.fling(releaseVelocity(current.samples, event.timeStamp) * (last / current.width));
    }
  };

  return {
    /** "turn" while a drag turns the product, "pinch" while two fingers zoom. */
    active,
    handlers: {
      onPointerDown,
      onPointerMove,
      onPointerUp: (event: PointerEvent<HTMLElement>) => release(event, true),
      onPointerCancel: (event: PointerEvent<HTMLElement>) => release(event, false),
    },
  };
}
