import type { ReactNode, Ref } from "react";
import type { Viewer360Texts } from "./contract.ts";
import type { FullscreenMode } from "./use-fullscreen.ts";
import { maxZoom, minZoom } from "./zoom.ts";

/** 24 px line icons; the button's label is its name. */
function Icon({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path d={d} fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}

interface ButtonProps {
  label: string;
  unavailable?: boolean;
  onPress: () => void;
  buttonRef?: Ref<HTMLButtonElement>;
  children: ReactNode;
}

/** aria-disabled, not disabled: a disabled button drops keyboard focus at the end of the range. */
function ControlButton({ label, unavailable = false, onPress, buttonRef, children }: ButtonProps) {
  return (
    <button
      ref={buttonRef}
      type="button"
      className="viewer360__button"
      aria-label={label}
      aria-disabled={unavailable}
      onClick={() => !unavailable && onPress()}
    >
      {children}
    </button>
  );
}

export interface ControlsProps {
  texts: Viewer360Texts;
  atStart: boolean;
  atEnd: boolean;
  onTurn: (direction: -1 | 1) => void;
  scale: number;
  onZoom: (steps: -1 | 1) => void;
  onZoomReset: () => void;
  fullscreen: FullscreenMode;
  onFullscreen: () => void;
  fullscreenRef: Ref<HTMLButtonElement>;
}

/** The viewer's buttons: turn left and right at the sides, zoom and full screen between them. */
export function Controls(props: ControlsProps) {
  const { texts, scale } = props;
  const full = props.fullscreen !== "off";
  return (
    <div className="viewer360__controls">
      <ControlButton label={texts.turnLeft} unavailable={props.atStart} onPress={() => props.onTurn(-1)}>
        <Icon d="M15 5l-7 7 7 7" />
      </ControlButton>
      <div className="viewer360__tools">
        <ControlButton label={texts.zoomOut} unavailable={scale <= minZoom} onPress={() => props.onZoom(-1)}>
          <Icon d="M6 12h12" />
        </ControlButton>
        <ControlButton label={texts.zoomReset} unavailable={scale === 1} onPress={props.onZoomReset}>
          <Icon d="M5 12a7 7 0 1 0 2.1-5M5 4v4h4" />
        </ControlButton>
        <ControlButton label={texts.zoomIn} unavailable={scale >= maxZoom} onPress={() => props.onZoom(1)}>
          <Icon d="M12 6v12M6 12h12" />
        </ControlButton>
        <ControlButton
          label={full ? texts.exitFullscreen : texts.fullscreen}
          onPress={props.onFullscreen}
          buttonRef={props.fullscreenRef}
        >
          <Icon
            d={full ? "M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" : "M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5"}
          />
        </ControlButton>
      </div>
      <ControlButton label={texts.turnRight} unavailable={props.atEnd} onPress={() => props.onTurn(1)}>
        <Icon d="M9 5l7 7-7 7" />
      </ControlButton>
    </div>
  );
}
