import {
  type KeyboardEvent,
  type PointerEvent,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { framePlan, frameUrl } from "../../server/domain/viewer-frames.ts";
import { selectionStore } from "../product/selection-store.ts";
import { fill } from "../runtime/fill.ts";
import type { Viewer360Props } from "./contract.ts";
import { nearestFrameIndex, samePlan, watchFramePlan } from "./plan.ts";
import { type FrameStatus, frameToShow, preloadFrames } from "./preload.ts";
import {
  addSample,
  buttonStep,
  clampPosition,
  coastStep,
  dragPosition,
  easedPosition,
  releaseVelocity,
  type Sample,
  stopSpeed,
} from "./spin.ts";

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

const selectedFront = () => selectionStore.getState().selection?.frontId;
const noSelection = () => undefined;

/** Follows the product page's chosen orientation: another front starts afresh at its first frame. */
export function Viewer360(props: Viewer360Props) {
  const chosen = useSyncExternalStore(selectionStore.subscribe, selectedFront, noSelection);
  const frontId = chosen ?? props.frontId;
  const alt = props.alts?.[frontId] ?? props.alt;
  return <FrontViewer key={frontId} {...props} frontId={frontId} alt={alt} />;
}

interface Drag {
  pointerId: number;
  startX: number;
  startPosition: number;
  width: number;
  samples: Sample[];
}

function FrontViewer({ frontId, alt, version, imageHost, texts }: Viewer360Props) {
  const [plan, setPlan] = useState(() => framePlan(window.innerWidth));
  const urls = useMemo(
    () => plan.frames.map((n) => frameUrl(imageHost, frontId, plan.size, n, version)),
    [plan, imageHost, frontId, version],
  );
  const last = urls.length - 1;
  // Per address, so frames two plans share (a tablet's frames on a wider desktop) stay loaded.
  const [settledFrames, setSettledFrames] = useState<Record<string, Exclude<FrameStatus, "pending">>>({});
  const settledRef = useRef(settledFrames);
  settledRef.current = settledFrames;
  const statuses = useMemo(() => urls.map((url) => settledFrames[url] ?? "pending"), [urls, settledFrames]);
  const planRef = useRef(plan);
  planRef.current = plan;
  const [index, setIndex] = useState(0);
  const [dragging, setDragging] = useState(false);
  const position = useRef(0);
  const goal = useRef<number | undefined>(undefined);
  const animation = useRef<number | undefined>(undefined);
  const drag = useRef<Drag | undefined>(undefined);
  const instructionsId = useId();

  useEffect(() => {
    const wanted = urls.filter((url) => settledRef.current[url] === undefined);
    return preloadFrames(wanted, (i, status) =>
      setSettledFrames((previous) => ({ ...previous, [wanted[i] as string]: status })),
    );
  }, [urls]);

  const stop = () => {
    if (animation.current !== undefined) cancelAnimationFrame(animation.current);
    animation.current = undefined;
    goal.current = undefined;
  };

  // A window that crosses 480 or 725 px gets that width's frames, at the angle it showed.
  useEffect(
    () =>
      watchFramePlan(window, (next) => {
        const previous = planRef.current;
        if (samePlan(previous, next)) return;
        if (animation.current !== undefined) cancelAnimationFrame(animation.current);
        animation.current = undefined;
        goal.current = undefined;
        // A drag measured in the old plan's steps would jump in the new one.
        drag.current = undefined;
        setDragging(false);
        const angle = previous.frames[Math.round(position.current)] ?? 1;
        position.current = nearestFrameIndex(next.frames, angle);
        // Both breakpoints can be crossed at once (a phone turned): the second call starts from this plan.
        planRef.current = next;
        setIndex(position.current);
        setPlan(next);
      }),
    [],
  );
  useEffect(
    () => () => {
      if (animation.current !== undefined) cancelAnimationFrame(animation.current);
    },
    [],
  );

  const moveTo = (p: number) => {
    position.current = clampPosition(p, last);
    setIndex(Math.round(position.current));
  };

  /** Runs `step` once per animation frame with the ms since the previous one, until it returns false. */
  const animate = (step: (elapsed: number, now: number) => boolean) => {
    if (animation.current !== undefined) cancelAnimationFrame(animation.current);
    let previous: number | undefined;
    const tick = (now: number) => {
      const elapsed = previous === undefined ? 1000 / 60 : now - previous;
      previous = now;
      animation.current = step(elapsed, now) ? requestAnimationFrame(tick) : undefined;
    };
    animation.current = requestAnimationFrame(tick);
  };

  /** Buttons: a few frames, eased; pressing again while it moves adds to where it is heading. */
  const turn = (steps: number) => {
    const from = position.current;
    const to = clampPosition((goal.current ?? Math.round(from)) + steps, last);
    if (reducedMotion()) {
      stop();
      moveTo(to);
      return;
    }
    if (to === goal.current) return;
    goal.current = to;
    let started: number | undefined;
    animate((_, now) => {
      started ??= now;
      const p = easedPosition(from, to, now - started);
      moveTo(p);
      if (p === to) goal.current = undefined;
      return p !== to;
    });
  };

  const coast = (velocity: number) => {
    let v = velocity;
    animate((elapsed) => {
      const next = coastStep(position.current, v, elapsed, last);
      v = next.velocity;
      moveTo(next.position);
      return next.moving;
    });
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    stop();
    const element = event.currentTarget;
    drag.current = {
      pointerId: event.pointerId,
      startX: event.clientX,
      startPosition: position.current,
      width: element.getBoundingClientRect().width || element.clientWidth,
      samples: [{ time: event.timeStamp, x: event.clientX }],
    };
    element.setPointerCapture?.(event.pointerId);
    setDragging(true);
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    current.samples = addSample(current.samples, { time: event.timeStamp, x: event.clientX });
    moveTo(dragPosition(current.startPosition, event.clientX - current.startX, current.width, last));
  };

  const endDrag = (event: PointerEvent<HTMLDivElement>, withMomentum: boolean) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drag.current = undefined;
    setDragging(false);
    if (!withMomentum || reducedMotion() || current.width <= 0) return;
    const velocity = releaseVelocity(current.samples, event.timeStamp) * (last / current.width);
    if (Math.abs(velocity) >= stopSpeed) coast(velocity);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const here = Math.round(position.current);
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
    const target = targets[event.key];
    if (target === undefined) return;
    event.preventDefault();
    stop();
    moveTo(target);
  };

  const shown = frameToShow(statuses, index);
  const settled = statuses.filter((s) => s !== "pending").length;
  const percent = Math.round((settled / urls.length) * 100);
  const step = buttonStep(urls.length);
  const atStart = index === 0;
  const atEnd = index === last;

  return (
    <figure className="viewer360__figure">
      <div
        className={dragging ? "viewer360__stage is-dragging" : "viewer360__stage"}
        role="slider"
        tabIndex={0}
        aria-label={fill(texts.label, { product: alt })}
        aria-describedby={instructionsId}
        aria-valuemin={1}
        aria-valuemax={urls.length}
        aria-valuenow={index + 1}
        aria-valuetext={fill(texts.frame, { n: index + 1, count: urls.length })}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={(event) => endDrag(event, true)}
        onPointerCancel={(event) => endDrag(event, false)}
        onKeyDown={onKeyDown}
      >
        {shown !== undefined && (
          <img
            className="viewer360__image"
            src={urls[shown]}
            alt={alt}
            width={720}
            height={720}
            draggable={false}
            data-frame={plan.frames[shown]}
          />
        )}
      </div>
      <p className="visually-hidden" id={instructionsId}>
        {texts.instructions}
      </p>
      {settled < urls.length && (
        <div className="viewer360__progress">
          <progress max={urls.length} value={settled} aria-label={texts.loading} />
          <span aria-hidden="true">{fill(texts.progress, { percent })}</span>
        </div>
      )}
      <div className="viewer360__controls">
        {/* aria-disabled, not disabled: a disabled button drops keyboard focus at the end of the range. */}
        <button
          type="button"
          className="viewer360__button"
          aria-label={texts.turnLeft}
          aria-disabled={atStart}
          onClick={() => !atStart && turn(-step)}
        >
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
            <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2.5" />
          </svg>
        </button>
        <button
          type="button"
          className="viewer360__button"
          aria-label={texts.turnRight}
          aria-disabled={atEnd}
          onClick={() => !atEnd && turn(step)}
        >
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
            <path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2.5" />
          </svg>
        </button>
      </div>
    </figure>
  );
}
