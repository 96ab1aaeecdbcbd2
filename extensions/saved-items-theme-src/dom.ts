// Small DOM and storage helpers. The script's size is capped (see main.ts), and these calls recur
// on every block, so each is spelled out once here.

export const all = (root: ParentNode, selector: string): HTMLElement[] => [
  ...root.querySelectorAll<HTMLElement>(selector),
];

export const find = <E extends Element = HTMLElement>(root: ParentNode, selector: string): E | null =>
  root.querySelector<E>(selector);

/** A copy of the first element of the block's <template> (a row, a heart), or of the one `selector` names. */
export const fromTemplate = (root: ParentNode, selector = "template"): HTMLElement =>
  find<HTMLTemplateElement>(root, selector)!.content.firstElementChild!.cloneNode(true) as HTMLElement;

/** A data-* attribute the block's Liquid rendered, "" when absent. */
export const data = (element: Element, name: string): string => element.getAttribute(`data-${name}`) || "";

export const setAttr = (element: Element, name: string, value: string | boolean): void =>
  element.setAttribute(name, String(value));

export const listen = (target: EventTarget, type: string, listener: (event: Event) => void, capture?: boolean): void =>
  target.addEventListener(type, listener, capture);

/**
 * Same-site paths and https URLs only: a snapshot is whatever a client stored. A browser reads a
 * backslash as a slash and drops tabs and newlines anywhere in a URL, so "/\host" and
 * "/<TAB>/host" are "//host", another site: neither may appear at all.
 */
export const isSafeUrl = (url: unknown): url is string =>
  typeof url === "string" && !/[\t\n\r\\]/.test(url) && /^(\/(?!\/)|https:\/\/)/.test(url);

/**
 * localStorage, or nothing where the browser refuses it (private mode, blocked storage, a full
 * quota): saving still works, only the memory across pages is lost.
 */
export function readStored<T>(key: string): T | undefined {
  try {
    return JSON.parse(localStorage.getItem(key) || "null") || undefined;
  } catch {
    return undefined;
  }
}

/** Writes `value` as JSON, or removes the key for undefined. */
export function writeStored(key: string, value: unknown): void {
  try {
    if (value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Refused (see readStored): this page keeps working from memory.
  }
}
