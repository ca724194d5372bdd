/** A behaviour: document-level, no UI of its own, started once per page. */
export interface BehaviourModule {
  start(root: Document): void;
}

/** An island: UI on one element; may return a function that unmounts it. */
export interface IslandModule {
  mount(element: HTMLElement): undefined | (() => void);
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
      load: () => Promise<IslandModule>;
    };

export const islandSelector = (name: string) => `[data-island="${name}"]`;
