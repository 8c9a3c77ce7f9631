import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { fixtureResponse } from './fixtures/response';
import { AppPage } from './pages/app-page';

const VIEWPORTS = [
  ['laptop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

/**
 * The focused control, when sticky or fixed content (the Transcribe bar) covers any of it:
 * its test id or text and the covering element's. Null when it is fully in sight. A visually
 * hidden input (a toggle's checkbox) is judged by the label that shows its focus.
 */
function coveredFocus(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const focused = document.activeElement;
    if (!(focused instanceof HTMLElement) || focused === document.body) return null;
    let shown: Element = focused;
    const own = focused.getBoundingClientRect();
    if (own.width <= 1 || own.height <= 1) shown = focused.closest('label') ?? focused;
    const rect = shown.getBoundingClientRect();
    const stuck = [...document.querySelectorAll('body *')].filter((e) =>
      ['sticky', 'fixed'].includes(getComputedStyle(e).position),
    );
    for (const cover of stuck) {
      if (cover.contains(focused)) continue;
      const c = cover.getBoundingClientRect();
      const overlaps =
        rect.left < c.right && c.left < rect.right && rect.top < c.bottom && c.top < rect.bottom;
      if (overlaps) {
        const name = (e: Element) =>
          e.getAttribute('data-testid') ?? e.textContent?.trim().slice(0, 40) ?? e.tagName;
        return `${name(shown)} under ${name(cover)}`;
      }
    }
    return null;
  });
}

/** Tabs through the whole page once, collecting every focused control that is covered. */
async function tabThrough(page: Page): Promise<{ reached: number; covered: string[] }> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const covered: string[] = [];
  const seen = new Set<unknown>();
  let reached = 0;
  for (let i = 0; i < 400; i++) {
    await page.keyboard.press('Tab');
    const handle = await page.evaluateHandle(() => document.activeElement);
    const key = await handle.evaluate((e) => {
      const w = window as unknown as { focusOrder?: WeakMap<Element, number>; next?: number };
      w.focusOrder ??= new WeakMap();
      w.next ??= 0;
      if (!e) return -1;
      if (!w.focusOrder.has(e)) w.focusOrder.set(e, w.next++);
      return w.focusOrder.get(e)!;
    });
    if (seen.has(key)) break;
    seen.add(key);
    reached += 1;
    const problem = await coveredFocus(page);
    if (problem) covered.push(problem);
  }
  return { reached, covered };
}

for (const [name, viewport] of VIEWPORTS) {
  test(`no focused control is hidden under the Transcribe bar, on every screen of a ${name}`, async ({
    page,
  }, info) => {
    test.setTimeout(120_000);
    mkdirSync(info.outputDir, { recursive: true });
    await page.setViewportSize(viewport);
    const app = new AppPage(page);
    await app.goto();

    // The form as it opens.
    const start = await tabThrough(page);
    expect(start.reached).toBeGreaterThan(10);
    expect(start.covered, 'start').toEqual([]);

    // The form with every option that reveals more fields, after a rejected submit.
    await app.chooseBehaviour('manual');
    await app.toggle('toggle_diarization');
    await app.toggle('toggle_direct_translate');
    await app.submit();
    await expect(app.byId('form.problems')).toBeVisible();
    const problems = await tabThrough(page);
    expect(problems.covered, 'form problems').toEqual([]);

    // A result in the editor.
    const saved = info.outputPath('talk.json');
    writeFileSync(saved, JSON.stringify(fixtureResponse()));
    await app.openSavedResult(saved);
    await expect(app.byId('result')).toBeVisible();
    const result = await tabThrough(page);
    expect(result.reached).toBeGreaterThan(start.reached);
    expect(result.covered, 'result').toEqual([]);
  });
}
