/**
 * What a current browser (Chromium) sends with a navigation inside the shop: the bench asks
 * as shoppers' browsers do, since what the shop answers depends on it (compression, and
 * whether forms need a token of their own: form-protection.ts).
 */
export const navigationHeaders: Readonly<Record<string, string>> = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br, zstd",
  "sec-fetch-dest": "document",
  "sec-fetch-mode": "navigate",
  "sec-fetch-site": "same-origin",
  "user-agent":
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
};
