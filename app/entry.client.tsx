import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { installClientLog } from "#app/client/client-log";
import { keepEarlyInput } from "#app/client/early-input";

// What a hydrated screen throws reaches the platform's log (spec §7 /api/log).
installClientLog();

// Spec §8: a failed chunk load (e.g. assets replaced by a new deployment) reloads the page.
window.addEventListener("vite:preloadError", (event) => {
  event.preventDefault();
  window.location.reload();
});

const hydrate = () => {
  keepEarlyInput();
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
};

// Only the routes that ask for it (handle.hydrate) ever load this. Hydration waits for the whole
// document and its deferred scripts (the voice workbench's softphone SDK), which Remix's async
// module script can outrun; then for the server's page to be painted: with the scripts cached,
// hydrating before the first paint would hold the page blank for the whole of hydration.
const afterPaint = () => requestAnimationFrame(() => setTimeout(hydrate, 0));
if (domContentLoaded()) afterPaint();
else document.addEventListener("DOMContentLoaded", afterPaint, { once: true });

/**
 * Whether DOMContentLoaded has fired. Not `readyState`: it turns "interactive" when parsing ends,
 * before the deferred scripts run.
 */
function domContentLoaded(): boolean {
  const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  return navigation ? navigation.domContentLoadedEventStart > 0 : document.readyState !== "loading";
}
