import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { type FrameSize, framePlan, frameUrl } from "../../server/domain/viewer-frames.ts";
import { track } from "../analytics/track.ts";
import { selectionStore } from "../product/selection-store.ts";
import { fill } from "../runtime/fill.ts";
import type { Viewer360Props } from "./contract.ts";
import { Controls } from "./controls.tsx";
import { nearestFrameIndex, samePlan, watchFramePlan } from "./plan.ts";
import { type FrameStatus, frameSource, preloadFrames } from "./preload.ts";
import { buttonStep } from "./spin.ts";
import { useFullscreen } from "./use-fullscreen.ts";
import { type GestureKind, useGestures } from "./use-gestures.ts";
import { useMotion } from "./use-motion.ts";
import { useZoom } from "./use-zoom.ts";
import { zoomTransform } from "./zoom.ts";

/** How the shopper used the viewer, for viewer360.use: each kind is counted once per page view. */
export type ViewerUse = GestureKind | "key" | "button" | "fullscreen";

const selectedFront = () => selectionStore.getState().selection?.frontId;
const noSelection = () => undefined;

/**
 * Follows the product page's chosen orientation: another front starts afresh at its first
 * frame. There is no autoplay: the product turns only when the shopper turns it.
 */
export function Viewer360(props: Viewer360Props) {
  const chosen = useSyncExternalStore(selectionStore.subscribe, selectedFront, noSelection);
  const frontId = chosen ?? props.frontId;
  const alt = props.alts?.[frontId] ?? props.alt;
  // Here, not in the front's viewer, so another orientation does not count as a new page view.
  const used = useRef(new Set<ViewerUse>());
  const onUse = (via: ViewerUse, element: Element | null) => {
    if (!element || used.current.has(via)) return;
    used.current.add(via);
    track(element, "viewer360.use", { productId: props.productId, via });
  };
  return <FrontViewer key={frontId} {...props} frontId={frontId} alt={alt} onUse={onUse} />;
}

type Settled = Exclude<FrameStatus, "pending">;

