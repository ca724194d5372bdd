/**
 * Where the share buttons lead: the networks' own share addresses, which work as plain
 * links without any script of ours or theirs on the page.
 */
export const shareNetworks = ["facebook", "twitter", "whatsapp", "email"] as const;
export type ShareNetwork = (typeof shareNetworks)[number];

export interface SharePage {
  /** Absolute address of the page being shared. */
  url: string;
  title: string;
  /** A line about the page, for the e-mail body; the title when absent. */
  text?: string;
}

export interface ShareLink {
  network: ShareNetwork;
  href: string;
  /** Web links open in a new window; the e-mail link opens the mail program. */
  external: boolean;
}

const enc = encodeURIComponent;

export function shareLinks({ url, title, text }: SharePage): ShareLink[] {
  // RFC 6068: line breaks in a mailto body are CRLF, percent-encoded like everything else.
  const body = `${text ?? title}\r\n\r\n${url}`;
  return [
    { network: "facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${enc(url)}`, external: true },
    {
      network: "twitter",
      href: `https://twitter.com/intent/tweet?url=${enc(url)}&text=${enc(title)}`,
      external: true,
    },
    { network: "whatsapp", href: `https://wa.me/?text=${enc(`${title} ${url}`)}`, external: true },
    { network: "email", href: `mailto:?subject=${enc(title)}&body=${enc(body)}`, external: false },
  ];
}
