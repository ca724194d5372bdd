import { shareLinks } from "../../server/domain/share-links.ts";

/**
 * Points a share block at another address of the same page (the product page's option
 * changed in place): the network links get the hrefs the server would have rendered for
 * that address (server/domain/share-links.ts, the same function), and the Web Share
 * button, which reads data-share-url when pressed, shares it too. The server's origin is
 * kept, so PUBLIC_URL still decides which host a shared link names.
 */
export function retargetShare(root: HTMLElement, path: string): void {
  const { shareUrl, shareTitle, shareText } = root.dataset;
  if (!shareUrl || shareTitle === undefined) return;
  const url = new URL(path, shareUrl).href;
  root.dataset.shareUrl = url;
  for (const link of shareLinks({ url, title: shareTitle, text: shareText })) {
    const anchor = root.querySelector<HTMLAnchorElement>(`a[data-analytics-network="${link.network}"]`);
    if (anchor) anchor.href = link.href;
  }
}
