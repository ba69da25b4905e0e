// Debian's headless chromium through playwright-core, as the report test and scripts/report-screenshots.ts open
// it: the system binary (BUDGETRL_CHROMIUM overrides), no sandbox, GPU or background networking, a fresh profile.
import { existsSync } from "node:fs";
import { chromium, type BrowserContext } from "playwright-core";

export const CHROMIUM = process.env["BUDGETRL_CHROMIUM"] ?? "/usr/bin/chromium";

/** A headless chromium with its own profile folder and a 1300 x 900 window. */
export async function launchChromium(profileDir: string): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `headless chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (bash .ci/run does), or point BUDGETRL_CHROMIUM at it`,
    );
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1300, height: 900 },
  });
}
