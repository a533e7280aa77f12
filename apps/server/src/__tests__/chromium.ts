import { access, constants, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

// The browser tests drive a real Chromium: Debian's `chromium` package (CI installs it
// when missing), or any Chromium or Chrome named by CHROMIUM_PATH. Nothing is downloaded.

/** The flags of a quiet, throwaway headless browser that talks to nothing but the page's server. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/**
 * Starts Chromium with a fresh profile. Without a browser this fails at once,
 * saying how to get one, instead of hanging or skipping.
 */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const executablePath = chromiumPath();
  try {
    await access(executablePath, constants.X_OK);
  } catch {
    throw new Error(
      `The browser tests need Chromium, and there is none at ${executablePath}. Install it (Debian/Ubuntu: ` +
        'sudo apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary. ' +
        'To run every other test without it: npx vitest run --exclude "**/web.test.ts".',
    );
  }
  const profile = await mkdtemp(path.join(tmpdir(), 'docs-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    // The profile directory is the --user-data-dir, fresh for each run.
    args: CHROMIUM_FLAGS,
    timeout: 30_000,
    viewport: { width: 1100, height: 760 },
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