function FrontViewer({
  frontId,
  alt,
  version,
  imageHost,
  texts,
  onUse,
}: Viewer360Props & { onUse: (via: ViewerUse, element: Element | null) => void }) {
  const figure = useRef<HTMLElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const fullscreenButton = useRef<HTMLButtonElement>(null);
  const use = (via: ViewerUse) => onUse(via, figure.current);

  const fullscreen = useFullscreen(figure, fullscreenButton);
  const full = fullscreen.mode !== "off";
  const [screenPlan, setScreenPlan] = useState(() => framePlan(window.innerWidth));
  // In full screen even a phone gets the 720 px frames; the frame step stays the screen's.
  const size: FrameSize = full ? 720 : screenPlan.size;
  const [urls, otherSize] = useMemo(() => {
    const addresses = (at: FrameSize) =>
      screenPlan.frames.map((n) => frameUrl(imageHost, frontId, at, n, version));
    return [addresses(size), addresses(size === 720 ? 320 : 720)];
  }, [screenPlan, size, imageHost, frontId, version]);
  const last = urls.length - 1;
  // Per address, so frames two plans share (a tablet's frames on a wider desktop) stay loaded.
  const [settledFrames, setSettledFrames] = useState<Record<string, Settled>>({});
  const settledRef = useRef(settledFrames);
  settledRef.current = settledFrames;
  const screenPlanRef = useRef(screenPlan);
  screenPlanRef.current = screenPlan;

  const motion = useMotion(last);
  const zoom = useZoom(stage, full ? "full screen" : "in page", () => use("zoom"));
  const gestures = useGestures(motion, zoom, last, use);
  const instructionsId = useId();

  useEffect(() => {
    const wanted = urls.filter((url) => settledRef.current[url] === undefined);
    return preloadFrames(wanted, (i, status) =>
      setSettledFrames((previous) => ({ ...previous, [wanted[i] as string]: status })),
    );
  }, [urls]);

  // A window that crosses 480 or 725 px gets that width's frames, at the angle it showed.
  const { current, jumpTo } = motion;
  useEffect(
    () =>
      watchFramePlan(window, (next) => {
        const previous = screenPlanRef.current;
        if (samePlan(previous, next)) return;
        const angle = previous.frames[Math.round(current().position)] ?? 1;
        // Both breakpoints can be crossed at once (a phone turned): the second call starts from this plan.
        screenPlanRef.current = next;
        jumpTo(nearestFrameIndex(next.frames, angle));
        setScreenPlan(next);
      }),
    [current, jumpTo],
  );

  const index = Math.min(motion.index, last);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const here = Math.round(motion.current().position);
    const targets: Record<string, number> = {
      ArrowLeft: here - 1,
      ArrowDown: here - 1,
      ArrowRight: here + 1,
      ArrowUp: here + 1,
      PageDown: here - buttonStep(urls.length),
      PageUp: here + buttonStep(urls.length),
      Home: 0,
      End: last,
    };
    const zooms: Record<string, () => void> = {
      "+": () => zoom.zoomBy(1),
      "=": () => zoom.zoomBy(1),
      "-": () => zoom.zoomBy(-1),
      "0": zoom.reset,
    };
    const target = targets[event.key];
    const zoomKey = zooms[event.key];
    if (target !== undefined) {
      use("key");
      motion.jumpTo(target);
    } else if (zoomKey && !event.ctrlKey && !event.metaKey && !event.altKey) {
      use("zoom");
      zoomKey();
    } else return;
    event.preventDefault();
  };

  const source = frameSource([urls, otherSize], settledFrames, index);
  const settled = urls.filter((url) => settledFrames[url] !== undefined).length;
  const percent = Math.round((settled / urls.length) * 100);
  const step = buttonStep(urls.length);
  const zoomed = zoom.view.scale > 1;
  const stageClass = [
    "viewer360__stage",
    gestures.active === "turn" && "is-dragging",
    (zoomed || gestures.active === "pinch") && "is-zoomed",
  ]
    .filter(Boolean)
    .join(" ");

  return (
    <figure
      ref={figure}
      className={fullscreen.mode === "overlay" ? "viewer360__figure is-overlay" : "viewer360__figure"}
    >
      <div
        ref={stage}
        className={stageClass}
        role="slider"
        tabIndex={0}
        aria-label={fill(texts.label, { product: alt })}
        aria-describedby={instructionsId}
        aria-valuemin={1}
        aria-valuemax={urls.length}
        aria-valuenow={index + 1}
        aria-valuetext={fill(texts.frame, { n: index + 1, count: urls.length })}
        onKeyDown={onKeyDown}
        {...gestures.handlers}
      >
        {source && (
          <img
            className="viewer360__image"
            src={source.url}
            alt={alt}
            width={720}
            height={720}
            draggable={false}
            data-frame={screenPlan.frames[source.index]}
            style={{ transform: zoomTransform(zoom.view) }}
          />
        )}
      </div>
      <p className="visually-hidden" id={instructionsId}>
        {texts.instructions}
      </p>
      {settled < urls.length && (
        <div className="viewer360__progress">
          <div
            className="viewer360__bar"
            role="progressbar"
            aria-label={texts.loading}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <span className="viewer360__bar-fill" style={{ transform: `scaleX(${percent / 100})` }} />
          </div>
          <span aria-hidden="true">{fill(texts.progress, { percent })}</span>
        </div>
      )}
      <Controls
        texts={texts}
        atStart={index === 0}
        atEnd={index === last}
        onTurn={(direction) => {
          use("button");
          motion.aim(Math.round(motion.current().target) + direction * step);
        }}
        scale={zoom.view.scale}
        onZoom={(steps) => {
          use("zoom");
          zoom.zoomBy(steps);
        }}
        onZoomReset={zoom.reset}
        fullscreen={fullscreen.mode}
        onFullscreen={() => {
          if (!full) use("fullscreen");
          fullscreen.toggle();
        }}
        fullscreenRef={fullscreenButton}
      />
    </figure>
  );
}
