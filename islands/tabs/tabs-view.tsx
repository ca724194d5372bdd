import {
  type Key,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { Tab, TabList, TabPanel, Tabs } from "react-aria-components/Tabs";
import { track } from "../analytics/track.ts";
import { flushPageState, readPageState, writePageState } from "../runtime/history-state.ts";
import { accordionQuery, inPageHash, type TabSection, targetForHash } from "./tabs-state.ts";

export interface TabsViewProps {
  label: string;
  sections: TabSection[];
  /** Where the history entry keeps the active and open sections, for Back and Forward. */
  stateKey?: string;
}

/** What the history entry keeps: the active section and, in the accordion, every open one. */
interface KeptTabs {
  active: string;
  open: string[];
}

function keptTabs(stateKey: string | undefined, sections: TabSection[]): KeptTabs | undefined {
  const kept = stateKey ? readPageState<KeptTabs>(stateKey) : undefined;
  const known = (id: unknown) => sections.some((s) => s.id === id);
  if (!kept || !known(kept.active)) return undefined;
  return { active: kept.active, open: Array.isArray(kept.open) ? kept.open.filter(known) : [] };
}

function subscribeNarrow(onChange: () => void) {
  const query = window.matchMedia(accordionQuery);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}
const isNarrow = () => window.matchMedia(accordionQuery).matches;

/**
 * Puts a server-rendered section into the box React made for it. The section itself is
 * moved, never copied: forms keep what was typed and the islands inside keep working.
 */
function useHolder(section: TabSection) {
  return useCallback(
    (box: HTMLDivElement | null) => {
      if (box && section.node.parentElement !== box) box.appendChild(section.node);
    },
    [section],
  );
}

function Holder({ section }: { section: TabSection }) {
  return <div className="tabs__content" ref={useHolder(section)} />;
}

/** What to bring into view after a fragment chose a section: its tab (or heading), or an element inside it. */
interface ScrollTarget {
  id: string;
  /** Move focus to the tab or heading (not on arrival: the shopper has not acted yet). */
  focus: boolean;
  element?: HTMLElement;
}

const scrollTargetFor = (sections: TabSection[], hash: string, focus: boolean): ScrollTarget | undefined => {
  const target = targetForHash(hash, sections);
  const section = target && sections[target.index];
  if (!section) return undefined;
  return { id: section.id, focus: focus && !target.element, element: target.element };
};

/** Room for the sticky header, which comes back fixed whenever the page scrolls up. */
function scrollIntoViewBelowHeader(target: HTMLElement) {
  const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const header = document.querySelector<HTMLElement>("[data-sticky-header]")?.offsetHeight ?? 0;
  const top = target.getBoundingClientRect().top + window.scrollY - header - 16;
  window.scrollTo({ top: Math.max(0, top), behavior: smooth ? "smooth" : "auto" });
}

/**
 * Above 725 px: ARIA tabs (react-aria: arrow keys, Home/End, roving focus), exactly one
 * active. At or below: an accordion whose sections open and close on their own. The
 * active section survives crossing the breakpoint. The address fragment selects a tab by
 * its label, and back/forward follow tab changes.
 */
export function TabsView({ label, sections, stateKey }: TabsViewProps) {
  const narrow = useSyncExternalStore(subscribeNarrow, isNarrow, () => false);
  // Back, Forward or a reload to this history entry: the sections as the shopper left them.
  const [kept] = useState(() => keptTabs(stateKey, sections));
  // Arriving with a fragment: show that section (or the element it names) in view, without moving focus.
  const [arrival] = useState(() => scrollTargetFor(sections, window.location.hash, false));
  const [active, setActive] = useState(() => arrival?.id ?? kept?.active ?? sections[0]?.id ?? "");
  const [open, setOpen] = useState(() => new Set([...(kept?.open ?? []), active]));
  // Coming back, the browser puts the page's scroll position back itself.
  const [scrollTo, setScrollTo] = useState<ScrollTarget | undefined>(kept ? undefined : arrival);
  const tabRefs = useRef(new Map<string, HTMLElement>());
  const toggleRefs = useRef(new Map<string, HTMLElement>());

  /** The shopper chose a section: it becomes active, and the address (and history) follows. */
  const choose = (id: string) => {
    track(sections.find((s) => s.id === id)?.node ?? document, "tabs.open", { tab: id, via: "tab" });
    setActive(id);
    const hash = `#${id}`;
    if (window.location.hash !== hash) {
      // What the entry being left should keep goes there, not into the new one.
      flushPageState();
      window.history.pushState(window.history.state, "", hash);
    }
  };

  useEffect(() => {
    if (stateKey) writePageState(stateKey, { active, open: [...open] } satisfies KeptTabs);
  }, [stateKey, active, open]);

  // Going narrow opens the active section, so the shopper keeps seeing what they saw.
  useLayoutEffect(() => {
    if (narrow) setOpen((current) => (current.has(active) ? current : new Set(current).add(active)));
  }, [narrow, active]);

  // A fragment (typed, a link such as "view uploads", or back/forward) selects its section.
  useEffect(() => {
    const show = (target: ScrollTarget) => {
      setActive(target.id);
      setOpen((current) => (current.has(target.id) ? current : new Set(current).add(target.id)));
      setScrollTo(target);
    };
    const follow = () => {
      const target = scrollTargetFor(sections, window.location.hash, true);
      if (target) show(target);
      else if (!window.location.hash && sections[0]) setActive(sections[0].id);
    };
    // A link to a section or to something inside one. The browser fires no hashchange when
    // the address already ends in that fragment (a second "view uploads" after the section
    // was closed), so such clicks are handled here rather than left to the browser.
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement)) return;
      const hash = inPageHash(link, window.location);
      const target = hash ? scrollTargetFor(sections, hash, true) : undefined;
      if (!hash || !target) return;
      event.preventDefault();
      if (window.location.hash !== hash) {
        flushPageState();
        window.history.pushState(window.history.state, "", hash);
      }
      show(target);
    };
    window.addEventListener("hashchange", follow);
    window.addEventListener("popstate", follow);
    document.addEventListener("click", onClick);
    return () => {
      window.removeEventListener("hashchange", follow);
      window.removeEventListener("popstate", follow);
      document.removeEventListener("click", onClick);
    };
  }, [sections]);

  // After a fragment switched sections: bring it (or the element it names) into view and
  // put focus on its tab or heading, so a keyboard user is not left on a link that just
  // became hidden.
  useEffect(() => {
    if (!scrollTo) return;
    const control = (narrow ? toggleRefs : tabRefs).current.get(scrollTo.id);
    const target = scrollTo.element ?? control;
    if (!target) return;
    scrollIntoViewBelowHeader(target);
    if (scrollTo.focus) control?.focus({ preventScroll: true });
  }, [scrollTo, narrow]);

  if (narrow) {
    return (
      <div className="tabs__accordion" data-tabs-mode="accordion">
        {sections.map((section) => {
          const isOpen = open.has(section.id);
          return (
            <div className="tabs__item" key={section.id}>
              <h2 className="tabs__accordion-heading">
                <button
                  type="button"
                  className="tabs__toggle"
                  id={`${section.id}-toggle`}
                  aria-expanded={isOpen}
                  aria-controls={`${section.id}-region`}
                  ref={(el) => {
                    if (el) toggleRefs.current.set(section.id, el);
                  }}
                  onClick={() => {
                    if (isOpen) {
                      setOpen((current) => {
                        const next = new Set(current);
                        next.delete(section.id);
                        return next;
                      });
                    } else {
                      setOpen((current) => new Set(current).add(section.id));
                      choose(section.id);
                    }
                  }}
                >
                  {section.label}
                </button>
              </h2>
              <section
                className="tabs__region"
                id={`${section.id}-region`}
                aria-labelledby={`${section.id}-toggle`}
                hidden={!isOpen}
              >
                <Holder section={section} />
              </section>
            </div>
          );
        })}
      </div>
    );
  }

  return (
    <Tabs
      className="tabs__tabs"
      data-tabs-mode="tabs"
      selectedKey={active}
      onSelectionChange={(key: Key) => choose(String(key))}
    >
      <TabList className="tabs__list" aria-label={label}>
        {sections.map((section) => (
          <Tab
            key={section.id}
            id={section.id}
            className="tabs__tab"
            ref={(el: HTMLDivElement | null) => {
              if (el) tabRefs.current.set(section.id, el);
            }}
          >
            {section.label}
          </Tab>
        ))}
      </TabList>
      {sections.map((section) => (
        <TabPanel key={section.id} id={section.id} className="tabs__panel" shouldForceMount>
          <Holder section={section} />
        </TabPanel>
      ))}
    </Tabs>
  );
}
