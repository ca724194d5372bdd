/**
 * The share island: the plain share links work on their own; where the browser has its
 * own share sheet (Web Share API, mostly phones) a "Delen…" button opens it. The click is
 * counted by the analytics behaviour through the button's data-analytics attributes.
 */
export { contract } from "./contract.ts";

export function mount(element: HTMLElement): () => void {
  const button = element.querySelector<HTMLButtonElement>("button[data-share-native]");
  const nav = element.ownerDocument.defaultView?.navigator;
  /** Read when pressed: the product page points the block at another option (share-target.ts). */
  const shareData = (): ShareData => {
    const { shareUrl, shareTitle, shareText } = element.dataset;
    const data: ShareData = {
      url: shareUrl ?? element.ownerDocument.location.href,
      title: shareTitle ?? element.ownerDocument.title,
    };
    if (shareText) data.text = shareText;
    return data;
  };
  // canShare is newer than share; where it exists and says no, the sheet would refuse too.
  if (!button || typeof nav?.share !== "function" || nav.canShare?.({ url: shareData().url }) === false) {
    return () => {};
  }

  let open = false;
  const onClick = async () => {
    // A second share() while the sheet is open rejects; one sheet at a time.
    if (open) return;
    open = true;
    try {
      await nav.share(shareData());
    } catch (error) {
      // The shopper closing the sheet is an AbortError: a choice, not a failure.
      if ((error as { name?: string } | null)?.name !== "AbortError") console.warn("[share] failed", error);
    } finally {
      open = false;
    }
  };
  button.addEventListener("click", onClick);
  button.hidden = false;
  return () => {
    button.removeEventListener("click", onClick);
    button.hidden = true;
  };
}
