import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:3314";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
const [w, h, scheme, ...paths] = process.argv.slice(2);
const ctx = await browser.newContext({ viewport: { width: Number(w), height: Number(h) }, colorScheme: scheme });
const page = await ctx.newPage();
page.on("console", (m) => m.type() === "error" && console.log("console:", m.text()));
await page.goto(base + "/login");
await page.getByLabel("Password").fill("look-password");
await page.getByRole("button", { name: "Sign in" }).click();
await page.waitForURL(/overview/);
for (const p of paths) {
  await page.goto(base + p);
  await page.waitForTimeout(1500);
  const name = `/tmp/shot-${w}-${scheme}-${p.replace(/[^a-z0-9]+/gi, "_")}.png`;
  await page.screenshot({ path: name, fullPage: false });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  console.log(name, "overflow", overflow);
}
await browser.close();
