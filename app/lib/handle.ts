/** What a route module may declare in `handle`, typed once (design.md §4). */
export type RouteHandle = {
  /**
   * Screen title, shown in the page title before the brand suffix; from the loader's data when
   * it depends on who reads the screen.
   */
  title?: string | ((data: unknown) => string | undefined);
  /** Only routes that ask for it ship JavaScript: workbenches, chat, the player, live monitoring. */
  hydrate?: boolean;
};

export function wantsHydration(matches: readonly { handle?: unknown }[]): boolean {
  return matches.some((match) => (match.handle as RouteHandle | undefined)?.hydrate === true);
}

export function screenTitle(matches: readonly { handle?: unknown; data?: unknown }[]): string | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const title = (matches[i].handle as RouteHandle | undefined)?.title;
    const text = typeof title === "function" ? title(matches[i].data) : title;
    if (text) return text;
  }
  return undefined;
}
