import { testShop } from "./tests/support/app.ts";
const shop = await testShop({ logger: { level: "error" } });
const cookie = `cart=${shop.app.signCookie("benchbenchbenchbench01")}`;
for (const url of ["/", "/winkelwagen/inhoud", "/healthz"]) {
  for (let i = 0; i < 300; i++) await shop.app.inject({ url, headers: { cookie } });
  const t0 = performance.now();
  const n = 3000;
  for (let i = 0; i < n; i++) await shop.app.inject({ url, headers: { cookie } });
  console.log(url, ((performance.now() - t0) / n).toFixed(3), "ms/req");
}
await shop.close();
