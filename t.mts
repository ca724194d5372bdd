import { testShop } from "./tests/support/app.ts";

const shop = await testShop({ logger: { level: "error" } });
for (const url of ["/", "/winkelwagen/inhoud", "/healthz"]) {
  for (let i = 0; i < 200; i++) await shop.app.inject({ url });
  const t0 = performance.now();
  const n = 2000;
  for (let i = 0; i < n; i++) await shop.app.inject({ url });
  console.log(url, ((performance.now() - t0) / n).toFixed(3), "ms/req");
}
await shop.close();
