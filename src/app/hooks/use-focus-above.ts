import { useEffect, type RefObject } from 'react';

/** Room kept between a focused control and the bar, for its focus ring. */
const RING = 8;

/** What shows an element's focus: a visually hidden input (a toggle) shows it on its label. */
function shownBox(element: Element): DOMRect {
  const own = element.getBoundingClientRect();
  if (own.width > 1 && own.height > 1) return own;
  return (element.closest('label') ?? element).getBoundingClientRect();
}

/**
 * Keeps the control that takes the focus above a bar stuck to the bottom of the screen
 * (WCAG 2.4.11). The browser scrolls a focused control into view only when it lies outside the
 * screen (then `scroll-padding-bottom` keeps it above the bar); one already on screen but
 * behind the bar is scrolled up here by as much as the bar covers of it.
 */
export function useFocusAbove(bar: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const onFocus = (event: FocusEvent) => {
      const target = event.target;
      if (!bar.current || !(target instanceof Element) || bar.current.contains(target)) return;
      // Focus from the keyboard only: a control pressed with the pointer must not move between
      // the press and the release, or the release would land beside it and the click be lost.
      if (!target.matches(':focus-visible')) return;
      const box = shownBox(target);
      const cover = bar.current.getBoundingClientRect();
      const beside = box.right <= cover.left || box.left >= cover.right;
      const covered = box.bottom + RING - cover.top;
      if (beside || box.top >= cover.bottom || covered <= 0) return;
      window.scrollBy({ top: covered });
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, [bar]);
}
