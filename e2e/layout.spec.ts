import { expect, test } from '@playwright/test';
import { AppPage } from './pages/app-page';

for (const [name, viewport] of [
  ['laptop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`lays out on a ${name}`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const app = new AppPage(page);
    await app.goto();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
  });
}

test('every control can be reached with the keyboard', async ({ page }) => {
  const app = new AppPage(page);
  await app.goto();
  const reached = new Set<string>();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    if (id) reached.add(id);
  }
  for (const id of ['media.choose', 'media.url', 'options.output_format', 'form.submit']) {
    expect(reached).toContain(id);
  }
});
