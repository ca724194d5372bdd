/** A behaviour: document-level, no UI of its own, started once per page. */
export interface BehaviourModule {
  start(root: Document): void;
  /** Its contract; the runtime reports every element on the page that breaks it. */
  contract?: CheckedContract;
}

/** An island: UI on one element; may return a function that unmounts it. */
export interface IslandModule {
  mount(element: HTMLElement): undefined | (() => void);
  /** Its contract (islands/<hook>/contract.ts); the runtime checks the element against it before mounting. */
  contract?: CheckedContract;
}

export type HookDefinition =
  | { kind: "behaviour"; name: string; selector: string; load: () => Promise<BehaviourModule> }
  | {
      kind: "island";
      name: string;
      /** React islands pull the shared React chunk; the budget script holds pages without them to zero React. */
      react: boolean;
      /**
       * Heavy islands (360 viewer, carousel) wait until their element comes within this
       * margin of the viewport (an IntersectionObserver rootMargin such as "250px"), so a
       * shopper who never scrolls there never downloads them.
       */
      nearViewport?: string;
      /**
       * When an island with nothing to do at first mounts (Astro's client directives): at the
       * first of these moments, "idle" (the browser has nothing else to do) or "interaction"
       * (the shopper first presses, focuses or types inside it). Absent: at load, or with
       * nearViewport when it comes near. Its server markup shows and works until then, so
       * nothing shifts when it mounts. docs/performance.md says which island waits for what.
       */
      mountWhen?: ReadonlyArray<MountMoment>;
      load: () => Promise<IslandModule>;
    };

export type MountMoment = "idle" | "interaction";

/**
 * What a hook module hands the runtime: the check of its element against its contract,
 * which travels in the hook's own chunk, so pages without hooks never download it.
 */
export interface CheckedContract {
  /** The first way the element breaks the contract, in words for the console; undefined when it keeps it. */
  problem(element: HTMLElement): string | undefined;
}

export const islandSelector = (name: string) => `[data-island="${name}"]`;
