import { type RefObject, useEffect, useRef, useState } from "react";
import { type Point, unzoomed, wheelScale, type ZoomView, zoomAt, zoomStep } from "./zoom.ts";

export interface ZoomControls {
  view: ZoomView;
  setView: (change: (view: ZoomView) => ZoomView) => void;
  /** The stage's size in px, which the view's shift is kept within. */
  size: () => Point;
  /** Zooms in (+1) or out (−1) by one step, around the picture's centre. */
  zoomBy: (steps: number) => void;
  reset: () => void;
}

/**
 * The zoom of the stage's picture, and ctrl+wheel on the stage (which trackpads send for a
 * pinch too). `box` names the stage's box ("full screen" or not): a new box starts unzoomed,
 * as a shift measured in the old one would not fit it.
 */
export function useZoom(stage: RefObject<HTMLElement | null>, box: string, onZoom: () => void): ZoomControls {
  const [state, setState] = useState({ box, view: unzoomed });
  const view = state.box === box ? state.view : unzoomed;
  const setView = (change: (view: ZoomView) => ZoomView) =>
    setState((previous) => ({ box, view: change(previous.box === box ? previous.view : unzoomed) }));
  const onZoomRef = useRef(onZoom);
  onZoomRef.current = onZoom;

  const size = (): Point => {
    const rect = stage.current?.getBoundingClientRect();
    return { x: rect?.width ?? 0, y: rect?.height ?? 0 };
  };

  const setViewRef = useRef(setView);
  setViewRef.current = setView;

  // A listener of our own: React's wheel listeners are passive and could not keep the
  // browser from zooming the whole page. Only ctrl+wheel is taken; a plain wheel scrolls.
  useEffect(() => {
    const element = stage.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      const frame = element.getBoundingClientRect();
      const point = {
        x: event.clientX - frame.left - frame.width / 2,
        y: event.clientY - frame.top - frame.height / 2,
      };
      // Firefox counts some wheels in lines; about 33 px each.
      const deltaY = event.deltaMode === 1 ? event.deltaY * 33 : event.deltaY;
      const size = { x: frame.width, y: frame.height };
      setViewRef.current((v) => zoomAt(v, wheelScale(v.scale, deltaY), point, size));
      onZoomRef.current();
    };
    element.addEventListener("wheel", onWheel, { passive: false });
    return () => element.removeEventListener("wheel", onWheel);
  }, [stage]);

  return {
    view,
    setView,
    size,
    zoomBy: (steps) => {
      const within = size();
      setView((v) => zoomAt(v, v.scale + steps * zoomStep, { x: 0, y: 0 }, within));
    },
    reset: () => setView(() => unzoomed),
  };
}
