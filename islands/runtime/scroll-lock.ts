/**
 * Locks the page's scrolling while something modal is open, as react-aria's modal does
 * (the modal island): overflow hidden on the root, and the scroll bar's width as padding so
 * nothing moves sideways. Counted, so two overlays never unlock each other's page.
 */
let holders = 0;
let saved: { overflow: string; paddingRight: string } | undefined;

export function lockScroll(doc: Document = document): () => void {
  const root = doc.documentElement;
  if (holders === 0) {
    const view = doc.defaultView;
    const scrollBar = view ? view.innerWidth - root.clientWidth : 0;
    saved = { overflow: root.style.overflow, paddingRight: root.style.paddingRight };
    root.style.overflow = "hidden";
    if (scrollBar > 0) root.style.paddingRight = `${scrollBar}px`;
  }
  holders++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders--;
    if (holders === 0 && saved) {
      root.style.overflow = saved.overflow;
      root.style.paddingRight = saved.paddingRight;
      saved = undefined;
    }
  };
}
